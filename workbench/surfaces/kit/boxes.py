"""Boxes and tables: failures, notices, label/value rows, cell tables."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.cells import cell_len
from rich.console import Group, JustifyMethod, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from workbench.core.sanitize import plain
from workbench.surfaces.context import Palette
from workbench.surfaces.kit.code import to_json_text
from workbench.surfaces.kit.cutting import (
    shorten,
    showing,
)


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
    """A box for something that is not a failure (a warning, a note); ``title`` is trusted."""
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


def args_table(
    args: dict[str, Any], palette: Palette, width: int, *, limit: int = 6
) -> RenderableType:
    """Arguments as ``name  value`` rows, each value shortened to one line."""
    rows: list[tuple[str, object]] = []
    for key, value in list(args.items())[:limit]:
        shown = value if isinstance(value, str) else to_json_text(value).replace("\n", " ")
        room = max(8, width - cell_len(str(key)) - 2)
        rows.append((str(key), shorten(str(shown).replace("\n", "⏎ "), room)))
    table = key_values(rows, palette)
    if len(args) > limit:
        return Group(table, showing(limit, len(args), "argument", palette))
    return table


def rows_table(
    rows: Iterable[Sequence[Text | str]],
    palette: Palette,
    *,
    headers: Sequence[str] | None = None,
    justify: Sequence[JustifyMethod] | None = None,
    keep: Sequence[int] = (),
    width: int | None = None,
) -> Table:
    """A borderless table of literal cells; header labels are trusted.

    Columns listed in ``keep`` (ids, statuses, sizes) never shrink: given the ``width`` it
    must fit, the other columns share what is left and are cut with ``…``.
    """
    materialised = [
        [cell if isinstance(cell, Text) else plain(cell) for cell in row] for row in rows
    ]
    table = Table(
        box=None,
        show_header=headers is not None,
        header_style=f"bold {palette.muted}",
        padding=(0, 1),
        pad_edge=False,
        expand=False,
    )
    columns = (
        len(headers) if headers is not None else max((len(r) for r in materialised), default=0)
    )
    widest = []
    for index in range(columns):
        cells = [row[index].cell_len for row in materialised if index < len(row)]
        if headers is not None:
            cells.append(cell_len(headers[index]))
        widest.append(max(cells, default=0))
    flexible = [index for index in range(columns) if index not in keep]
    share: int | None = None
    if width is not None and keep and flexible:
        # Rich shrinks every column alike; here the kept ones keep their width.
        room = width - sum(widest[index] for index in keep) - 2 * (columns - 1)
        share = max(4, room // len(flexible))
    for index in range(columns):
        kept = index in keep
        table.add_column(
            headers[index] if headers is not None else "",
            justify=(justify[index] if justify else "left"),
            overflow="ellipsis",
            no_wrap=True,
            width=widest[index] if kept and share is not None else None,
            max_width=share if not kept else None,
        )
    for row in materialised:
        table.add_row(*row)
    return table
