"""``workbench open TRANSCRIPT``: an agent session as its conversation, every call as its card.

The sidebar lists the session's rows (turns, the model's words, folded thinking, calls, a
subagent's nested under the call that started it), read a page at a time; the stage shows the
selected call through the same ``CallView`` as a fixture (the Inspector first, the Render a
key away, the Portal beside), or the selected message as Markdown.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Header, Input, Markdown, OptionList, Static

from workbench.app.bindings import PHASE_BINDINGS
from workbench.app.screens.conversation_replay import ConversationReplay
from workbench.app.widgets.call_view import CallView
from workbench.app.widgets.conversation_list import ConversationList, inspector_line
from workbench.app.widgets.key_footer import KeyFooter
from workbench.app.widgets.status_line import StatusPart
from workbench.app.widgets.tree_filter import TreeFilter
from workbench.core.call_state import CallState
from workbench.core.manifest import ToolManifest
from workbench.core.sanitize import clean
from workbench.fixtures.replay import SPEEDS, speed_label
from workbench.fixtures.script import CallScript
from workbench.project import Project
from workbench.surfaces.registry import SurfaceRegistry
from workbench.transcripts.conversation import (
    PAGE_ROWS,
    CallQuery,
    CallRow,
    Conversation,
    MessageRow,
    ProblemRow,
    Row,
    TurnRow,
)

MESSAGE_LINES = 200
"""Lines of a message drawn as Markdown before "showing N of M lines"."""
READ_AHEAD = 40
"""Rows from the end of the list at which the next page is read."""
INSPECT_AHEAD = 40
"""Rows past the visible ones whose calls' Inspector lines are drawn ahead of a scroll."""
SEEK_PAGE_ROWS = 2_000
"""Rows read at a time while looking for the next error or a filter's match."""
FIRST_PAGE_ROWS = 60
"""Rows read (and calls' Inspectors drawn) before the first screen: a screenful and some;
the next page is read just after, in the background."""


def message_markdown(text: str) -> str:
    """A message as Markdown source: controls shown as marks, capped with a note."""
    lines = clean(text).splitlines()
    shown = "\n".join(lines[:MESSAGE_LINES])
    if len(lines) > MESSAGE_LINES:
        shown += f"\n\n*showing {MESSAGE_LINES:,} of {len(lines):,} lines*"
    return shown


class ConversationScreen(ConversationReplay):
    """An agent session: its rows on the left, the selected call's card (or message) beside."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "next_call", "Next call", tooltip="Select the next tool call"),
        Binding("k", "previous_call", "Prev call", tooltip="Select the previous tool call"),
        Binding("x", "next_error", "Next error", tooltip="Select the next call that failed"),
        Binding(
            "slash",
            "focus_filter",
            "Filter",
            key_display="/",
            tooltip="Filter calls: tool:NAME, error, or words",
        ),
        Binding(
            "e,ctrl+o",
            "toggle_folded",
            "Expand",
            tooltip="Open the folded card (its Render) or thinking; fold it again",
        ),
        Binding("o,f6", "toggle_portal", "Portal", tooltip="Open or close the tool's Portal"),
        Binding("p", "play_pause", "Play", tooltip="Replay the session from here, call by call"),
        Binding("s", "cycle_speed", "Speed", show=False, tooltip="x0.5, x1, x2, x5, instant"),
        *PHASE_BINDINGS,
        Binding("f2", "save_fixture", "Save", tooltip="Save the selected call as a fixture"),
        Binding("backspace", "back", "Back", tooltip="Back to the fixtures (opened from the tree)"),
        Binding("w,f7", "cycle_width", "Width", show=False, tooltip="Card width: fit, 60, 80, 120"),
        Binding("t", "app.toggle_theme", "Theme", show=False, tooltip="Dark or light theme"),
        Binding("q", "app.quit", "Quit", show=False, tooltip="Quit Workbench"),
    ]

    DEFAULT_CSS = """
    ConversationScreen {
        #message { height: 1fr; padding: 0 1 0 2; display: none; }
        &.-message #message { display: block; }
        &.-message #call { display: none; }
        #conversation-filter { height: 1; border: none; }
        #conversation-note { height: auto; color: $text-muted; padding: 0 1; }
    }
    """

    def __init__(
        self,
        path: Path,
        load_project: Callable[[], Project],
        *,
        transcript_format: str = "auto",
        animate: bool = True,
    ) -> None:
        super().__init__()
        self.path = path
        self._load_project = load_project
        self.transcript_format = transcript_format
        self.animated = animate
        self.project: Project | None = None
        self.conversation: Conversation | None = None
        self.rows: list[Row] = []
        """Every row read so far; the list shows those the filter lets through."""
        self.query_filter = CallQuery()
        self.row_index: int | None = None
        self.script: CallScript | None = None
        self.phase_index = 0
        self.thinking_open = False
        self.speed_index = SPEEDS.index(1.0)
        self._reading = False
        self._calls = 0
        """Calls among the rows read so far."""
        self._drawing: set[int] = set()
        """Rows whose Inspector line a worker is drawing."""
        self._seek: Callable[[], bool] | None = None
        """What to look for once the next page arrives (next error, next match)."""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="body"):
            with Vertical(id="sidebar"):
                yield TreeFilter(
                    placeholder="/ tool:NAME, error, words…", id="conversation-filter", compact=True
                )
                yield ConversationList(id="conversation")
                yield Static("", id="conversation-note", markup=False)
            yield CallView(SurfaceRegistry(), animate=self.animated, id="call")
            with VerticalScroll(id="message"):
                yield Markdown("", id="message-text", open_links=False)
        yield KeyFooter()

    AUTO_FOCUS = "#conversation"

    def on_mount(self) -> None:
        self.title = f"Workbench · {self.path.name}"
        self.sub_title = "conversation"
        self.call_view.stepper.speed = speed_label(SPEEDS[self.speed_index])
        self.query_one("#conversation", ConversationList).loading = True
        self._open()

    # --- reading --------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="read")
    def _open(self) -> None:
        """Load the project (its tools draw the calls) and the first page of the session."""
        from workbench.transcripts.readers import UnknownFormat

        project = self._load_project()
        try:
            conversation = Conversation(
                self.path,
                self.transcript_format,
                mapping=project.config.import_map,
                known=project.known_apis(),
            )
            rows = conversation.load(FIRST_PAGE_ROWS)
            self._inspect(project, rows)
        except UnknownFormat as error:
            self.app.call_from_thread(self._failed, error.reason)
            return
        except OSError as error:
            self.app.call_from_thread(self._failed, f"cannot read it ({error.strerror or error})")
            return
        self.app.call_from_thread(self._opened, project, conversation, rows)

    def _showing(self) -> bool:
        """Whether the screen is still there to show what a worker brings (not left, the
        app not quitting)."""
        return self.is_attached and bool(self.query("#conversation"))

    def _failed(self, reason: str) -> None:
        if not self._showing():
            return
        listing = self.query_one("#conversation", ConversationList)
        listing.loading = False
        self.query_one("#conversation-note", Static).update(f"{self.path}: {reason}")
        self.notify(f"{self.path}: {reason}", severity="error", markup=False, timeout=10)

    def _opened(self, project: Project, conversation: Conversation, rows: list[Row]) -> None:
        if not self._showing():
            return  # Left (or the app quit) while it was read.
        self.project = project
        self.conversation = conversation
        self.call_view.registry = project.registry
        self.load_hosts(project.config)
        listing = self.query_one("#conversation", ConversationList)
        listing.loading = False
        self._append(rows, conversation.done)
        listing.focus()
        first = next((i for i, row in enumerate(self.rows) if isinstance(row, CallRow)), None)
        if first is not None:
            listing.highlight_row(first)
        elif self.rows:
            listing.highlighted = 0
        self.call_after_refresh(self._request_more)  # The next page, once this one is shown.

    @work(thread=True, exclusive=True, group="read")
    def _read_more(self, rows_wanted: int) -> None:
        conversation = self.conversation
        if conversation is None or conversation.done:
            return
        try:
            rows = conversation.load(rows_wanted)
        except OSError as error:
            # The file went away or broke mid-session: what was read stays on screen.
            conversation.done = True
            reason = f"stopped reading: {error.strerror or error}"
            self.app.call_from_thread(self._append, [], True)
            self.app.call_from_thread(
                self.notify, f"{self.path}: {reason}", severity="error", markup=False
            )
            return
        self.app.call_from_thread(self._append, rows, conversation.done)

    @staticmethod
    def _inspect(project: Project, rows: list[Row]) -> list[int]:
        """Draw the Inspector line of each call in ``rows`` that has none yet (a millisecond
        or so a call: only rows in view are drawn, never the whole session); the rows'
        positions in ``rows`` that got one."""
        drawn: list[int] = []
        for position, row in enumerate(rows):
            if isinstance(row, CallRow) and row.inspector is None:
                manifest = project.manifest_for(row.target.tool)
                row.inspector = inspector_line(row, manifest, project.registry)
                drawn.append(position)
        return drawn

    @on(ConversationList.Shown)
    def _shown(self, message: ConversationList.Shown) -> None:
        self._inspect_near(message.first, message.last)

    def _inspect_near(self, first: int, last: int) -> None:
        """Draw the Inspector lines of the calls listed from ``first`` to ``last`` (and a
        screenful past it) that lack one, in a worker."""
        if not self._showing():
            return
        listing = self.query_one("#conversation", ConversationList)
        wanted = [
            (index, row)
            for index, row in listing.rows_between(first, last + INSPECT_AHEAD)
            if isinstance(row, CallRow) and row.inspector is None and index not in self._drawing
        ]
        if wanted and self.project is not None:
            self._drawing.update(index for index, _ in wanted)
            self._draw_inspectors(self.project, wanted)

    @work(thread=True, group="inspect")
    def _draw_inspectors(self, project: Project, wanted: list[tuple[int, Row]]) -> None:
        self._inspect(project, [row for _, row in wanted])
        indices = [index for index, _ in wanted]
        self.app.call_from_thread(self._inspected, indices)

    def _inspected(self, indices: list[int]) -> None:
        if not self._showing():
            return
        self._drawing.difference_update(indices)
        self.query_one("#conversation", ConversationList).redraw_rows(indices)

    def _append(self, rows: list[Row], done: bool) -> None:
        if not self._showing():
            return
        self._reading = False
        start = len(self.rows)
        self.rows.extend(rows)
        self._calls += sum(1 for row in rows if isinstance(row, CallRow))
        self.query_one("#conversation", ConversationList).add_rows(
            [(start + offset, row) for offset, row in enumerate(rows) if self._listed(row)]
        )
        self._note(done)
        seek, self._seek = self._seek, None
        if seek is not None and not seek() and not done:
            self._seek = seek
            self._request_more()

    def _request_more(self) -> None:
        if self._reading or self.conversation is None or self.conversation.done:
            return
        self._reading = True
        # A search (next error, a filter) reads on in larger steps: it shows only what it finds.
        self._read_more(SEEK_PAGE_ROWS if self._seek is not None else PAGE_ROWS)

    def _note(self, done: bool) -> None:
        calls = self._calls
        shown = self.query_one("#conversation", ConversationList).option_count
        text = f"{calls:,} calls{'' if done else ' so far (reading on as you scroll)'}"
        if not self.query_filter.empty:
            text = f"{shown:,} match{'' if shown == 1 else 'es'} · {text}"
        self.query_one("#conversation-note", Static).update(text)

    def _listed(self, row: Row) -> bool:
        if self.query_filter.empty:
            return True
        return isinstance(row, CallRow) and self.query_filter.matches(row)

    # --- selection ------------------------------------------------------------------------

    @on(OptionList.OptionHighlighted, "#conversation")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        listing = self.query_one("#conversation", ConversationList)
        index = listing.selected_index
        if index is None:
            return
        if event.option_index >= listing.option_count - READ_AHEAD:
            self._request_more()
        self._inspect_near(event.option_index - listing.size.height, event.option_index)
        if index != self.row_index:
            self._select(index)

    def _select(self, index: int, *, replaying: bool = False) -> None:
        if not replaying:
            self._stop_replay()
        self.row_index = index
        self.thinking_open = False
        row = self.rows[index]
        if isinstance(row, CallRow):
            self.set_class(False, "-message")
            self.script = row.script(self._manifest(row))
            if replaying:
                self.phase_index = 0  # The replay draws the call from its first step.
            else:
                self.phase_index = len(self.script.phases) - 1
                self._show_state(self.script.state_at(self.script.phases[self.phase_index]))
        else:
            self.script = None
            self.set_class(True, "-message")
            self._show_message(row)
        self.refresh_bindings()

    @property
    def selected_call(self) -> CallRow | None:
        if self.row_index is None:
            return None
        row = self.rows[self.row_index]
        return row if isinstance(row, CallRow) else None

    def _manifest(self, row: CallRow) -> ToolManifest | None:
        if self.project is None:
            return None
        return self.project.manifest_for(row.target.tool)

    def _show_state(self, state: CallState) -> None:
        row = self.selected_call
        if row is None:
            return
        parts = [StatusPart(f"call {row.number}", priority=3)]
        if row.call.started is not None:
            parts.append(StatusPart(row.call.started.strftime("%H:%M:%S"), priority=1))
        if not row.target.known:
            parts.append(StatusPart("generic surfaces (a name the project lacks)", priority=0))
        if row.call.line > 0:  # 0: a record handed in without one.
            parts.append(StatusPart(f"line {row.call.line}", priority=2))
        self.call_view.show(
            state,
            self._manifest(row),
            phases=self.script.phases if self.script is not None else (),
            status=parts,
        )

    def _show_message(self, row: Row) -> None:
        markdown = self.query_one("#message-text", Markdown)
        if isinstance(row, TurnRow):
            text = row.prompt.text if row.prompt is not None else ""
            source = f"**Turn {row.number}: the user asked**\n\n{message_markdown(text)}"
        elif isinstance(row, MessageRow):
            message = row.message
            if message.role == "thinking" and not self.thinking_open:
                lines = len(message.text.splitlines()) or 1
                source = f"*thinking · {lines:,} lines, folded: `e` unfolds it*"
            else:
                source = f"**{message.role}**\n\n{message_markdown(message.text)}"
        elif isinstance(row, ProblemRow):
            source = f"**A line the reader could not use**\n\n`{clean(row.problem.format())}`"
        else:
            source = ""
        markdown.update(source)

    # --- keys -----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "back":
            return len(self.app.screen_stack) > 2  # Below it: the fixture screen.
        if action in ("save_fixture", "prev_phase", "next_phase", "toggle_portal"):
            return self.selected_call is not None
        if action == "toggle_folded" and self.row_index is not None:
            row = self.rows[self.row_index]
            if not isinstance(row, CallRow):  # Only thinking folds (the card is not shown).
                return isinstance(row, MessageRow) and row.message.role == "thinking"
        return super().check_action(action, parameters)

    LEADING: ClassVar[tuple[str, ...]] = (
        "next_call",
        "next_error",
        "focus_filter",
        "toggle_folded",
        "toggle_portal",
        "play_pause",
        "save_fixture",
    )
    """The keys the footer keeps first: finding a call, then looking at it."""

    def footer_first(self) -> tuple[str, ...]:
        # A tree a narrow screen folded is one key away, after the keys that find a call
        # without it (the filter is in the tree: its key shows the tree anyway).
        finding, rest = self.LEADING[:2], self.LEADING[2:]
        return super().footer_first() or (*finding, *self.tree_first(), *rest)

    def footer_label(self, binding: Binding) -> str:
        if binding.action == "toggle_folded" and self.selected_call is None:
            return "Fold" if self.thinking_open else "Unfold"
        return super().footer_label(binding)

    def _move(self, step: int, wanted: Callable[[Row], bool]) -> bool:
        """Select the next (``step`` 1) or previous (-1) listed row that is ``wanted``."""
        listing = self.query_one("#conversation", ConversationList)
        position = listing.highlighted if listing.highlighted is not None else -1
        position += step
        while 0 <= position < listing.option_count:
            option_id = listing.get_option_at_index(position).id
            if option_id is not None and wanted(self.rows[int(option_id)]):
                listing.highlighted = position
                return True
            position += step
        return False

    def _seek_forward(self, wanted: Callable[[Row], bool], what: str) -> None:
        def seek() -> bool:
            return self._move(1, wanted)

        if seek():
            return
        if self.conversation is not None and not self.conversation.done:
            self._seek = seek
            self._request_more()
            self.notify(f"Reading on for the {what}…", timeout=2, markup=False)
        else:
            self.notify(f"No {what} after this one.", timeout=2, markup=False)

    def action_back(self) -> None:
        """Back to the fixture screen this session was opened from."""
        self._stop_replay()
        self.dismiss()

    def action_next_call(self) -> None:
        self._seek_forward(lambda row: isinstance(row, CallRow), "next call")

    def action_previous_call(self) -> None:
        if not self._move(-1, lambda row: isinstance(row, CallRow)):
            self.notify("This is the first call.", timeout=2, markup=False)

    def action_next_error(self) -> None:
        self._seek_forward(lambda row: isinstance(row, CallRow) and row.is_error, "next error")

    def action_focus_filter(self) -> None:
        self.show_tree()  # The filter is the tree's.
        self.query_one("#conversation-filter", Input).focus()

    @on(Input.Changed, "#conversation-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.query_filter = CallQuery.parse(event.value)
        listing = self.query_one("#conversation", ConversationList)
        keep = self.row_index
        listing.clear_rows()
        listing.add_rows([(i, row) for i, row in enumerate(self.rows) if self._listed(row)])
        done = self.conversation is None or self.conversation.done
        self._note(done)
        if keep is not None and listing.highlight_row(keep):
            return
        if listing.option_count:
            listing.highlighted = 0
        elif not self.query_filter.empty and not done:
            self._seek = lambda: self._move(1, lambda row: True)
            self._request_more()

    @on(Input.Submitted, "#conversation-filter")
    @on(TreeFilter.Left, "#conversation-filter")
    def _filter_submitted(self) -> None:
        """``enter`` or ``escape``: back to the list (the filter stays)."""
        self.query_one("#conversation", ConversationList).focus()

    def action_toggle_folded(self) -> None:
        if self.row_index is not None and isinstance(self.rows[self.row_index], MessageRow):
            self.thinking_open = not self.thinking_open
            self._show_message(self.rows[self.row_index])
            self.refresh_bindings()
            return
        super().action_toggle_folded()

    def _show_phase_index(self, index: int) -> None:
        if self.script is None:
            return
        self._stop_replay()
        self.phase_index = max(0, min(index, len(self.script.phases) - 1))
        self._show_state(self.script.state_at(self.script.phases[self.phase_index]))

    def action_prev_phase(self) -> None:
        self._show_phase_index(self.phase_index - 1)

    def action_next_phase(self) -> None:
        self._show_phase_index(self.phase_index + 1)

    def action_cycle_speed(self) -> None:
        self.speed_index = (self.speed_index + 1) % len(SPEEDS)
        speed = speed_label(SPEEDS[self.speed_index])
        self.call_view.stepper.speed = speed
        self.notify(f"Replay speed {speed}", timeout=1.5, markup=False)
