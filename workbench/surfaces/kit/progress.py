"""Stand-ins for what has not arrived yet: spinner, skeleton bars, progress bar."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import RenderableType
from rich.text import Text

from workbench.surfaces.context import Palette

SPINNER_FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


def spinner(frame: int) -> str:
    """The spinner character for animation ``frame`` (``ctx.frame``: 0 in snapshots)."""
    return SPINNER_FRAMES[frame % len(SPINNER_FRAMES)]


def skeleton_bar(width: int, palette: Palette) -> Text:
    """A grey bar of ``width`` cells standing in for text that has not arrived yet."""
    return Text("░" * max(1, width), style=palette.muted)


def skeleton_lines(widths: Sequence[int], palette: Palette) -> list[RenderableType]:
    """Grey bars standing in for lines of text that have not arrived yet."""
    return [skeleton_bar(width, palette) for width in widths]


def progress_bar(fraction: float | None, width: int, palette: Palette) -> Text:
    """A determinate bar, or an empty track when the fraction is unknown."""
    width = max(4, width)
    if fraction is None:
        return Text("·" * width, style=palette.muted)
    filled = round(fraction * width)
    bar = Text("█" * filled, style=palette.primary)
    bar.append("░" * (width - filled), style=palette.muted)
    return bar
