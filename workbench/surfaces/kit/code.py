"""JSON, code and diffs, highlighted in colours taken from the palette."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text

from workbench.core.sanitize import clean
from workbench.surfaces.context import Palette
from workbench.surfaces.kit.cutting import (
    MAX_TEXT_CHARS,
    line_count,
    shorten,
    shorten_strings,
    showing,
)


def to_json_text(value: Any) -> str:
    """``value`` as indented JSON text (non-ASCII kept, anything unknown as ``str``)."""
    return json.dumps(value, indent=2, ensure_ascii=False, default=str, sort_keys=False)


def syntax_theme(palette: Palette) -> Any:
    """Code colours taken from the palette, so highlighted code passes contrast in every theme.

    Pygments' own themes were made for their own backgrounds: on ours, ``default``'s greens
    and ``monokai``'s greys fall below 4.5:1.
    """
    return _syntax_theme(palette)


@lru_cache(maxsize=16)
def _syntax_theme(palette: Palette) -> Any:
    from pygments.token import (
        Comment,
        Error,
        Generic,
        Keyword,
        Literal,
        Name,
        Number,
        Operator,
        Punctuation,
        String,
        Token,
    )
    from rich.syntax import ANSISyntaxTheme

    def style(color: str, *, bold: bool = False, italic: bool = False) -> Style:
        return Style(color=color, bold=bold or None, italic=italic or None)

    return ANSISyntaxTheme(
        {
            Token: style(palette.foreground),
            Comment: style(palette.muted, italic=True),
            Keyword: style(palette.accent, bold=True),
            Keyword.Constant: style(palette.secondary),
            Name.Builtin: style(palette.secondary),
            Name.Function: style(palette.primary),
            Name.Class: style(palette.primary, bold=True),
            Name.Decorator: style(palette.accent),
            Name.Tag: style(palette.primary),
            Name.Attribute: style(palette.secondary),
            Literal: style(palette.success),
            String: style(palette.success),
            Number: style(palette.warning),
            Operator: style(palette.foreground),
            Punctuation: style(palette.foreground),
            Generic.Heading: style(palette.primary, bold=True),
            Generic.Subheading: style(palette.primary, bold=True),
            Generic.Emph: style(palette.foreground, italic=True),
            Generic.Strong: style(palette.foreground, bold=True),
            Generic.Inserted: style(palette.success),
            Generic.Deleted: style(palette.error),
            Error: style(palette.error),
        }
    )


def _syntax(
    code: str,
    language: str,
    palette: Palette,
    *,
    line_numbers: bool = False,
    start_line: int = 1,
) -> RenderableType:
    from rich.syntax import Syntax  # Deferred: pygments is slow to import.

    class PaletteSyntax(Syntax):
        # Rich draws line numbers 30% of the way from the background to the text (about
        # 2:1, too faint to read), or dim when the console has fewer colours, so the picture
        # would depend on the terminal. The palette's muted colour passes, everywhere.
        def _get_number_styles(self, console: Any) -> tuple[Style, Style, Style]:
            background = self._get_base_style()
            number = background + Style(color=palette.muted)
            return background, number, number + Style(bold=True)

    return PaletteSyntax(
        code,
        language or "text",
        theme=syntax_theme(palette),
        background_color=palette.background,
        line_numbers=line_numbers,
        start_line=start_line,
        word_wrap=True,
    )


def json_block(
    value: Any, palette: Palette, *, max_lines: int = 30, max_string: int = 400
) -> RenderableType:
    """Highlighted JSON of untrusted data; long strings and long listings are capped.

    For details panes and generic fallbacks: a tool's own surfaces show their data as
    sentences, lists and tables, not as JSON (``workbench audit`` rule 15).
    """
    dumped = clean(to_json_text(shorten_strings(value, max_string)))
    lines = dumped.split("\n")
    shown = "\n".join(lines[:max_lines])
    syntax = _syntax(shown, "json", palette)
    if len(lines) > max_lines:
        return Group(syntax, showing(max_lines, len(lines), "line", palette))
    return syntax


def code_block(
    code: str,
    language: str,
    palette: Palette,
    *,
    max_lines: int = 40,
    start_line: int = 1,
    line_numbers: bool = True,
    total_lines: int | None = None,
    width: int | None = None,
) -> RenderableType:
    """Syntax-highlighted untrusted code, capped.

    ``total_lines``: the tool's own count when ``code`` is already a cut of a longer file.
    ``width``: one row per line, each shortened with ``…`` to fit (a card's preview keeps
    its height at any terminal width); without it, long lines wrap.
    """
    lines = clean(code[:MAX_TEXT_CHARS]).split("\n")
    if lines and lines[-1] == "" and code.endswith("\n"):
        lines.pop()
    visible_lines = lines[:max_lines]
    if width is not None:
        gutter = len(str(start_line + len(visible_lines))) + 3 if line_numbers else 0
        visible_lines = [shorten(line, max(8, width - gutter)) for line in visible_lines]
    shown = "\n".join(visible_lines)
    syntax = _syntax(shown, language, palette, line_numbers=line_numbers, start_line=start_line)
    total = max(total_lines or 0, line_count(code))
    visible = min(len(lines), max_lines)
    if total > visible:
        return Group(syntax, showing(visible, total, "line", palette))
    return syntax


def diff_block(
    diff: str, palette: Palette, *, max_lines: int = 30, wrap: bool = True
) -> RenderableType:
    """A unified diff with added and removed lines coloured, capped.

    ``wrap=False``: one row per line, cut with ``…`` (a card's preview keeps its height).
    """
    lines = clean(diff).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    body = Text()
    for line in lines[:max_lines]:
        if line.startswith("+++") or line.startswith("---"):
            style = f"bold {palette.muted}"
        elif line.startswith("@@"):
            style = palette.accent
        elif line.startswith("+"):
            style = palette.success
        elif line.startswith("-"):
            style = palette.error
        else:
            style = ""
        body.append(line + "\n", style=style)
    body.rstrip()
    if not wrap:
        body.no_wrap = True
        body.overflow = "ellipsis"
    if len(lines) > max_lines:
        return Group(body, showing(max_lines, len(lines), "diff line", palette))
    return body
