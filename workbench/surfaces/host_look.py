"""The hosts' views as Rich renderables: a drawn card as a host first shows it (Rich lines
folded by :mod:`workbench.hosts.first_look`), and what a host's model reads of a result."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from workbench.hosts.first_look import FirstLook, first_look
from workbench.hosts.model_view import model_view
from workbench.hosts.report import model_view_summary
from workbench.surfaces import kit

if TYPE_CHECKING:
    from workbench.core.result import ToolResult
    from workbench.hosts.profile import HostProfile
    from workbench.surfaces.context import Palette

MODEL_VIEW_LINES = 40
"""Lines of the delivered text a model-view drawing shows (the rest is counted, not drawn)."""

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


def model_view_renderable(
    result: ToolResult, host: HostProfile, palette: Palette, *, max_lines: int = MODEL_VIEW_LINES
) -> RenderableType:
    """What ``host``'s model reads of ``result``: the summary (counts, rule, source, cut),
    then the delivered text, capped with "showing N of M"."""
    view = model_view(result.content, host, state=result.state)
    summary = model_view_summary(view)
    return Group(
        kit.text(summary[0], "bold"),
        *(kit.text(line, palette.muted) for line in summary[1:]),
        kit.text(f"──── what the model reads ({view.delivered.lines:,} lines) ────", palette.muted),
        kit.capped_text(view.text, palette, max_lines=max_lines),
    )
