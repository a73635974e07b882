"""Program output with its own colours, made to read on this theme."""

from __future__ import annotations

from functools import lru_cache

from rich.console import RenderableType
from rich.style import Style
from rich.text import Span, Text

from workbench.core.output_buffer import OutputBuffer
from workbench.core.sanitize import ansi_text
from workbench.surfaces.context import Palette
from workbench.surfaces.kit.cutting import (
    hidden_lines_note,
)


def output_text(value: str, palette: Palette, style: str = "") -> Text:
    """A line of program output with its SGR colours kept, but made to read on this theme.

    Programs pick colours for a terminal they cannot see: ANSI cyan is 3.2:1 on the light
    background. Each colour keeps its hue and is darkened or lightened just enough to pass.
    """
    line = ansi_text(value, style)
    if not line.spans:
        return line
    line.spans = [Span(span.start, span.end, _readable(span.style, palette)) for span in line.spans]
    return line


@lru_cache(maxsize=1024)
def _readable_style(style: Style, palette: Palette) -> Style:
    from rich.terminal_theme import DEFAULT_TERMINAL_THEME, MONOKAI

    from workbench.surfaces.colors import TEXT_CONTRAST, ensure_contrast

    if style.color is None and style.bgcolor is None:
        return style
    theme = MONOKAI if palette.dark else DEFAULT_TERMINAL_THEME
    background = (
        style.bgcolor.get_truecolor(theme, foreground=False).hex
        if style.bgcolor is not None and not style.bgcolor.is_default
        else palette.background
    )
    if style.color is None or style.color.is_default:
        return style
    foreground = style.color.get_truecolor(theme).hex
    readable = ensure_contrast(foreground, background, TEXT_CONTRAST + 0.1)
    if style.bgcolor is not None and not style.bgcolor.is_default:
        return style + Style(color=readable, bgcolor=background)
    return style + Style(color=readable)


def _readable(style: str | Style, palette: Palette) -> Style | str:
    if isinstance(style, str):
        if not style:
            return style
        style = Style.parse(style)
    return _readable_style(style, palette)


def output_tail(output: OutputBuffer, lines: int, palette: Palette) -> list[RenderableType]:
    """The last ``lines`` of a call's output (SGR colours kept), with a hidden-lines marker."""
    tail = output.tail(lines)
    rows: list[RenderableType] = []
    hidden = output.line_count - len(tail)
    if hidden:
        rows.append(hidden_lines_note(len(tail), output.line_count, palette))
    rows.extend(
        output_text(line.text, palette, palette.error if line.stream == "stderr" else "")
        for line in tail
    )
    return rows
