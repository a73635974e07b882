"""A drawn card as a host first shows it: Rich lines folded by :mod:`workbench.hosts.first_look`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from workbench.hosts.first_look import FirstLook, first_look

if TYPE_CHECKING:
    from workbench.hosts.profile import HostProfile

SegmentLine = list[Segment]


class HostFirstLook:
    """Draws ``card`` at the console's width, then folds it the way ``host`` does."""

    def __init__(self, card: RenderableType, host: HostProfile, *, dim: Style | None = None):
        self.card = card
        self.host = host
        self.dim = dim or Style(dim=True, italic=True)
        self.look: FirstLook[SegmentLine] | None = None
        """The last fold drawn (how many lines were hidden), for callers that report it."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        # The whole card, however tall: a height in ``options`` (Textual passes the widget's
        # last one) would crop or pad it before the fold, and the fold would count wrong.
        lines = console.render_lines(self.card, options.update(height=None), pad=True)

        def elision(text: str, like: SegmentLine) -> SegmentLine:
            return self._elision(text, like, console, options)

        self.look = first_look(lines, self.host, text_of=_text, elision_line=elision)
        for line in self.look.lines:
            yield from line
            yield Segment.line()

    def _elision(
        self, text: str, like: SegmentLine, console: Console, options: ConsoleOptions
    ) -> SegmentLine:
        """``text`` inside the card's frame, framed as the body line ``like`` is."""
        width = sum(segment.cell_length for segment in like)
        left = like[0] if like and like[0].text.strip() in {"│", "┃"} else None
        right = like[-1] if like and like[-1].text.strip() in {"│", "┃"} else None
        inner = width - (left.cell_length if left else 0) - (right.cell_length if right else 0)
        label = Text(" " + text, style=self.dim, no_wrap=True, overflow="ellipsis")
        segments = console.render_lines(label, options.update_width(max(inner, 1)), pad=True)[0]
        return [*([left] if left else []), *segments, *([right] if right else [])]


def _text(line: SegmentLine) -> str:
    return "".join(segment.text for segment in line)
