"""The live screen: pick an API of a real source, fill its form, call it, watch every surface."""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.message import Message
from textual.widgets import Footer, Header

from workbench.app.screens.call_screen import CallScreen
from workbench.app.widgets.call_view import CallView
from workbench.app.widgets.history_panel import HistoryEntry, HistoryPanel
from workbench.app.widgets.intervention_bar import InterventionBar
from workbench.app.widgets.problems_panel import ProblemsPanel
from workbench.app.widgets.schema_form import SchemaForm
from workbench.app.widgets.source_tree import ApiAddress, SourceTree
from workbench.app.widgets.status_line import StatusPart
from workbench.core import events as ev
from workbench.core.call_record import CallRecord
from workbench.core.call_state import CallState, Phase
from workbench.core.identifiers import slug
from workbench.core.problems import Problem
from workbench.core.sanitize import clean
from workbench.fixtures.recorder import (
    RecordingError,
    save_manifest,
    save_variant,
    variant_from_events,
)
from workbench.policy.engine import check_approval
from workbench.policy.verdict import ApprovalDecision
from workbench.session import LiveSession
from workbench.sources.call_runner import LiveCall
from workbench.sources.manager import ResolutionError, ResolvedCall

FRAME_S = 1 / 30
"""The running call is drawn at most this often (output can arrive far faster)."""


class LiveScreen(CallScreen):
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
        Binding("f6", "toggle_portal", "Portal", tooltip="Open or close the tool's Portal"),
        Binding(
            "f7", "cycle_width", "Width", tooltip="Card width: fit the pane, 60, 80, 120 columns"
        ),
    ]

    class SourcesStarted(Message):
        """Every source has started (or failed to)."""

    def __init__(
        self,
        session: LiveSession,
        *,
        animate: bool = True,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
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
        self._decision: asyncio.Future[ApprovalDecision] | None = None

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="body"):
            with Vertical(id="sidebar"):
                yield SourceTree(id="sources")
                yield HistoryPanel(id="history")
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
        yield Footer()

    def on_mount(self) -> None:
        self.call_view.stepper.speed = "live"
        self.query_one("#sources", SourceTree).loading = True
        self.set_interval(FRAME_S, self._draw_running)
        self._start_sources()

    @work(exclusive=True, group="sources")
    async def _start_sources(self) -> None:
        await self.session.manager.start()
        self.post_message(self.SourcesStarted())

    def on_live_screen_sources_started(self, message: SourcesStarted) -> None:
        tree = self.query_one("#sources", SourceTree)
        tree.loading = False
        tree.load(self.session.manager)
        problems = [
            Problem(file=f"source {source.name}", message=source.status.detail or "failed to start")
            for source in self.session.manager.sources
            if source.status.state.value == "failed"
        ]
        problems += [
            Problem(file=f"source {source.name}", message=item, severity="warning")
            for source in self.session.manager.sources
            if source.status.state.value == "ready"
            for item in source.problems
        ]
        problems += [Problem(file="tools", message=item) for item in self.session.problems]
        conflicts = self.session.manager.conflicts()
        problems += [
            Problem(
                file=f"tool {tool}",
                message=f"offered by {', '.join(sources)}: call it as SOURCE/{tool}.API",
                severity="warning",
            )
            for tool, sources in conflicts.items()
        ]
        self.query_one("#problems", ProblemsPanel).show(problems)
        tree.focus()
        tree.select_first_api()

    async def on_unmount(self) -> None:
        if self.current_call is not None:
            self.current_call.cancel("the workbench is closing")
        await self.session.manager.stop()

    # --- picking and calling -----------------------------------------------------------------

    def on_source_tree_api_selected(self, message: SourceTree.ApiSelected) -> None:
        if message.address == self.address:
            return
        resolved = self._resolve(message.address)
        if resolved is None:
            return
        # Only the form follows the tree; the card keeps showing the call it shows.
        self.address = message.address
        self.query_one("#form", SchemaForm).load(resolved.api)
        if self.viewed is None:
            # Before the first call, say how long a call of this API may run.
            timeout = self.session.call_timeout({}, resolved.api).describe()
            self.call_view.set_status(
                [
                    StatusPart(resolved.label, priority=40, where="middle", min_cells=16),
                    StatusPart(timeout, priority=30, min_cells=10),
                ]
            )

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
        self.start_call(message.args)

    def start_call(self, args: dict[str, Any]) -> None:
        """Call the selected API with ``args`` (one call at a time)."""
        if self.address is None or self._refuse_if_busy():
            return
        resolved = self._resolve(self.address)
        if resolved is None:
            return
        source_name, tool, api = self.address
        check = check_approval(resolved.entry.manifest, api, args, self.session.policy)
        timeout = self.session.call_timeout(args, resolved.api)
        history = self.query_one("#history", HistoryPanel)
        entry = HistoryEntry(
            source=source_name,
            args=dict(args),
            record=CallRecord.start(tool, api, call_id=f"live-{len(history.entries) + 1}"),
            manifest=resolved.entry.manifest,
            timeout=timeout.describe(),
        )
        self.current_entry = entry
        self.viewed = entry
        self._changed = False
        call = LiveCall(
            resolved.entry.source,
            resolved.entry.manifest,
            tool,
            api,
            args,
            on_event=lambda event: self._record_event(entry, event),
            timeout_ms=timeout.limit_ms,
            extend_on_progress_max_ms=timeout.extend_on_progress_max_ms,
            approval=check,
            approval_gate=self._approval_gate,
            workspace=self.session.policy.workspace,
            args_chunk_delay_s=0.01 if self.animated else 0.0,
        )
        self.current_call = call
        history.add(entry)
        self.show_entry(entry)
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
            except NoMatches:
                pass  # The screen is closing: nothing left to draw.
            finally:
                self.current_call = None
                self.current_entry = None

    def _record_event(self, entry: HistoryEntry, event: ev.CallEvent) -> None:
        entry.record.add(event)
        self._changed = True

    def _draw_running(self) -> None:
        """Draw the running call once, however many events arrived since the last frame."""
        entry = self.current_entry
        if not self._changed or entry is None:
            return
        self._changed = False
        if self.viewed is entry:
            self.show_entry(entry)

    async def _approval_gate(self, request: ev.ApprovalRequested) -> ApprovalDecision:
        del request
        self._decision = asyncio.get_running_loop().create_future()
        # Draw the Intervention now, with the decision it will resolve (the request itself may
        # already have been drawn by the frame timer, before there was anything to decide).
        self._draw_running()
        if self.current_entry is not None:
            self.viewed = self.current_entry
            self.show_entry(self.current_entry)
        try:
            return await self._decision
        finally:
            self._decision = None

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
        if entry is self.current_entry and not state.phase.is_terminal:
            parts.append(StatusPart("escape cancels", style="bold", priority=60, min_cells=14))
        elif self.current_entry is not None:
            parts.append(
                StatusPart(
                    "another call is running (pick it in the history)",
                    style="italic",
                    priority=30,
                    min_cells=20,
                )
            )
        return parts

    def on_history_panel_entry_selected(self, message: HistoryPanel.EntrySelected) -> None:
        if message.entry is not self.viewed:
            self.viewed = message.entry
            self.show_entry(message.entry)

    # --- actions ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel_call":
            # At an approval, escape answers it (the footer shows that once).
            return self.current_call is not None and self.call_view.intervention is None
        return super().check_action(action, parameters)

    def action_call(self) -> None:
        self.query_one("#form", SchemaForm).action_submit()

    def action_cancel_call(self) -> None:
        if self.current_call is None:
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

    def action_save_fixture(self) -> None:
        entry = self.query_one("#history", HistoryPanel).selected
        if entry is None or not entry.finished:
            self.notify("Pick a finished call in the history to save it.", severity="warning")
            return
        if entry.evicted:
            self.notify(
                "This call is too old to save (its events were let go); re-run it with f5.",
                severity="warning",
            )
            return
        self._save(entry)

    @work(thread=True, group="save")
    def _save(self, entry: HistoryEntry) -> None:
        # Reading and writing fixture files stays off the UI thread.
        try:
            saved_as = self.save_entry(entry)
        except (RecordingError, OSError, ValueError) as error:
            self.app.call_from_thread(
                self.notify, clean(f"Could not save: {error}"), severity="error", markup=False
            )
            return
        self.app.call_from_thread(self._saved, entry, saved_as)

    def _saved(self, entry: HistoryEntry, saved_as: str) -> None:
        self.query_one("#history", HistoryPanel).mark_saved(entry, saved_as)
        self.notify(clean(f"Saved as {saved_as}"), timeout=4, markup=False)

    def save_entry(self, entry: HistoryEntry) -> str:
        """Write ``entry`` as a fixture variant (and the tool's manifest if it has no package)."""
        fixture_dir = self.session.fixture_dir
        path = fixture_dir / entry.tool / f"{entry.api}.yaml"
        first_value = next(
            (value for value in entry.args.values() if isinstance(value, (str, int, float))), "call"
        )
        variant = variant_from_events(
            entry.record.events,
            variant_id=slug(f"{entry.api}-{first_value}", fallback="call"),
            label=f"Recorded {entry.tool}.{entry.api} call",
        )
        variant_id = save_variant(path, entry.tool, entry.api, variant)
        if entry.manifest is not None and entry.tool not in self.session.registry.tools():
            save_manifest(fixture_dir / entry.tool / "manifest.yaml", entry.manifest)
        return f"{path}#{variant_id}"
