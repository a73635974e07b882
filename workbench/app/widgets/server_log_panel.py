"""One MCP server's log: what it said besides results (log lines, list changes, resource
updates, the requests it made and how they were answered), cleaned and capped."""

from __future__ import annotations

from typing import Any, Unpack

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import RichLog, Static

from workbench.app.palette import palette_for
from workbench.app.widgets.options import WidgetOptions
from workbench.core.sanitize import clean
from workbench.sources.server_log import ServerLog
from workbench.surfaces import kit
from workbench.surfaces.server_requests import message_line

POLL_S = 0.25
"""A flooding server adds thousands of lines a second: the panel catches up four times a
second, never once per line."""
LINES_KEPT = 500
LINES_PER_POLL = 30


class ServerLogPanel(Vertical):
    """The server log of the source whose API is picked (or of nothing)."""

    DEFAULT_CSS = """
    ServerLogPanel {
        height: 1fr;
        max-height: 14;
        border-top: hkey $panel;
        #server-log-title { height: 1; color: $text-muted; padding: 0 1; }
        RichLog { height: 1fr; background: $surface; padding: 0 1; }
        /* Following no server: one line that says how to follow one. */
        &.-idle { height: auto; }
        &.-idle RichLog { display: none; }
    }
    """

    def __init__(
        self,
        **options: Unpack[WidgetOptions],
    ) -> None:
        super().__init__(**options)
        self.source_name = ""
        self.log_source: ServerLog | None = None
        self._shown_total = 0

    def compose(self) -> ComposeResult:
        yield Static(Text("server log"), id="server-log-title")
        # Wrapped at the panel's width: the sidebar is narrow, and a cut line hides what was said.
        yield RichLog(max_lines=LINES_KEPT, wrap=True, min_width=20, markup=False, highlight=False)

    def on_mount(self) -> None:
        self.set_interval(POLL_S, self.catch_up)
        self.catch_up()

    def follow(self, source_name: str, log: ServerLog | None) -> None:
        """Show ``log`` (the server log of ``source_name``), from its latest lines."""
        if log is self.log_source:
            return
        self.source_name = source_name
        self.log_source = log
        self.query_one(RichLog).clear()
        self._shown_total = max(0, (log.total - len(log.lines)) if log is not None else 0)
        self.catch_up()

    def catch_up(self) -> None:
        """Write what the server said since the last look (at most a screenful at a time)."""
        log = self.log_source
        title = self.query_one("#server-log-title", Static)
        self.set_class(log is None, "-idle")
        if log is None:
            title.update(Text("server log (pick an MCP tool)", style="dim"))
            return
        new = log.total - self._shown_total
        if new <= 0 and self._shown_total:
            return
        lines = list(log.lines)[-min(new, LINES_PER_POLL, len(log.lines)) :] if new > 0 else []
        skipped = new - len(lines)
        palette = palette_for(self.app.current_theme)
        rows: list[Text] = []
        if skipped > 0:
            rows.append(Text(f"… {skipped:,} lines not shown (too many at once)", style="italic"))
        rows.extend(message_line(line, palette) for line in lines)
        if rows:
            # One write per poll: RichLog measures, renders and scrolls once per write, and a
            # flood brings hundreds of lines per poll.
            self.query_one(RichLog).write(Group(*rows))
        self._shown_total = log.total
        # One row whatever it says: no layout for the new count (a flood updates it each poll).
        title.update(
            Text(
                f"server log · {clean(self.source_name)} · {kit.plural(log.total, 'line')}",
                style="dim",
            ),
            layout=False,
        )

    def lines(self) -> list[Any]:
        """What the panel shows (for tests): the written lines' text."""
        return [strip.text for strip in self.query_one(RichLog).lines]
