"""Building blocks for surfaces: safe text, caps with "showing N of M", JSON, boxes.

Every piece of tool or fixture text goes through :mod:`workbench.core.sanitize` here, so a
surface written with these helpers cannot leak markup or escape sequences.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from rich.console import Group, JustifyMethod, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from workbench.core.output_buffer import OutputBuffer

# ansi_text is part of the kit surfaces use (kit.ansi_text): re-exported explicitly.
from workbench.core.sanitize import ansi_text as ansi_text
from workbench.core.sanitize import clean, plain
from workbench.surfaces.context import Palette, SurfaceContext

T = TypeVar("T")

SPINNER_FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
MAX_TEXT_CHARS = 20_000
"""Characters of a single text block shown before it is cut."""


def spinner(frame: int) -> str:
    return SPINNER_FRAMES[frame % len(SPINNER_FRAMES)]


def text(value: object, style: str = "") -> Text:
    """Untrusted text as a literal :class:`Text` (never markup, escapes removed)."""
    return plain(value, style)


def join(*parts: Text | str | tuple[object, str] | None) -> Text:
    """Assemble one line from pieces: ``Text``, trusted ``str`` labels, or ``(value, style)``."""
    line = Text()
    for part in parts:
        if part is None:
            continue
        if isinstance(part, Text):
            line.append_text(part)
        elif isinstance(part, tuple):
            line.append_text(plain(part[0], part[1]))
        else:
            line.append(part)
    return line


def showing(shown: int, total: int, unit: str, palette: Palette) -> Text:
    """The explicit cap note: ``showing 10 of 240 results``."""
    return Text(f"showing {shown:,} of {total:,} {unit}", style=f"italic {palette.muted}")


def more_note(hidden: int, shown: int, total: int, unit: str, palette: Palette) -> Text:
    """``+230 more · showing 10 of 240 results``."""
    return Text(
        f"+{hidden:,} more · showing {shown:,} of {total:,} {unit}", style=f"italic {palette.muted}"
    )


def cap_items(items: Sequence[T], limit: int) -> tuple[Sequence[T], int]:
    """The first ``limit`` items and how many were left out."""
    if len(items) <= limit:
        return items, 0
    return items[:limit], len(items) - limit


def truncate_line(value: str, width: int) -> str:
    if len(value) <= width:
        return value
    return value[: max(0, width - 1)] + "…"


def capped_text(
    value: str,
    palette: Palette,
    *,
    max_lines: int = 40,
    style: str = "",
    ansi: bool = False,
    unit: str = "lines",
) -> RenderableType:
    """A block of untrusted text cut at ``max_lines`` (and at a character cap)."""
    total_lines = value.count("\n") + (0 if value.endswith("\n") else 1) if value else 0
    cut = value[:MAX_TEXT_CHARS]
    lines = cut.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    shown = lines[:max_lines]
    body = ansi_text("\n".join(shown), style) if ansi else plain("\n".join(shown), style)
    notes: list[RenderableType] = []
    if total_lines > len(shown):
        notes.append(showing(len(shown), total_lines, unit, palette))
    elif len(value) > MAX_TEXT_CHARS:
        notes.append(
            Text(
                f"showing {MAX_TEXT_CHARS:,} of {len(value):,} characters",
                style=f"italic {palette.muted}",
            )
        )
    return Group(body, *notes) if notes else body


def to_json_text(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str, sort_keys=False)


def shorten_strings(value: Any, limit: int) -> Any:
    """``value`` with every string longer than ``limit`` cut, saying how much was left out."""
    if isinstance(value, str):
        if len(value) > limit:
            return f"{value[:limit]}… (+{len(value) - limit:,} characters)"
        return value
    if isinstance(value, dict):
        return {key: shorten_strings(item, limit) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [shorten_strings(item, limit) for item in value]
    return value


def json_block(
    value: Any, palette: Palette, *, max_lines: int = 30, max_string: int = 400
) -> RenderableType:
    """Highlighted JSON of untrusted data; long strings and long listings are capped."""
    from rich.syntax import Syntax  # Deferred: pygments is slow to import.

    dumped = clean(to_json_text(shorten_strings(value, max_string)))
    lines = dumped.split("\n")
    shown = "\n".join(lines[:max_lines])
    theme = "monokai" if palette.dark else "default"
    syntax = Syntax(shown, "json", theme=theme, background_color="default", word_wrap=True)
    if len(lines) > max_lines:
        return Group(syntax, showing(max_lines, len(lines), "lines", palette))
    return syntax


def code_block(
    code: str,
    language: str,
    palette: Palette,
    *,
    max_lines: int = 40,
    start_line: int = 1,
    line_numbers: bool = True,
) -> RenderableType:
    """Syntax-highlighted untrusted code, capped."""
    from rich.syntax import Syntax

    total_lines = code.count("\n") + (0 if code.endswith("\n") else 1) if code else 0
    lines = clean(code[:MAX_TEXT_CHARS]).split("\n")
    shown = "\n".join(lines[:max_lines])
    theme = "monokai" if palette.dark else "default"
    syntax = Syntax(
        shown,
        language or "text",
        theme=theme,
        background_color="default",
        line_numbers=line_numbers,
        start_line=start_line,
        word_wrap=True,
    )
    if total_lines > min(len(lines), max_lines):
        return Group(syntax, showing(min(len(lines), max_lines), total_lines, "lines", palette))
    return syntax


def error_box(
    title: str, message: str, palette: Palette, *, details: Iterable[RenderableType] = ()
) -> Panel:
    """A red-bordered box for failures; ``message`` is untrusted."""
    body: list[RenderableType] = [plain(message)]
    body.extend(details)
    return Panel(
        Group(*body),
        title=Text(title, style=f"bold {palette.error}"),
        title_align="left",
        border_style=palette.error,
        expand=True,
        padding=(0, 1),
    )


def notice_box(
    title: str, body: RenderableType, palette: Palette, *, color: str | None = None
) -> Panel:
    color = color or palette.warning
    return Panel(
        body,
        title=Text(title, style=f"bold {color}"),
        title_align="left",
        border_style=color,
        expand=True,
        padding=(0, 1),
    )


def key_values(rows: Iterable[tuple[str, object]], palette: Palette) -> Table:
    """Labels (trusted) beside untrusted values."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style=palette.muted, no_wrap=True)
    table.add_column(overflow="fold")
    for label, value in rows:
        table.add_row(Text(label), value if isinstance(value, Text) else plain(value))
    return table


def skeleton_bar(width: int, palette: Palette) -> Text:
    return Text("░" * max(1, width), style=palette.muted)


def progress_bar(fraction: float | None, width: int, palette: Palette) -> Text:
    """A determinate bar, or an empty track when the fraction is unknown."""
    width = max(4, width)
    if fraction is None:
        return Text("·" * width, style=palette.muted)
    filled = round(fraction * width)
    bar = Text("█" * filled, style=palette.primary)
    bar.append("░" * (width - filled), style=palette.muted)
    return bar


def status_line(
    ctx: SurfaceContext,
    verb_active: str,
    verb_done: str,
    subject: Text | None = None,
    suffix: Text | None = None,
    verb_failed: str | None = None,
) -> Text:
    """The usual Inspector shape: ``Searching: query`` / ``Searched: query (12)``."""
    palette = ctx.palette
    active = ctx.is_active
    line = Text(no_wrap=True, overflow="ellipsis")
    if active:
        line.append(f"{spinner(ctx.frame)} ", style=palette.accent)
    failed = ctx.error is not None and not active
    verb = verb_active if active else (verb_failed or verb_done) if failed else verb_done
    line.append(verb, style=f"bold {palette.error}" if failed else "bold")
    if subject is not None and subject.plain:
        line.append(": ")
        subject.stylize(palette.primary if palette.dark else palette.secondary)
        line.append_text(subject)
    if not active and suffix is not None:
        line.append(" ")
        line.append_text(suffix)
    if ctx.error is not None and not active:
        line.append(" ")
        line.append_text(plain(f"✗ {ctx.error.type}", f"bold {palette.error}"))
    return line


def human_size(size: int) -> str:
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"


def diff_block(diff: str, palette: Palette, *, max_lines: int = 30) -> RenderableType:
    """A unified diff with added and removed lines coloured, capped."""
    lines = clean(diff).split("\n")
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
    if len(lines) > max_lines:
        return Group(body, showing(max_lines, len(lines), "diff lines", palette))
    return body


def rows_table(
    rows: Iterable[Sequence[Text | str]],
    palette: Palette,
    *,
    headers: Sequence[str] | None = None,
    justify: Sequence[JustifyMethod] | None = None,
) -> Table:
    """A borderless table of literal cells; header labels are trusted."""
    table = Table(
        box=None,
        show_header=headers is not None,
        header_style=f"bold {palette.muted}",
        padding=(0, 1),
        pad_edge=False,
        expand=False,
    )
    for index, header in enumerate(headers or []):
        table.add_column(
            header,
            justify=(justify[index] if justify else "left"),
            overflow="ellipsis",
            no_wrap=True,
        )
    for row in rows:
        if headers is None and not table.columns:
            for _ in row:
                table.add_column(overflow="ellipsis", no_wrap=True)
        table.add_row(*(cell if isinstance(cell, Text) else plain(cell) for cell in row))
    return table


def output_tail(output: OutputBuffer, lines: int, palette: Palette) -> list[RenderableType]:
    """The last ``lines`` of a call's output (SGR colours kept), with a hidden-lines marker."""
    tail = output.tail(lines)
    rows: list[RenderableType] = []
    hidden = output.line_count - len(tail)
    if hidden:
        rows.append(
            Text(
                f"… {hidden:,} lines hidden · showing "
                f"the last {len(tail)} of {output.line_count:,}",
                style=f"italic {palette.muted}",
            )
        )
    rows.extend(
        ansi_text(line.text, palette.error if line.stream == "stderr" else "") for line in tail
    )
    return rows
