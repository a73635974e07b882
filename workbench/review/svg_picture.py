"""Read a committed SVG snapshot back into styled terminal lines, so the review TUI can show
the committed picture in colour beside the live one (the text snapshot has no colours).

The SVGs are Rich's export as ``workbench.rendering.svg`` writes them: one ``<rect>`` per
background run and one ``<text>`` per run of one style, each ``<text>`` clipped to its row
(``terminal-line-N``) and placed at ``x = column * cell width``; a style class per colour
and weight. Anything else in the file is ignored; a file that is not such an SVG reads as
``None``.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

FONT_ASPECT_RATIO = 0.61
"""Rich's default cell width to font size, which our exporter keeps."""

_FONT_SIZE = re.compile(r"\.terminal-matrix\s*\{[^}]*?font-size:\s*([0-9.]+)px", re.S)
_LINE_HEIGHT = re.compile(r"\.terminal-matrix\s*\{[^}]*?line-height:\s*([0-9.]+)px", re.S)
_CLASS = re.compile(r"\.(terminal-r\d+)\s*\{([^}]*)\}")
_TERMINAL_GROUP = re.compile(r'<g transform="translate\([^)]*\)" clip-path="url\(#terminal-clip')
_RECT = re.compile(
    r'<rect fill="(#[0-9a-fA-F]{6})" x="([0-9.]+)" y="([0-9.]+)" width="([0-9.]+)" '
    r'height="[0-9.]+" shape-rendering="crispEdges"/>'
)
_TEXT = re.compile(
    r'<text class="(terminal-r\d+)" x="([0-9.]+)" y="[0-9.]+" textLength="[0-9.]+" '
    r'clip-path="url\(#terminal-line-(\d+)\)">([^<]*)</text>'
)
_CLIP_LINE = re.compile(r'<clipPath id="terminal-line-(\d+)">')
_FILL = re.compile(r"fill:\s*(#[0-9a-fA-F]{6})")


@dataclass
class _Cell:
    text: str = " "
    style: Style | None = None
    background: str | None = None
    covered: bool = False
    """The right half of a wide character: drawn by the cell before it."""


def _style(declarations: str) -> Style:
    fill = _FILL.search(declarations)
    return Style(
        color=fill.group(1) if fill else None,
        bold="font-weight: bold" in declarations,
        italic="font-style: italic" in declarations,
        underline="underline" in declarations,
        strike="line-through" in declarations,
    )


def read_svg_picture(svg: str, *, background: str | None = None) -> list[Text] | None:
    """The rows of a snapshot SVG as styled text; ``None`` if it is not one of ours.

    ``background`` fills cells the picture gave no background (the theme's screen colour).
    """
    size = _FONT_SIZE.search(svg)
    height = _LINE_HEIGHT.search(svg)
    start = _TERMINAL_GROUP.search(svg)
    if size is None or height is None or start is None:
        return None
    cell_width = float(size.group(1)) * FONT_ASPECT_RATIO
    line_height = float(height.group(1))
    if not _CLIP_LINE.search(svg):
        return None
    body = svg[start.end() :]
    classes = {name: _style(declarations) for name, declarations in _CLASS.findall(svg)}
    width = 0
    runs: list[tuple[int, int, str, Style | None]] = []
    for name, x, row, raw in _TEXT.findall(body):
        text = html.unescape(raw).replace("\xa0", " ")
        column = round(float(x) / cell_width)
        runs.append((int(row), column, text, classes.get(name)))
        width = max(width, column + cell_len(text))
    fills: list[tuple[int, int, int, str]] = []
    for colour, x, y, run_width in _RECT.findall(body):
        column = round(float(x) / cell_width)
        cells = round(float(run_width) / cell_width)
        row = round((float(y) - 1.5) / line_height)
        fills.append((row, column, cells, colour.lower()))
        width = max(width, column + cells)
    row_count = 1 + max(
        [row for row, _, _, _ in runs] + [row for row, _, _, _ in fills], default=-1
    )
    grid = [[_Cell() for _ in range(width)] for _ in range(row_count)]
    for row, column, cells, colour in fills:
        if 0 <= row < row_count:
            for index in range(column, min(width, column + cells)):
                grid[row][index].background = colour
    for row, column, text, style in runs:
        if not 0 <= row < row_count:
            continue
        position = column
        for character in _clusters(text):
            cells = cell_len(character)
            if position >= width:
                break
            cell = grid[row][position]
            cell.text, cell.style = character, style
            if cells == 2 and position + 1 < width:
                grid[row][position + 1].covered = True
            position += max(1, cells)
    lines = []
    for row_cells in grid:
        line = Text(no_wrap=True)
        for cell in row_cells:
            if cell.covered:
                continue
            fill = cell.background or background
            style = (cell.style or Style()) + Style(bgcolor=fill) if fill else cell.style
            line.append(cell.text, style)
        lines.append(line)
    return lines


def _clusters(text: str) -> list[str]:
    """Characters with the zero-width ones that belong to them (variation selectors, joiners)."""
    clusters: list[str] = []
    for character in text:
        if clusters and (cell_len(character) == 0 or clusters[-1].endswith("\u200d")):
            clusters[-1] += character
        else:
            clusters.append(character)
    return clusters
