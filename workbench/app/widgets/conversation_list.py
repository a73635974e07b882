"""The conversation as a list: turns, the model's words, folded thinking and each tool call."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option, OptionDoesNotExist

from workbench.app.palette import palette_for
from workbench.app.widgets.messages import WidgetMessage
from workbench.core.manifest import ToolManifest
from workbench.core.sanitize import clean_line
from workbench.surfaces.card import inspector_renderable
from workbench.surfaces.context import SurfaceContext
from workbench.surfaces.kit import shorten
from workbench.surfaces.registry import SurfaceRegistry
from workbench.transcripts.conversation import CallRow, MessageRow, ProblemRow, Row, TurnRow

ROW_CELLS = 160
"""A row's text is cut here before the list shortens it to its width."""

CALL_MARKS = {
    "typical": ("✓", "$success"),
    "truncated": ("✓", "$success"),
    "empty": ("∅", "$muted"),
    "error": ("✗", "$error"),
}
"""The mark before a call by its kind; the agent's own words (denied, interrupted, …) get ↷."""


_MARKDOWN_MARKS = re.compile(r"\*\*(.+?)\*\*|(?<!\w)__(.+?)__(?!\w)|`([^`]*)`|^#{1,6}\s+")
"""Strong emphasis, code ticks and a heading's hashes: Markdown the view draws, the list's
one line would show as typed. Only paired marks go, their words stay: ``__init__.py`` and
``a ** b`` are no Markdown."""


def _unmarked(match: re.Match[str]) -> str:
    return next((group for group in match.groups() if group is not None), "")


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return clean_line(shorten(line.strip(), ROW_CELLS))
    return ""


def row_text(row: Row, styles: dict[str, str]) -> Text:
    """One row as the list shows it: never markup, always one line of the row's own text."""
    if isinstance(row, TurnRow):
        asked = _first_line(row.prompt.text) if row.prompt is not None else "(before a prompt)"
        text = Text(f"▍{row.number} ", style=f"bold {styles['accent']}")
        text.append(asked or "(an empty prompt)", style="bold")
        return text
    if isinstance(row, ProblemRow):
        problem = row.problem
        where = f"line {problem.line}" if problem.line is not None else "file"
        # What is wrong, after the record's kind where that says more than "line".
        said = [problem.message] if problem.record in ("line", "document") else []
        said = said or [problem.record, problem.message]
        described = clean_line(shorten(": ".join([where, *said]), ROW_CELLS))
        return Text(f"  ⚠ {described}", style=styles["warning"])
    indent = "  " * (row.depth + 1)
    if isinstance(row, MessageRow):
        message = row.message
        if message.role == "thinking":
            lines = len(message.text.splitlines()) or 1
            # Text in the list's own colour (no muted grey): it stays readable highlighted.
            return Text(f"{indent}▸ thinking · {lines} line{'s' if lines != 1 else ''}", "italic")
        mark = "›" if message.role == "user" else "·"
        line = _first_line(message.text)
        if message.role == "assistant":  # Drawn as Markdown when selected; plain here.
            line = _MARKDOWN_MARKS.sub(_unmarked, line)
        return Text(f"{indent}{mark} {line}")
    assert isinstance(row, CallRow)
    mark, colour = CALL_MARKS.get(row.kind, ("↷", "$warning"))
    text = Text(indent)
    text.append(f"{mark} ", style=styles[colour.removeprefix("$")])
    if not row.inspector:
        text.append(clean_line(row.name), style="bold")
    if row.inspector:
        # The call's own Inspector line, as its card opens with it (its own mark, if it
        # starts with the one the list gives the call, once).
        text.append(clean_line(row.inspector.removeprefix(f"{mark} ")))
        return text
    summary = row.summary
    if summary:
        text.append(f" {_first_line(summary)}")
    return text


def inspector_line(
    row: CallRow, manifest: ToolManifest | None, registry: SurfaceRegistry, width: int = 100
) -> str:
    """The first line of the call's Inspector at its ending, as plain text (the surfaces run
    behind their crash boundary; a call whose variant does not build keeps its summary)."""
    try:
        script = row.script(manifest)
    except ValueError:
        return ""
    state = script.state_at(script.phases[-1])
    ctx = SurfaceContext(state=state, manifest=manifest, width=width)
    console = Console(
        file=io.StringIO(),
        width=width,
        color_system=None,
        no_color=True,
        emoji=False,
        highlight=False,
        markup=False,
    )
    lines = console.render_lines(
        inspector_renderable(ctx, registry), console.options.update(width=width), pad=False
    )
    return "".join(segment.text for segment in lines[0]).rstrip() if lines else ""


class ConversationList(OptionList):
    """The loaded rows of a conversation, one line each; the screen decides which are shown
    (a filter) and asks for more as the cursor nears the end.

    Each option's id is the row's index in the screen's rows.
    """

    DEFAULT_CSS = """
    ConversationList {
        height: 1fr;
        border: none;
        padding: 0;
        background: $surface;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        & > .option-list--option { padding: 0; }
    }
    """

    def __init__(
        self,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self._listed: list[tuple[int, Row]] = []
        """The rows shown, by index: drawn again in the new theme's colours."""
        self._positions: dict[int, int] = {}
        """Row index -> its option's position."""

    @dataclass
    class Shown(WidgetMessage["ConversationList"]):
        """Options ``first`` to ``last`` (positions) came into view; handled by
        ``on_conversation_list_shown`` (their calls' Inspector lines are drawn then)."""

        first: int
        last: int

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        first = int(new_value)  # One line an option: a position is a line.
        self.post_message(self.Shown(self, first, first + self.size.height))

    def rows_between(self, first: int, last: int) -> list[tuple[int, Row]]:
        """The listed rows at option positions ``first`` to ``last``."""
        return self._listed[max(0, first) : max(0, last)]

    def redraw_rows(self, indices: list[int]) -> None:
        """Draw the rows at these indices again (their Inspector line arrived)."""
        styles = self.styles_for_rows()
        for index in indices:
            position = self._positions.get(index)
            if position is not None:
                self.replace_option_prompt_at_index(
                    position, self._prompt(self._listed[position][1], styles)
                )

    def on_mount(self) -> None:
        self.watch(self.app, "theme", self._recolour, init=False)

    def _recolour(self) -> None:
        highlighted = self.highlighted
        listed, self._listed, self._positions = self._listed, [], {}
        self.clear_options()
        self.add_rows(listed)
        self.highlighted = highlighted

    def clear_rows(self) -> None:
        self._listed = []
        self._positions = {}
        self.clear_options()

    def styles_for_rows(self) -> dict[str, str]:
        """The theme's colours for the marks (rows are Rich text, drawn once)."""
        palette = palette_for(self.app.current_theme)
        return {
            "accent": palette.accent,
            "muted": palette.muted,
            "success": palette.success,
            "error": palette.error,
            "warning": palette.warning,
        }

    def add_rows(self, rows: list[tuple[int, Row]]) -> None:
        styles = self.styles_for_rows()
        options: list[Option] = []
        for index, row in rows:
            self._positions[index] = len(self._listed) + len(options)
            options.append(Option(self._prompt(row, styles), id=str(index)))
        self._listed.extend(rows)
        self.add_options(options)

    @staticmethod
    def _prompt(row: Row, styles: dict[str, str]) -> Text:
        text = row_text(row, styles)
        text.no_wrap = True  # One line a row: the card beside says the rest.
        text.overflow = "ellipsis"
        return text

    @property
    def selected_index(self) -> int | None:
        """The row index of the highlighted option."""
        if self.highlighted is None:
            return None
        option_id = self.get_option_at_index(self.highlighted).id
        return int(option_id) if option_id is not None else None

    def highlight_row(self, index: int) -> bool:
        """Move the cursor to row ``index``; false when that row is not listed (filtered)."""
        try:
            self.highlighted = self.get_option_index(str(index))
        except OptionDoesNotExist:  # The filter hides it.
            return False
        return True
