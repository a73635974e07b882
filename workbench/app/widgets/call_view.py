"""One call, drawn: phase stepper, tool card, Intervention, status line, details and Portal.

Every screen that shows a call (fixture replay, live call, review) shows it with a
``CallView`` and only decides where the call's states come from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widget import Widget

from workbench.app.widgets.call_stage import CallStage
from workbench.app.widgets.details_pane import DetailsPane, TabDrawer
from workbench.app.widgets.intervention import Intervention
from workbench.app.widgets.intervention_bar import InterventionBar
from workbench.app.widgets.messages import WidgetMessage
from workbench.app.widgets.phase_stepper import PhaseStepper
from workbench.app.widgets.portal_panel import PortalPanel
from workbench.app.widgets.status_line import StatusLine, StatusPart
from workbench.app.widgets.tool_card import ToolCard
from workbench.core.call_state import CallState, Phase, phase_path
from workbench.core.manifest import ToolManifest
from workbench.hosts import HostProfile, HostSet, bundled_hosts
from workbench.surfaces.registry import SurfaceKind, SurfaceRegistry

WIDTH_PRESETS: tuple[int | None, ...] = (None, 60, 80, 120)
"""Card widths ``w`` cycles through; ``None`` is "fit": the card follows the pane."""
MIN_CARD_WIDTH = 30
"""The narrowest card drawn, however narrow the pane (``workbench show`` allows the same)."""
PORTAL_WIDTH = 64
"""The Portal's width when docked beside the card (less when the view is narrow)."""
MIN_DOCKED_PORTAL = 48
"""Below this the Portal no longer docks beside the card: it covers the card instead."""
MIN_CARD_BESIDE_PORTAL = 60
"""A docked Portal leaves the card at least this many columns (the narrowest preset)."""

PortalMode = Literal["docked", "overlay"]


def portal_layout(view_width: int) -> tuple[PortalMode, int]:
    """Where the Portal goes in a view ``view_width`` columns wide, and how wide it is.

    Docked beside the card while both get a useful width (the card at least the narrowest
    preset); else it covers the card, full width, until it is closed again: a Portal squeezed
    beside a squeezed card helps neither.
    """
    room = view_width - MIN_CARD_BESIDE_PORTAL - 4  # The stage's padding and gutter.
    if room >= MIN_DOCKED_PORTAL:
        return "docked", min(PORTAL_WIDTH, room)
    return "overlay", view_width


def width_label(preset: int | None, drawn: int) -> str:
    """What the status line says about the card's width."""
    if preset is None:
        return f"fit {drawn} cols"
    if drawn < preset:
        return f"{preset} cols → {drawn} (no room)"
    return f"{preset} cols"


class CallView(Horizontal):
    """A call state drawn everywhere at once: stepper, card, Intervention, status, details and
    Portal. It never learns where the state came from.

    Screens call :meth:`show` with each new state; :meth:`ask_approval` or
    :meth:`open_intervention` put a question under the card (and the focus on it);
    :meth:`add_details_tab` adds a tab; :meth:`toggle_portal` and :meth:`cycle_width` are
    what the screen's keys do. The answer to an Intervention arrives at the screen as that
    Intervention's own message (``InterventionBar.Decided`` for approvals).
    """

    DEFAULT_CSS = """
    CallView {
        height: 1fr;
        width: 1fr;
        layers: default portal;
        #call-main { width: 1fr; height: 1fr; }
        /* Pinned under the stage, not scrolled with the card: the answer stays in view while
           the stage shows the card's top (its header and the reason for asking). A tall
           question (a server's form) scrolls inside it and leaves the card some rows. */
        #intervention-slot {
            height: auto;
            max-height: 60%;
            padding: 0 1 0 2;
            overflow-y: auto;
            background: $background;
            scrollbar-size-vertical: 1;
        }
        #details { height: 1fr; min-height: 5; }
        &.-portal-overlay PortalPanel {
            layer: portal;
            dock: right;
            background: $surface;
            border-left: thick $primary;
        }
    }
    """

    width_preset: reactive[int | None] = reactive(None, init=False)
    """The card's chosen width in columns, or ``None`` to fit the pane."""
    portal_mode: reactive[PortalMode] = reactive("docked", init=False)
    """Whether the open Portal sits beside the card or covers it (set from the view's width)."""

    @dataclass
    class PortalToggled(WidgetMessage["CallView"]):
        """The Portal opened or closed; handled by ``on_call_view_portal_toggled``."""

        is_open: bool

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
        self._registry = registry
        self.animated = animate
        self.empty_hint = empty_hint
        self.state: CallState | None = None
        """The state shown."""
        self.manifest: ToolManifest | None = None
        """The manifest of the shown call's tool."""
        self._status: tuple[StatusPart, ...] = ()
        self._foldable = False
        """Whether the card shown last could fold (the footer lists the key only then)."""
        self._focus_before: Widget | None = None
        """Where the focus was before an Intervention took it; it goes back there after."""
        self.look_hosts: tuple[HostProfile, ...] = offered_hosts(bundled_hosts())
        """The hosts whose first look :meth:`cycle_host_look` offers, in order."""

    def compose(self) -> ComposeResult:
        with Vertical(id="call-main"):
            yield PhaseStepper(id="stepper")
            with CallStage(id="stage"):
                yield ToolCard(
                    self._registry, animate=self.animated, empty_hint=self.empty_hint, id="card"
                )
            yield Vertical(id="intervention-slot")
            yield StatusLine(id="card-status")
            yield DetailsPane(id="details")
        yield PortalPanel(self._registry, id="portal")

    def on_mount(self) -> None:
        self.query_one("#portal", PortalPanel).styles.width = PORTAL_WIDTH

    # --- parts, for screens and tests --------------------------------------------------------

    @property
    def card(self) -> ToolCard:
        return self.query_one("#card", ToolCard)

    @property
    def stepper(self) -> PhaseStepper:
        return self.query_one("#stepper", PhaseStepper)

    @property
    def portal(self) -> PortalPanel:
        return self.query_one("#portal", PortalPanel)

    @property
    def details(self) -> DetailsPane:
        return self.query_one("#details", DetailsPane)

    @property
    def status_line(self) -> StatusLine:
        return self.query_one("#card-status", StatusLine)

    @property
    def registry(self) -> SurfaceRegistry:
        return self._registry

    @registry.setter
    def registry(self, registry: SurfaceRegistry) -> None:
        """Draw with ``registry`` from now on (a project reloaded with other surfaces)."""
        self._registry = registry
        self.card.registry = registry
        self.portal.registry = registry

    # --- drawing a call ------------------------------------------------------------------------

    def show(
        self,
        state: CallState | None,
        manifest: ToolManifest | None,
        *,
        phases: Sequence[Phase] = (),
        status: Sequence[StatusPart] = (),
    ) -> None:
        """Draw ``state`` (``None``: nothing selected) of a call to ``manifest``'s tool.

        ``phases`` is the path the call is planned to take (a fixture's; empty for a live
        call): the stepper shows it while the state is on it, else the phases the state went
        through. ``status`` is what the screen says under the card; the card's width is added.
        """
        self.state = state
        self.manifest = manifest
        card = self.card
        card.show(state, manifest)
        foldable = card.can_fold
        if foldable != self._foldable:
            self._foldable = foldable
            self.screen.refresh_bindings()  # The fold key is in the footer only when it works.
        stepper = self.stepper
        stepper.phases = phase_path(state, phases) if state is not None else ()
        stepper.current = state.phase if state is not None else None
        self.details.show(state, manifest)
        if self.portal.is_open:
            self.portal.show(state, manifest)
        intervention = self.intervention
        if (
            intervention is not None
            and (
                state is None
                or state.call_id != intervention.call_id
                or state.phase is not Phase.AWAITING_APPROVAL
            )
            and isinstance(intervention, InterventionBar)
        ):
            self.close_intervention()
        self.set_status(status)

    def set_status(self, parts: Sequence[StatusPart]) -> None:
        """Say ``parts`` under the card (the host's first look, if one is shown, and the
        card's width are always said last)."""
        self._status = tuple(parts)
        card = self.card
        look = self._look_part()
        width = StatusPart(
            width_label(self.width_preset, card.card_width),
            priority=100,
            droppable=False,
            min_cells=6,
        )
        self.status_line.parts = (*self._status, *([look] if look else []), width)

    # --- interventions -----------------------------------------------------------------------

    @property
    def intervention(self) -> Intervention | None:
        """The open Intervention, if any."""
        slot = self.query_one("#intervention-slot", Vertical)
        found = [child for child in slot.children if isinstance(child, Intervention)]
        return found[-1] if found and not found[-1].has_class("-closing") else None

    def ask_approval(self, state: CallState) -> None:
        """Ask whether ``state``'s call may run: approve (args editable), skip, or cancel.

        Does nothing while the same call is already being asked about.
        """
        current = self.intervention
        if isinstance(current, InterventionBar) and current.asks_about(state):
            return
        resolved = self._registry.resolve(state.tool, state.api, SurfaceKind.INTERVENTION)
        self.open_intervention(
            InterventionBar(state.args or {}, resolved.editable_fields, call_id=state.call_id)
        )

    def open_intervention(self, intervention: Intervention) -> None:
        """Show ``intervention`` under the card (replacing any), in view, with the focus on it."""
        self.close_intervention()
        focused = self.screen.focused
        slot = self.query_one("#intervention-slot", Vertical)
        if focused is not None and slot not in focused.ancestors:
            self._focus_before = focused
        slot.mount(intervention)
        self.screen.refresh_bindings()  # The footer shows the keys that answer it.

        def reveal() -> None:
            if intervention.is_attached and not intervention.has_class("-closing"):
                intervention.focus_default()
                # The card's top is what is asked about: its header and the reason for asking.
                self.query_one("#stage", CallStage).scroll_home(animate=False, immediate=True)

        self.call_after_refresh(reveal)

    def close_intervention(self) -> None:
        """Take the open Intervention away; the focus goes back to the screen's choice."""
        intervention = self.intervention
        if intervention is None:
            return
        had_focus = intervention.has_focus_within
        intervention.add_class("-closing")
        intervention.remove()
        self.screen.refresh_bindings()
        before, self._focus_before = self._focus_before, None
        if had_focus:
            if before is not None and before.is_attached and before.display:
                before.focus()
            else:
                self.screen.set_focus(None)

    # --- details and Portal ------------------------------------------------------------------

    def add_details_tab(self, tab_id: str, title: str, draw: TabDrawer) -> None:
        """Add a tab to the details pane, drawn by ``draw(state, manifest)`` (a Rich renderable)."""
        self.details.add_tab(tab_id, title, draw)

    @property
    def portal_open(self) -> bool:
        return self.portal.is_open

    @property
    def details_open(self) -> bool:
        return bool(self.details.display)

    def show_details(self, show: bool) -> None:
        """Show or fold away the details tabs (the card gets their rows)."""
        self.details.display = show

    def toggle_portal(self) -> bool:
        """Open or close the Portal; returns whether it is open now."""
        portal = self.portal
        is_open = portal.toggle()
        self._place_portal()
        if is_open:
            portal.show(self.state, self.manifest)
        self.post_message(self.PortalToggled(self, is_open))
        return is_open

    def _place_portal(self) -> None:
        mode, width = portal_layout(self.size.width)
        self.portal_mode = mode
        is_open = self.portal.is_open
        self.set_class(is_open and mode == "docked", "-portal-docked")
        self.set_class(is_open and mode == "overlay", "-portal-overlay")
        self.portal.styles.width = width

    # --- the hosts' first look ----------------------------------------------------------------

    def use_hosts(self, hosts: HostSet) -> None:
        """Offer ``hosts``' first looks (the targeted ones, else every bundled one) and read
        the Model tab through the targeted ones, when the project names some."""
        targeted = hosts.targeted()
        if targeted:
            self.details.set_hosts(targeted)
        self.look_hosts = offered_hosts(hosts)
        shown = self.card.host_look
        if shown is not None:
            # The project's own profile of the shown host replaces the old one; a host no
            # longer offered gives the whole card back.
            again = next((host for host in self.look_hosts if host.name == shown.name), None)
            self.card.show_as(again)
        self.set_status(self._status)

    def cycle_host_look(self) -> HostProfile | None:
        """The full card, then each offered host's first look, then the full card again;
        returns the host now shown (``None``: the full card)."""
        names = [host.name for host in self.look_hosts]
        shown = self.card.host_look
        index = names.index(shown.name) if shown is not None and shown.name in names else -1
        host = self.look_hosts[index + 1] if index + 1 < len(self.look_hosts) else None
        self.card.show_as(host)
        self.set_status(self._status)
        return host

    def _look_part(self) -> StatusPart | None:
        """What the status line says while a host's first look is shown."""
        card = self.card
        host = card.host_look
        if host is None:
            return None
        said = f"as {host.title} first shows it: "
        look = card.first_look()
        if host.user is None:
            said += host.user_note or "shown whole"
        elif look is None:
            said += "no call to fold"
        elif look.hidden:
            said += f"{look.hidden:,} of {look.body_lines:,} lines hidden until {host.user.expand}"
        else:
            said += f"shown whole ({look.body_lines:,} lines, it folds past "
            said += f"{host.user.head + host.user.tail:,})"
        return StatusPart(said, style="bold", priority=90, min_cells=24, droppable=False)

    # --- folding -----------------------------------------------------------------------------

    def toggle_folded(self) -> bool | None:
        """Open the folded card or fold the open one; ``None`` when this card cannot fold
        (not a ``done`` result, or its API says ``alwaysExpand``)."""
        card = self.card
        if not card.can_fold:
            return None
        return card.toggle_folded()

    # --- width -------------------------------------------------------------------------------

    def cycle_width(self) -> None:
        """The next width preset: fit, 60, 80, 120 columns."""
        index = WIDTH_PRESETS.index(self.width_preset)
        self.width_preset = WIDTH_PRESETS[(index + 1) % len(WIDTH_PRESETS)]

    def watch_width_preset(self) -> None:
        self._fit_card()

    def on_resize(self) -> None:
        self._place_portal()

    def on_call_stage_resized(self, message: CallStage.Resized) -> None:
        message.stop()
        self._fit_card()

    def _fit_card(self) -> None:
        """Frame the card at its preset, or at the room the stage has when that is less."""
        room = self.query_one("#stage", CallStage).room
        if room <= 0:
            return
        wanted = self.width_preset or room
        width = max(MIN_CARD_WIDTH, min(wanted, room))
        card = self.card
        if card.card_width != width:
            card.card_width = width
        self.set_status(self._status)


def offered_hosts(hosts: HostSet) -> tuple[HostProfile, ...]:
    """The hosts whose first look the TUI offers: the targeted ones, else every bundled host
    but ``none`` (as the project's profiles describe them)."""
    targeted = hosts.targeted()
    if targeted:
        return tuple(targeted)
    bundled = bundled_hosts().profiles
    return tuple(
        host for name, host in sorted(hosts.profiles.items()) if name in bundled and name != "none"
    )
