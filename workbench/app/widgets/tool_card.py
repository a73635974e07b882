"""The tool card widget: draws one call state through the surface registry."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual.reactive import reactive
from textual.timer import Timer
from textual.widget import Widget

from workbench.app.palette import palette_for
from workbench.core.call_state import CallState
from workbench.core.manifest import ToolManifest
from workbench.surfaces.card import card_renderable, compose_card
from workbench.surfaces.context import Palette, SurfaceContext
from workbench.surfaces.registry import SurfaceKind, SurfaceRegistry

SPINNER_INTERVAL = 0.1


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

    call_state: reactive[CallState | None] = reactive(None, layout=True, always_update=True)
    """The call to draw; ``None`` shows a hint."""
    card_width: reactive[int] = reactive(80, layout=True)
    """Columns the card is framed at (the width presets)."""
    frame: reactive[int] = reactive(0)
    """Spinner frame; only advances when ``animated`` is on."""

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
        self._spinner: Timer | None = None

    def show(self, state: CallState | None, manifest: ToolManifest | None) -> None:
        """Draw ``state`` of a call to a tool described by ``manifest``."""
        self.manifest = manifest
        self.call_state = state

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
        self.set_class(state is None, "-empty")
        active = state is not None and (state.is_args_streaming or state.is_loading)
        if self.animated and active and self._spinner is None:
            self._spinner = self.set_interval(SPINNER_INTERVAL, self._advance_frame)
        elif not active and self._spinner is not None:
            self._spinner.stop()
            self._spinner = None
            self.frame = 0

    def _advance_frame(self) -> None:
        self.frame += 1

    def render(self) -> RenderableType:
        ctx = self.context()
        if ctx is None:
            return Text(self.empty_hint)
        view = compose_card(ctx, self.registry)
        self.body_kind = view.body_kind
        self.body_fallback = view.body_fallback
        return card_renderable(ctx, self.registry, view=view)
