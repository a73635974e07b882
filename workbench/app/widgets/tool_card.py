"""The tool card widget: draws one call state through the surface registry."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rich.box import ROUNDED
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.segment import Segment
from rich.text import Text
from textual.reactive import reactive
from textual.timer import Timer
from textual.widget import Widget

from workbench.app.palette import palette_for
from workbench.core.call_state import CallState, Phase
from workbench.core.manifest import ToolManifest
from workbench.core.problems import Problem
from workbench.core.sanitize import clean
from workbench.fixtures.catalog import Catalog, VariantRef
from workbench.hosts.first_look import FirstLook
from workbench.hosts.profile import HostProfile
from workbench.surfaces.card import can_fold, card_renderable, compose_card
from workbench.surfaces.context import Palette, SurfaceContext, variant_context
from workbench.surfaces.host_look import HostFirstLook, SegmentLine
from workbench.surfaces.registry import SurfaceKind, SurfaceRegistry

SPINNER_INTERVAL = 0.1


def problems_card(title: str, problems: Sequence[Problem], palette: Palette, width: int) -> Panel:
    """A card-shaped box saying why a fixture does not load: each problem's line and message
    (untrusted text, drawn literally), and what to do."""
    body: list[RenderableType] = []
    for problem in problems[:MAX_PROBLEMS]:
        where = Path(problem.file).name + (f":{problem.line}" if problem.line else "")
        line = Text(f"✗ {where} ", style=f"bold {palette.error}")
        if problem.field:
            line.append(f"{clean(problem.field)}: ", style="italic")
        line.append(clean(problem.message))
        body.append(line)
    if len(problems) > MAX_PROBLEMS:
        body.append(Text(f"showing {MAX_PROBLEMS} of {len(problems)} problems", palette.muted))
    body.append(
        Text(
            "no sample is drawn in its place: save a fix and this card redraws",
            style=f"italic {palette.muted}",
        )
    )
    return Panel(
        Group(*body),
        title=Text(f" {title} ", style=f"bold {palette.error}"),
        title_align="left",
        subtitle=Text(" does not load ", style=palette.error),
        subtitle_align="right",
        border_style=palette.error,
        box=ROUNDED,
        width=width,
        padding=(0, 1),
    )


MAX_PROBLEMS = 6
"""Problems listed in the card (the problems panel lists them all)."""


def _call_of(state: CallState) -> tuple[str, str, str]:
    """Which call ``state`` belongs to (a fixture's call id is its variant id, unique per API)."""
    return (state.tool, state.api, state.call_id)


class ToolCard(Widget):
    """A call drawn as a tool card: the Inspector line, then the surface its phase calls for.

    The card never learns where the state came from (a fixture replay or a live call).
    """

    DEFAULT_CSS = """
    ToolCard {
        height: auto;
        width: 80;
        padding: 0;
    }
    ToolCard.-empty {
        color: $text-muted;
    }
    """

    call_state: reactive[CallState | None] = reactive(None, always_update=True, repaint=False)
    """The call to draw; ``None`` shows a hint. A new state repaints the card only when the card
    looks different, and lays the screen out again only when its height changed (a live call
    sends up to 30 states a second, most of them drawn the same)."""
    card_width: reactive[int] = reactive(80, layout=True)
    """Columns the card is framed at (the width presets)."""
    frame: reactive[int] = reactive(0)
    """Spinner frame; only advances when ``animated`` is on."""
    expanded: reactive[bool | None] = reactive(None, repaint=False)
    """A person opened (``True``) or folded (``False``) the card; ``None`` is the first look
    the API's ``renderDisplayControl`` asks for. A new call starts from its first look."""

    def __init__(
        self,
        registry: SurfaceRegistry,
        *,
        animate: bool = True,
        empty_hint: str = "Pick a fixture variant in the tree to see its tool card.",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.registry = registry
        self.manifest: ToolManifest | None = None
        self.animated = animate
        self.empty_hint = empty_hint
        self.body_kind: SurfaceKind | None = None
        self.body_fallback = False
        self._folded = False
        self._spinner: Timer | None = None
        self._drawn: tuple[tuple[object, ...], RenderableType] | None = None
        """The card last composed, and what it was composed from."""
        self._problems: tuple[str, tuple[Problem, ...]] | None = None
        """What the card shows instead of a call: a fixture's load problems."""
        self._painted: tuple[tuple[object, ...], list[Segment]] | None = None
        """The card's segments as last measured, and what besides the state they were drawn
        with: a state drawn the same needs no repaint."""
        self.host_look: HostProfile | None = None
        """The host whose first look the card shows (folded by its user rule); ``None``: the
        full card."""
        self.compositions = 0
        """How many times the card was composed (each distinct state, width, theme or spinner
        frame once, however often Textual asks): what a flood of events costs the card."""

    def show(self, state: CallState | None, manifest: ToolManifest | None) -> None:
        """Draw ``state`` of a call to a tool described by ``manifest``."""
        shown = self.call_state
        if state is None or shown is None or _call_of(state) != _call_of(shown):
            self.set_reactive(ToolCard.expanded, None)
        self.manifest = manifest
        self._problems = None
        self.call_state = state

    def show_variant(self, catalog: Catalog, ref: VariantRef, phase: Phase) -> None:
        """Draw fixture variant ``ref`` at ``phase``, from the context ``show`` and the snapshot
        drawer build (the card's own width and theme apply when it draws)."""
        ctx = variant_context(catalog, ref, phase, width=self.card_width)
        self.show(ctx.state, ctx.manifest)

    @property
    def can_fold(self) -> bool:
        """The shown card may be folded to one line (a ``done`` result, not ``alwaysExpand``)."""
        ctx = self.context()
        return ctx is not None and can_fold(ctx)

    @property
    def folded(self) -> bool:
        """The card shows its Inspector and one summary line, not the Render."""
        if self.call_state is None or self._problems is not None:
            return False
        self._card()
        return self._folded

    def toggle_folded(self) -> bool:
        """Open a folded card or fold an open one; returns whether it is folded now (a card
        that cannot fold stays open)."""
        if self.can_fold:
            self.expanded = self.folded
        return self.folded

    def watch_expanded(self) -> None:
        self._refresh_card()

    def show_problems(self, title: str, problems: Sequence[Problem]) -> None:
        """Draw, in the card's frame, why there is no call to show: ``problems`` of a fixture
        that does not load (never a sample that could be read as a result)."""
        self._problems = (title, tuple(problems))
        self.call_state = None

    def show_as(self, host: HostProfile | None) -> None:
        """Fold the card the way ``host`` first shows it, or (``None``) show it whole."""
        self.host_look = host
        if self.is_mounted:
            self.refresh(layout=True)  # Folded or whole, the card changes height.

    def first_look(self) -> FirstLook[SegmentLine] | None:
        """The fold of the card as drawn now (how many lines the host hides), or ``None`` when
        the card is shown whole or shows no call."""
        card = self._card()
        if not isinstance(card, HostFirstLook) or not self.is_mounted:
            return None
        options = self.app.console_options.update_width(self.card_width).update(highlight=False)
        self.app.console.render_lines(card, options)
        return card.look

    @property
    def palette(self) -> Palette:
        return palette_for(self.app.current_theme)

    def context(self) -> SurfaceContext | None:
        if self.call_state is None:
            return None
        return SurfaceContext(
            state=self.call_state,
            manifest=self.manifest,
            width=self.card_width,
            palette=self.palette,
            frame=self.frame,
        )

    def on_mount(self) -> None:
        self.watch(self.app, "theme", self._theme_changed, init=False)
        self.styles.width = self.card_width

    def _theme_changed(self) -> None:
        self.refresh(layout=True)

    def watch_card_width(self, width: int) -> None:
        self.styles.width = width

    def watch_call_state(self, state: CallState | None) -> None:
        self.set_class(state is None and self._problems is None, "-empty")
        self._refresh_card()
        active = state is not None and (state.is_args_streaming or state.is_loading)
        if self.animated and active and self._spinner is None:
            self._spinner = self.set_interval(SPINNER_INTERVAL, self._advance_frame)
        elif not active and self._spinner is not None:
            self._spinner.stop()
            self._spinner = None
            self.frame = 0

    def _advance_frame(self) -> None:
        self.frame += 1

    def _refresh_card(self) -> None:
        """Repaint for a new state; lay the screen out again only if the card's height changed
        (a layout reflows every widget on the screen, a repaint only the card's rows)."""
        if not self.is_mounted:
            return
        card = self._card()
        if self.call_state is None:
            self.refresh(layout=True)  # The hint wraps at the pane's width: let Textual measure.
            return
        # Measured as Textual measures an auto-height widget (RichVisual.get_height).
        options = self.app.console_options.update_width(self.card_width).update(highlight=False)
        segments = list(self.app.console.render(card, options))
        height = sum(text.count("\n") for text, _, _ in segments)
        painted = (self._drawn[0][1:] if self._drawn is not None else (), segments)
        if height != self.size.height:
            self.refresh(layout=True)
        elif painted != self._painted:
            self.refresh()
        self._painted = painted

    def _card(self) -> RenderableType:
        """The card for what is shown now, composed once however often it is asked for."""
        key = (
            self.call_state,
            self._problems,
            self.manifest,
            self.registry,
            self.card_width,
            self.app.current_theme.name,
            self.frame,
            self.host_look,
            self.expanded,
        )
        if self._drawn is not None and all(
            old is new or old == new for old, new in zip(self._drawn[0], key, strict=True)
        ):
            return self._drawn[1]
        card: RenderableType
        ctx = self.context()
        if ctx is None and self._problems is not None:
            card = problems_card(*self._problems, self.palette, self.card_width)
        elif ctx is None:
            card = Text(self.empty_hint)
        else:
            # A host's first look folds the open card its own way, not Workbench's fold.
            expanded = True if self.host_look is not None else self.expanded
            view = compose_card(ctx, self.registry, expanded=expanded)
            self._folded = view.folded
            self.body_kind = view.body_kind
            self.body_fallback = view.body_fallback
            card = card_renderable(ctx, self.registry, view=view)
            if self.host_look is not None:
                card = HostFirstLook(card, self.host_look)
        self._drawn = (key, card)
        self.compositions += 1
        return card

    def render(self) -> RenderableType:
        return self._card()
