"""The live screen: pick an API of a real source, fill its form, call it, watch every surface."""

from __future__ import annotations

import asyncio
import gc
from typing import Any, ClassVar, TypeVar, Unpack

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.message import Message
from textual.widgets import Header

from workbench.app.screens.live_catalog import CatalogBrowsing
from workbench.app.screens.live_saving import FixtureSaving
from workbench.app.widgets.call_view import CallView
from workbench.app.widgets.history_panel import HistoryEntry, HistoryPanel
from workbench.app.widgets.input_request_bar import InputRequestBar
from workbench.app.widgets.intervention_bar import InterventionBar
from workbench.app.widgets.key_footer import KeyFooter
from workbench.app.widgets.options import ScreenOptions
from workbench.app.widgets.problems_panel import ProblemsPanel
from workbench.app.widgets.schema_form import SchemaForm
from workbench.app.widgets.server_log_panel import ServerLogPanel
from workbench.app.widgets.source_tree import ApiAddress, CatalogAddress, SourceTree
from workbench.app.widgets.status_line import StatusPart
from workbench.core import events as ev
from workbench.core.call_state import CallState, Phase
from workbench.core.interventions import InputAnswer, InputRequest
from workbench.core.manifest import ToolApi
from workbench.core.sanitize import clean
from workbench.policy.verdict import ApprovalDecision
from workbench.session import LiveSession
from workbench.sources.call_runner import LiveCall
from workbench.sources.live_start import prepare_call
from workbench.sources.manager import ResolutionError, ResolvedCall
from workbench.sources.mcp_source import McpSource

WIDE_SCREEN = 170
"""From this many columns the form sits beside the call view."""
SIDE_FORM_WIDTH = 56
"""The form's width beside the call view (workbench.tcss says the same)."""
FRAME_S = 1 / 30
"""The running call is drawn at most this often (output can arrive far faster)."""
REVISION_POLL_S = 0.5
"""How often the tree checks whether a server changed its tools (tools/list_changed)."""

Answer = TypeVar("Answer", ApprovalDecision, InputAnswer)


def another_call_running(*, priority: int) -> StatusPart:
    """The status line's note that the card is not showing the call that runs."""
    return StatusPart(
        "another call is running (pick it in the history)",
        style="italic",
        priority=priority,
        min_cells=20,
    )


class LiveScreen(FixtureSaving, CatalogBrowsing):
    """Sources on the left; the API form, the tool card and the call history on the right."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "call", "Call", tooltip="Call the API with the form's arguments"),
        Binding("escape", "cancel_call", "Cancel call", tooltip="Cancel the running call"),
        Binding("f5", "rerun", "Re-run", tooltip="Call the selected history entry again"),
        Binding(
            "f2",
            "save_fixture",
            "Save fixture",
            tooltip="Save the selected call as a fixture variant (asks for label and kind)",
        ),
        Binding("tab", "tab_forward", show=False, tooltip="Next field (from the tree: the form)"),
        Binding("f6", "toggle_portal", "Portal", tooltip="Open or close the tool's Portal"),
        Binding(
            "f7", "cycle_width", "Width", tooltip="Card width: fit the pane, 60, 80, 120 columns"
        ),
        Binding(
            "ctrl+o",
            "toggle_folded",
            "Expand",
            tooltip="Open a folded done card (its Render) or fold it to the Inspector and one line",
        ),
        Binding(
            "f8",
            "toggle_details",
            "Details",
            show=False,
            tooltip="Show or hide the details tabs: args, content, state, error, manifest",
        ),
        Binding(
            "f3",
            "cycle_host_look",
            "Host look",
            tooltip="Fold the card as each targeted host first shows it, then show it whole",
        ),
        Binding(
            "f9",
            "open_link",
            "Open link",
            tooltip="Read the next resource link of the call's result in the Portal",
        ),
    ]

    class SourcesStarted(Message):
        """Every source has started (or failed to)."""

    def __init__(
        self,
        session: LiveSession,
        *,
        animate: bool = True,
        **options: Unpack[ScreenOptions],
    ) -> None:
        super().__init__(**options)
        self.session = session
        self.animated = animate
        self.address: ApiAddress | None = None
        self.current_call: LiveCall | None = None
        self.current_entry: HistoryEntry | None = None
        """The call that is running (at most one)."""
        self.viewed: HistoryEntry | None = None
        """The call the card shows: the running one, or one picked in the history."""
        self._changed = False
        """The running call has events the screen has not drawn yet."""
        self.frames_drawn = 0
        """Frames in which the running call was drawn (at most one per ``FRAME_S``, however many
        events arrived): what a flood of events costs the screen."""
        self._decision: asyncio.Future[ApprovalDecision] | None = None
        self._answer: asyncio.Future[InputAnswer] | None = None
        """What the person answers to the server's pending request (elicitation, sampling)."""
        self.form_target: CatalogAddress | None = None
        """The form is for a resource template or a prompt, not an API call."""
        self._revisions: tuple[int, ...] = ()
        self._link_index = 0

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="body"):
            with Vertical(id="sidebar"):
                yield SourceTree(id="sources")
                yield HistoryPanel(id="history")
                yield ServerLogPanel(id="server-log")
                yield ProblemsPanel(id="problems")
            with Vertical(id="center"):
                yield SchemaForm(id="form")
                yield CallView(
                    self.session.registry,
                    animate=self.animated,
                    empty_hint="Fill in the arguments and press Call (ctrl+s): the call plays "
                    "through every surface here.",
                    id="call",
                )
        yield KeyFooter()

    def on_mount(self) -> None:
        self.call_view.stepper.speed = "live"
        # Here letters are typed, not bound: a focused scroller would swallow them (the wheel
        # still scrolls the card).
        self.call_view.query_one("#stage").can_focus = False
        self.query_one("#sources", SourceTree).loading = True
        self.set_interval(FRAME_S, self._draw_running)
        self.load_hosts(self.session.config)
        self.set_interval(REVISION_POLL_S, self._check_revisions)
        self._start_sources()

    @work(exclusive=True, group="sources")
    async def _start_sources(self) -> None:
        await self.session.manager.start()
        self.post_message(self.SourcesStarted())

    def on_live_screen_sources_started(self, message: SourcesStarted) -> None:
        tree = self.query_one("#sources", SourceTree)
        tree.loading = False
        tree.load(self.session.manager)
        problems = self.session.report().as_problems()
        self.query_one("#problems", ProblemsPanel).show(problems)
        self._revisions = self._source_revisions()
        # The server log only has a place when some source is an MCP server.
        self.query_one("#server-log", ServerLogPanel).display = any(
            isinstance(source, McpSource) for source in self.session.manager.sources
        )
        tree.focus()
        tree.select_first_api()
        # Everything alive now (modules, widgets, the servers' sessions) lives as long as the
        # screen: moved out of the collector's reach, a full collection during a flood of
        # notifications scans only what the calls made (it stalled the loop ~200 ms before).
        gc.freeze()

    def _source_revisions(self) -> tuple[int, ...]:
        return tuple(source.revision for source in self.session.manager.sources)

    def _check_revisions(self) -> None:
        """A server changed its tools, resources or prompts: show the new lists."""
        tree = self.query_one("#sources", SourceTree)
        if tree.loading:
            return
        revisions = self._source_revisions()
        if revisions == self._revisions:
            return
        self._revisions = revisions
        tree.load(self.session.manager)
        self.notify("A server changed what it offers: the tree is up to date.", timeout=3)

    async def on_unmount(self) -> None:
        if self.current_call is not None:
            self.current_call.cancel("the workbench is closing")
        await self.session.manager.stop()

    # --- layout -------------------------------------------------------------------------------

    def arrange_for_size(self) -> None:
        # On a wide terminal the form sits beside the call, not above it.
        self.set_class(self.size.width >= WIDE_SCREEN, "-wide")
        super().arrange_for_size()

    def reserved_width(self) -> int:
        return SIDE_FORM_WIDTH if self.size.width >= WIDE_SCREEN else 0

    # --- picking and calling -----------------------------------------------------------------

    def on_source_tree_api_selected(self, message: SourceTree.ApiSelected) -> None:
        reason = self.session.manager.not_callable(*message.address)
        if reason is not None:
            self._show_not_callable(message.address, reason, picked=message.picked)
            return
        if message.picked:
            # Enter or a click on an API: the cursor goes where its arguments are typed.
            self.query_one("#form", SchemaForm).focus_first_field()
        self._follow_log(message.address[0])
        if message.address == self.address and self.form_target is None:
            return
        resolved = self._resolve(message.address)
        if resolved is None:
            return
        self.address = message.address
        self.form_target = None
        self.query_one("#form", SchemaForm).load(resolved.api)
        # The card shows this API's latest call, or nothing yet: never another API's card
        # under this API's form (the history still holds every call).
        history = self.query_one("#history", HistoryPanel).entries
        source, tool, api = message.address
        latest = next(
            (
                entry
                for entry in reversed(history)
                if (entry.source, entry.tool, entry.api) == (source, tool, api)
            ),
            None,
        )
        if latest is not self.viewed or latest is None:
            self.call_view.portal.unpin()
            self.viewed = latest
            self.show_entry(latest)
        if latest is None:
            # Before its first call, say how long a call of this API may run.
            timeout = self.session.call_timeout({}, resolved.api).describe()
            parts = [
                StatusPart(resolved.label, priority=40, where="middle", min_cells=16),
                StatusPart(timeout, priority=30, min_cells=10),
            ]
            if self.current_entry is not None:
                parts.append(another_call_running(priority=35))
            self.call_view.set_status(parts)

    def _show_not_callable(
        self, address: tuple[str, str, str], reason: str, *, picked: bool
    ) -> None:
        """A UI-only tool's API: no form to fill, and the reason it cannot be called."""
        self.address = address  # A call asked for anyway says the same reason.
        self.form_target = None
        self.query_one("#form", SchemaForm).load(ToolApi(name=address[2]))
        self.call_view.portal.unpin()
        self.viewed = None
        self.show_entry(None)
        self.call_view.set_status([StatusPart(reason, priority=40, where="middle", min_cells=16)])
        if picked:
            self.notify(reason, title="Not callable here", severity="warning", markup=False)

    def action_tab_forward(self) -> None:
        """Tab: from the tree straight into the form's first required field, else onward."""
        form = self.query_one("#form", SchemaForm)
        if isinstance(self.focused, SourceTree) and form.api is not None and form.display:
            form.first_field().focus()
            return
        self.focus_next()

    def focus_without_tree(self) -> None:
        # The tree stepped aside: typing goes on in the form.
        form = self.query_one("#form", SchemaForm)
        if form.api is not None:
            form.first_field().focus()
        else:
            self.set_focus(None)

    def footer_first(self) -> tuple[str, ...]:
        if self.call_view.intervention is not None:
            return (*self.ANSWER_ACTIONS, "cancel_call")
        if self.current_call is not None:
            return ("cancel_call",)
        fold = ("toggle_folded",) if self.call_view.card.folded else ()
        return (*self.tree_first(), "call", "submit", *fold)  # Idle: calling comes next.

    def _resolve(self, address: tuple[str, str, str]) -> ResolvedCall | None:
        """The live API at ``address``, or ``None`` after telling the user why there is none."""
        source_name, tool, api = address
        try:
            return self.session.manager.resolve(f"{source_name}/{tool}.{api}")
        except ResolutionError as error:
            self.notify(clean(str(error)), severity="error", markup=False)
            return None

    def _refuse_if_busy(self) -> bool:
        """One call at a time: say so and return ``True`` while one runs."""
        if self.current_call is None:
            return False
        self.notify("A call is running: cancel it (escape) or wait for it.", severity="warning")
        return True

    def on_schema_form_submitted(self, message: SchemaForm.Submitted) -> None:
        if self.form_target is not None:
            self._use_catalog(self.form_target, message.args)
            return
        self.start_call(message.args)

    def start_call(self, args: dict[str, Any]) -> None:
        """Call the selected API with ``args`` (one call at a time)."""
        if self.address is None or self._refuse_if_busy():
            return
        resolved = self._resolve(self.address)
        if resolved is None:
            return
        source_name = self.address[0]
        history = self.query_one("#history", HistoryPanel)

        def changed(event: ev.CallEvent) -> None:
            self._changed = True

        prepared = prepare_call(
            resolved,
            args,
            policy=self.session.policy,
            timeout=self.session.call_timeout(args, resolved.api),
            call_id=f"live-{len(history.entries) + 1}",
            approval_gate=self._approval_gate,
            input_gate=self._input_gate,
            on_event=changed,
            args_chunk_delay_s=0.01 if self.animated else 0.0,
        )
        entry = HistoryEntry(
            source=source_name,
            args=dict(args),
            record=prepared.record,
            manifest=resolved.entry.manifest,
            timeout=prepared.timeout.describe(),
        )
        self.current_entry = entry
        self.viewed = entry
        self._changed = False
        self._link_index = 0
        self.call_view.portal.unpin()
        call = prepared.call
        self.current_call = call
        history.add(entry)
        self.show_entry(entry)
        self.refresh_bindings()
        self._run_call(call, entry)

    @work(group="call")
    async def _run_call(self, call: LiveCall, entry: HistoryEntry) -> None:
        try:
            await call.run()
        finally:
            try:
                self._draw_running()
                self.current_call = None
                self.current_entry = None
                self.query_one("#history", HistoryPanel).refresh_entry(entry)
                if self.viewed is entry:
                    self.show_entry(entry)
                self.refresh_bindings()
            except NoMatches:
                pass  # The screen is closing: nothing left to draw.
            finally:
                self.current_call = None
                self.current_entry = None

    def _draw_running(self) -> None:
        """Draw the running call once, however many events arrived since the last frame."""
        entry = self.current_entry
        if not self._changed or entry is None:
            return
        self._changed = False
        self.frames_drawn += 1
        if self.viewed is entry:
            self.show_entry(entry)

    async def _approval_gate(self, request: ev.ApprovalRequested) -> ApprovalDecision:
        del request
        self._decision = asyncio.get_running_loop().create_future()
        try:
            return await self._wait_for_person(self._decision)
        finally:
            self._decision = None

    async def _input_gate(self, request: InputRequest) -> InputAnswer:
        """The server asks mid-call: show the request with its controls, wait for the person."""
        del request
        self._answer = asyncio.get_running_loop().create_future()
        try:
            return await self._wait_for_person(self._answer)
        finally:
            self._answer = None

    async def _wait_for_person(self, answer: asyncio.Future[Answer]) -> Answer:
        # Draw the question now, with the future it will resolve (the request itself may
        # already have been drawn by the frame timer, before there was anything to answer).
        self._draw_running()
        if self.current_entry is not None:
            self.viewed = self.current_entry
            self.show_entry(self.current_entry)
        return await answer

    def on_input_request_bar_answered(self, message: InputRequestBar.Answered) -> None:
        if self._answer is not None and not self._answer.done():
            self._answer.set_result(message.answer)

    def on_intervention_bar_decided(self, message: InterventionBar.Decided) -> None:
        if self._decision is not None and not self._decision.done():
            self._decision.set_result(
                ApprovalDecision(message.action, message.args, message.reason)
            )

    # --- drawing ------------------------------------------------------------------------------

    @property
    def state(self) -> CallState | None:
        """The state on the card."""
        return self.viewed.state if self.viewed is not None else None

    def show_entry(self, entry: HistoryEntry | None) -> None:
        """Draw ``entry`` in the call view, asking for approval when its call waits for one."""
        state = entry.state if entry is not None else None
        running = entry is not None and entry is self.current_entry
        view = self.call_view
        view.show(state, entry.manifest if entry is not None else None, status=self._status(entry))
        view.stepper.playing = running and state is not None and not state.phase.is_terminal
        if (
            running
            and state is not None
            and state.phase is Phase.AWAITING_APPROVAL
            and self._decision is not None
        ):
            view.ask_approval(state)
        self._show_input_request(state if running else None)

    def _show_input_request(self, state: CallState | None) -> None:
        """Put the controls for the server's pending request under the card, or take them
        away once it is answered."""
        view = self.call_view
        current = view.intervention
        pending = state.pending_exchange if state is not None else None
        asking = (
            state is not None
            and pending is not None
            and state.phase is Phase.AWAITING_INPUT
            and self._answer is not None
        )
        if isinstance(current, InputRequestBar) and not (
            asking and pending is not None and current.asks(pending.request)
        ):
            view.close_intervention()
        if asking and state is not None and pending is not None and view.intervention is None:
            view.open_intervention(InputRequestBar(pending.request, call_id=state.call_id))
        # While a question waits for an answer (an approval, a server's request), it gets the
        # API form's rows: the card's header and reason stay in view above the answer.
        self.set_class(view.intervention is not None, "-answering")

    def _status(self, entry: HistoryEntry | None) -> list[StatusPart]:
        if entry is None:
            return []
        state = entry.state
        parts = [
            StatusPart(
                f"{entry.source}/{state.tool}.{state.api}",
                priority=40,
                where="middle",
                min_cells=16,
                droppable=False,
            )
        ]
        if entry.timeout:
            parts.append(StatusPart(entry.timeout, priority=10, min_cells=10))
        if state.output.line_count:
            parts.append(StatusPart(f"{state.output.line_count:,} output lines", priority=20))
        if entry is self.current_entry and state.phase is Phase.AWAITING_INPUT:
            # Escape answers the server's question (cancel); the call itself goes on.
            parts.append(
                StatusPart("escape cancels the question", style="bold", priority=60, min_cells=14)
            )
        elif entry is self.current_entry and not state.phase.is_terminal:
            parts.append(StatusPart("escape cancels", style="bold", priority=60, min_cells=14))
        elif self.current_entry is not None:
            parts.append(another_call_running(priority=30))
        return parts

    def on_history_panel_entry_selected(self, message: HistoryPanel.EntrySelected) -> None:
        self.call_view.portal.unpin()
        if message.entry is not self.viewed:
            self.viewed = message.entry
            self.show_entry(message.entry)

    # --- actions ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel_call":
            # With a question open, escape answers it (action_cancel_call); the footer shows
            # the key once, with the question's own label when it has the focus.
            return self.current_call is not None
        if action in ("rerun", "save_fixture"):
            # Shown once there is a call to re-run or save.
            return bool(self.query_one("#history", HistoryPanel).entries)
        return super().check_action(action, parameters)

    def action_call(self) -> None:
        self.query_one("#form", SchemaForm).action_submit()

    def action_cancel_call(self) -> None:
        if self.current_call is None:
            return
        # This screen's escape replaces CallScreen's: with a question open under the card,
        # escape answers it (an approval cancels the call; a server's request is cancelled
        # and the call goes on).
        intervention = self.call_view.intervention
        if intervention is not None:
            intervention.cancel()
            return
        if self._decision is not None and not self._decision.done():
            self._decision.set_result(ApprovalDecision("cancel"))
            return
        self.current_call.cancel("cancelled by the user")
        self.notify("Cancelling the call…", timeout=2)

    def action_rerun(self) -> None:
        entry = self.query_one("#history", HistoryPanel).selected
        if entry is None or self._refuse_if_busy():
            return
        address = (entry.source, entry.tool, entry.api)
        resolved = self._resolve(address)
        if resolved is None:
            return
        self.address = address
        form = self.query_one("#form", SchemaForm)
        if form.api is None or form.api.name != entry.api:
            form.load(resolved.api, entry.args)
        self.start_call(dict(entry.args))
