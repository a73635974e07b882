"""SVG export of drawn lines that looks like the terminal did.

Rich's exporter has two habits that make a picture differ from the screen:

- it gives each ``<text>`` run a ``textLength`` of one cell per *character*, so a run holding
  CJK or emoji (two cells each) is squeezed into half its width, and the next run starts
  where the terminal would have put it — leaving a gap;
- its font, Fira Code, draws ligatures: ``==>``, ``<>`` or ``->`` in a command or a diff
  become arrows and diamonds that are not what the terminal shows.

Here every wide character gets a run of its own (so it sits exactly on its two cells),
``textLength`` is set from cell widths, and ligatures are turned off in the stylesheet.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Iterable, Iterator

from rich._export_format import CONSOLE_SVG_FORMAT
from rich.cells import cell_len, get_character_cell_size
from rich.console import Console
from rich.segment import Segment, Segments

from workbench.rendering.environment import PINNED_ENVIRON

FONT_ASPECT_RATIO = 0.61
"""Rich's default: Fira Code's width to height."""
CHAR_HEIGHT = 20
CHAR_WIDTH = CHAR_HEIGHT * FONT_ASPECT_RATIO

SVG_FORMAT = CONSOLE_SVG_FORMAT.replace(
    "font-variant-east-asian: full-width;",
    "font-variant-east-asian: full-width;\n"
    "        font-variant-ligatures: none;\n"
    '        font-feature-settings: "liga" 0, "calt" 0;',
)
_TEXT_RUN = re.compile(
    r'(<text class="[^"]*" x="[^"]*" y="[^"]*" textLength=")([^"]*)("[^>]*>)([^<]*)(</text>)'
)


def _clusters(text: str) -> list[str]:
    """Characters with the zero-width ones that belong to them (variation selectors, joiners)."""
    clusters: list[str] = []
    for character in text:
        if clusters and (
            get_character_cell_size(character) == 0 or clusters[-1].endswith("\u200d")
        ):
            clusters[-1] += character
        else:
            clusters.append(character)
    return clusters


def split_wide(segment: Segment) -> Iterator[Segment]:
    """``segment`` cut so that each two-cell character is a segment of its own.

    Zero-width characters (variation selectors, joiners, combining marks) stay with the
    character before them, so ``⏱️`` (two cells) is one run.
    """
    text, style, control = segment
    if control or text.isascii():
        yield segment
        return
    run = ""
    for cluster in _clusters(text):
        if len(cluster) == 1 and cell_len(cluster) == 1:
            run += cluster
            continue
        if run:
            yield Segment(run, style)
            run = ""
        yield Segment(cluster, style)
    if run:
        yield Segment(run, style)


def _fix_length(match: re.Match[str]) -> str:
    content = match.group(4)
    cells = cell_len(html.unescape(content).replace("\xa0", " "))
    if cells == 0:
        return match.group(0)
    length = format(cells * CHAR_WIDTH, "g")
    return f"{match.group(1)}{length}{match.group(3)}{content}{match.group(5)}"


def export_svg(lines: Iterable[Iterable[Segment]], width: int, title: str) -> str:
    """Lines of segments (one terminal row each) as an SVG picture of ``width`` columns."""
    rows = [list(line) for line in lines]
    console = Console(
        width=width,
        height=max(1, len(rows)),
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
        legacy_windows=False,
        safe_box=False,
        no_color=False,
        _environ=PINNED_ENVIRON,
    )
    segments: list[Segment] = []
    for row in rows:
        # Merging runs of one style keeps the SVG (and its diffs) small.
        for segment in Segment.simplify(row):
            segments.extend(split_wide(segment))
        segments.append(Segment.line())
    console.print(Segments(segments), end="")
    # Rich numbers ids from a hash of the content (the repr of every segment: a fifth of the
    # export's time), so one changed cell would rewrite every line: a fixed id instead.
    svg = console.export_svg(
        title=title,
        code_format=SVG_FORMAT,
        font_aspect_ratio=FONT_ASPECT_RATIO,
        unique_id="terminal",
    )
    return _TEXT_RUN.sub(_fix_length, svg)
