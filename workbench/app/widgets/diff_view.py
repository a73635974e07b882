"""The line diff of a case: the committed text snapshot against the case drawn now."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from workbench.core.sanitize import clean
from workbench.review.board import ReviewItem
from workbench.review.diff import diff_lines
from workbench.surfaces.context import Palette

_PREFIX = {"removed": "-", "added": "+", "context": " ", "hunk": "", "note": ""}


class DiffView(Static):
    """Removed lines in the error colour, added ones in the success colour; or why there is
    nothing to show."""

    DEFAULT_CSS = """
    DiffView {
        width: auto;
        min-width: 100%;
        height: auto;
        padding: 0 1;
    }
    """

    def show(self, item: ReviewItem | None, palette: Palette) -> None:
        if item is None:
            self.update("")
            return
        if item.snapshot == "new":
            self.update(Text("New case: there is no committed snapshot to compare with.", "dim"))
            return
        lines = diff_lines(item.committed_text, item.fresh.text, context=2)
        if not lines:
            message = (
                "Same text as committed: only colours or styles changed (compare the pictures)."
                if item.snapshot == "changed"
                else "Same as the committed snapshot."
            )
            style = palette.warning if item.snapshot == "changed" else "dim"
            self.update(Text(message, style=style))
            return
        styles = {
            "removed": palette.error,
            "added": palette.success,
            "hunk": palette.primary,
            "note": palette.warning,
            "context": "",
        }
        text = Text(no_wrap=True)
        for index, line in enumerate(lines):
            if index:
                text.append("\n")
            text.append(_PREFIX[line.kind] + clean(line.text), style=styles[line.kind])
        self.update(text)
