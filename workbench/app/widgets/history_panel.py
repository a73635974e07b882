"""Every live call of the session; pick one to see it again, re-run it or save it as a fixture."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.widgets import Label, ListItem, ListView

from workbench.app.widgets.messages import WidgetMessage
from workbench.app.widgets.status_line import StatusPart, fit_parts
from workbench.core.call_record import CallRecord
from workbench.core.call_state import CallState, Phase
from workbench.core.manifest import ToolManifest

MAX_KEPT_EVENTS = 50
"""Calls that keep their full event stream; older ones keep only their final state."""

PHASE_MARKS = {
    Phase.DONE: ("✓", "green"),
    Phase.FAILED: ("✗", "red"),
    Phase.TIMED_OUT: ("✗", "red"),
    Phase.CANCELLED: ("⊘", "yellow"),
    Phase.BLOCKED: ("⛔", "red"),
    Phase.SKIPPED: ("↷", "yellow"),
}


@dataclass
class HistoryEntry:
    """One live call, running or finished: where it went, with which args, and its own record
    (so viewing one never touches another). Its record folds the call's events; the panel
    owns the rest (``mark_saved``, eviction)."""

    source: str
    args: dict[str, Any]
    record: CallRecord
    manifest: ToolManifest | None = None
    saved_as: str | None = None
    timeout: str = ""
    """How long the call may run, as shown (``timeout 30 s``)."""

    @property
    def tool(self) -> str:
        return self.record.tool

    @property
    def api(self) -> str:
        return self.record.api

    @property
    def state(self) -> CallState:
        return self.record.state

    @property
    def finished(self) -> bool:
        return self.record.finished

    @property
    def evicted(self) -> bool:
        """Its events were let go to bound memory: it can be viewed and re-run, not saved."""
        return not self.record.keep_events

    def label(self, number: int, width: int = 80) -> Text:
        """One row in ``width`` cells: the API first (what tells calls apart), then its tool
        shortened in the middle, how long it ran and whether it was saved."""
        mark, style = PHASE_MARKS.get(self.state.phase, ("…", "yellow"))
        text = Text(f"{number:>3} ", style="dim", no_wrap=True, end="")
        text.append(f"{mark} ", style=style)
        run_ms = self.state.timings.run_ms
        parts = [
            StatusPart(self.api, style="bold", priority=50, min_cells=10, droppable=False),
            StatusPart(self.tool, style="dim", priority=10, where="middle", min_cells=10),
            StatusPart(f"{run_ms:,} ms" if run_ms is not None else "", style="dim", priority=20),
            StatusPart("saved" if self.saved_as else "", style="italic cyan", priority=30),
        ]
        text.append_text(
            fit_parts(parts, max(8, width - text.cell_len), separator="  ", narrow_separator=" ")
        )
        return text


class HistoryPanel(ListView):
    """The session's calls, newest last."""

    DEFAULT_CSS = """
    HistoryPanel {
        height: 1fr;
        border: round $panel;
        border-title-color: $text;
        border-subtitle-color: $text-muted;
        background: $surface;
    }
    """

    @dataclass
    class EntrySelected(WidgetMessage["HistoryPanel"]):
        """A call was picked; handled by ``on_history_panel_entry_selected``."""

        entry: HistoryEntry

    def __init__(
        self,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.entries: list[HistoryEntry] = []
        self.border_title = "History"
        self.border_subtitle = "no calls yet"
        # Empty, it has nothing to pick: Tab passes it by instead of swallowing keys.
        self.can_focus = False

    @property
    def row_width(self) -> int:
        """Cells a row has (the panel's width less its frame and scrollbar)."""
        return max(8, self.scrollable_content_region.width - 1)

    def on_resize(self) -> None:
        for index, entry in enumerate(self.entries):
            self.children[index].query_one(Label).update(entry.label(index + 1, self.row_width))

    def add(self, entry: HistoryEntry) -> None:
        self.entries.append(entry)
        self.border_subtitle = ""
        self.can_focus = True
        self.append(ListItem(Label(entry.label(len(self.entries), self.row_width))))
        self.index = len(self.entries) - 1
        # Each entry keeps its events (to be saved as a fixture): old ones let theirs go.
        for old in self.entries[:-MAX_KEPT_EVENTS]:
            if old.record.events and old.saved_as is None and old.finished:
                old.record.forget_events()

    def mark_saved(self, entry: HistoryEntry, saved_as: str) -> None:
        """``entry`` was written to ``saved_as`` (``path#variant``); its events are kept."""
        entry.saved_as = saved_as
        self.refresh_entry(entry)

    def refresh_entry(self, entry: HistoryEntry) -> None:
        index = self.entries.index(entry)
        item = self.children[index]
        item.query_one(Label).update(entry.label(index + 1, self.row_width))

    @property
    def selected(self) -> HistoryEntry | None:
        if self.index is None or not 0 <= self.index < len(self.entries):
            return None
        return self.entries[self.index]

    def on_list_view_highlighted(self, event: ListView.Highlighted) -> None:
        event.stop()
        entry = self.selected
        if entry is not None:
            self.post_message(self.EntrySelected(self, entry))
