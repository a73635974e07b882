"""Cutting long things to fit, always saying so: "showing N of M", ``…`` at the cut."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from rich.cells import cell_len, set_cell_size
from rich.console import Group, RenderableType
from rich.text import Text

from workbench.core.sanitize import ansi_text, plain
from workbench.surfaces.context import Palette
from workbench.surfaces.kit.wording import plural

T = TypeVar("T")

MAX_TEXT_CHARS = 20_000
"""Characters of a single text block shown before it is cut."""


def showing(shown: int, total: int, unit: str, palette: Palette) -> Text:
    """The explicit cap note: ``showing 10 of 240 results`` (``unit`` is singular)."""
    return Text(f"showing {shown:,} of {plural(total, unit)}", style=f"italic {palette.muted}")


def more_note(hidden: int, shown: int, total: int, unit: str, palette: Palette) -> Text:
    """``+230 more · showing 10 of 240 results`` (``unit`` is singular)."""
    return Text(
        f"+{hidden:,} more · showing {shown:,} of {plural(total, unit)}",
        style=f"italic {palette.muted}",
    )


def returned_note(
    shown: int, returned: int, total: int, unit: str, palette: Palette, *, more_hint: str = ""
) -> Text:
    """The cap note when the tool itself returned fewer items than exist.

    ``showing 12 of 50 tasks returned · 120 match`` says both cuts with the tool's own
    numbers, where ``+108 more`` would promise items the call never brought back.
    """
    if returned >= total:
        if shown >= returned:
            return Text("")
        return more_note(returned - shown, shown, returned, unit, palette)
    line = Text(
        f"showing {shown:,} of {plural(returned, unit)} returned · {total:,} in all",
        style=f"italic {palette.muted}",
    )
    if more_hint:
        line.append(f" · {more_hint}", style=f"italic {palette.muted}")
    return line


def hidden_lines_note(shown: int, total: int, palette: Palette) -> Text:
    """``… 5,988 earlier lines hidden · showing the last 12 of 6,000 lines``."""
    return Text(
        f"… {plural(total - shown, 'earlier line')} hidden · showing the last {shown:,} of "
        f"{plural(total, 'line')}",
        style=f"italic {palette.muted}",
    )


def cap_items(items: Sequence[T], limit: int) -> tuple[Sequence[T], int]:
    """The first ``limit`` items and how many were left out."""
    if len(items) <= limit:
        return items, 0
    return items[:limit], len(items) - limit


def truncate_line(value: str, width: int) -> str:
    """``value`` cut to ``width`` cells, ending in ``…`` when cut."""
    return shorten(value, width)


def shorten(value: str, width: int, *, where: str = "end") -> str:
    """``value`` in at most ``width`` terminal cells, with ``…`` where text was left out.

    ``where="middle"`` keeps both ends (a path's folder and file name); wide characters
    (CJK, emoji) count as the two cells they take on screen.
    """
    if len(value) > width * 2 + 8:
        # Cell arithmetic is per character: never pay it for a 100 KB argument.
        if where == "middle":
            value = value[: width * 2] + value[-width * 2 :]
        else:
            value = value[: width * 2 + 8]
    elif cell_len(value) <= width:
        return value
    if width <= 1:
        return "…"[:width]
    if where == "middle":
        head_width = (width - 1) // 2
        tail_width = width - 1 - head_width
        head = set_cell_size(value, head_width).rstrip()
        tail = _tail_cells(value, tail_width)
        return f"{head}…{tail}"
    return set_cell_size(value, width - 1).rstrip() + "…"


def _tail_cells(value: str, width: int) -> str:
    taken: list[str] = []
    used = 0
    for character in reversed(value):
        size = cell_len(character)
        if used + size > width:
            break
        taken.append(character)
        used += size
    return "".join(reversed(taken))


def shorten_text(value: Text, width: int, where: str) -> Text:
    """``value`` (styles kept) in ``width`` cells, ``…`` marking the cut."""
    plain_text = value.plain
    short = shorten(plain_text, width, where=where)
    head, ellipsis, tail = short.partition("…")
    if not ellipsis:
        return value
    result = value[: len(head)]
    result.append("…")
    if tail:
        result.append_text(value[len(plain_text) - len(tail) :])
    return result


def line_count(value: str) -> int:
    """Lines in ``value`` as an editor counts them (a final newline ends a line, it adds none)."""
    if not value:
        return 0
    return value.count("\n") + (0 if value.endswith("\n") else 1)


def capped_text(
    value: str,
    palette: Palette,
    *,
    max_lines: int = 40,
    style: str = "",
    ansi: bool = False,
    unit: str = "line",
    total_lines: int | None = None,
    width: int | None = None,
) -> RenderableType:
    """A block of untrusted text cut at ``max_lines`` (and at a character cap).

    ``total_lines`` is the tool's own count when ``value`` is already a cut of something
    longer: the note then says how much the tool had, not how much it passed on. With
    ``width``, each line is one row, shortened with ``…`` (a preview whose height does not
    depend on the terminal); without it, long lines wrap.
    """
    cut = value[:MAX_TEXT_CHARS]
    lines = cut.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    shown = lines[:max_lines]
    total = max(total_lines or 0, line_count(value))
    if width is not None:
        shown = [shorten(line, width) for line in shown]
    body = ansi_text("\n".join(shown), style) if ansi else plain("\n".join(shown), style)
    if width is not None:
        body.no_wrap = True
        body.overflow = "ellipsis"
    notes: list[RenderableType] = []
    if total > len(shown):
        notes.append(showing(len(shown), total, unit, palette))
    elif len(value) > MAX_TEXT_CHARS:
        notes.append(
            Text(
                f"showing {MAX_TEXT_CHARS:,} of {plural(len(value), 'character')}",
                style=f"italic {palette.muted}",
            )
        )
    return Group(body, *notes) if notes else body


def shorten_strings(value: Any, limit: int) -> Any:
    """``value`` with every string longer than ``limit`` cut, saying how much was left out."""
    if isinstance(value, str):
        if len(value) > limit:
            return f"{value[:limit]}… (+{plural(len(value) - limit, 'character')})"
        return value
    if isinstance(value, dict):
        return {key: shorten_strings(item, limit) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [shorten_strings(item, limit) for item in value]
    return value
