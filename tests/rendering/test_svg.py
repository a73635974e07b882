"""SVG snapshots draw what the terminal shows: wide characters on two cells, no ligatures."""

from __future__ import annotations

import re

from rich.segment import Segment
from rich.style import Style

from workbench.rendering.svg import CHAR_WIDTH, export_svg, split_wide


def test_wide_characters_get_runs_of_their_own() -> None:
    style = Style(bold=True)
    parts = [segment.text for segment in split_wide(Segment("ab教程 🚀x", style))]
    assert parts == ["ab", "教", "程", " ", "🚀", "x"]
    assert all(segment.style == style for segment in split_wide(Segment("教a", style)))
    # A variation selector stays with its emoji, which takes two cells with it.
    assert [segment.text for segment in split_wide(Segment("⏱️ go"))] == ["⏱️", " go"]


def test_text_runs_are_as_long_as_the_cells_they_cover() -> None:
    svg = export_svg([[Segment("教程 ok 🚀", Style(color="#ff0000"))]], 20, "t")
    runs = re.findall(r'textLength="([^"]+)"[^>]*>([^<]*)</text>', svg)
    lengths = {text: float(length) for length, text in runs}
    assert lengths["教"] == 2 * CHAR_WIDTH and lengths["程"] == 2 * CHAR_WIDTH
    assert lengths["🚀"] == 2 * CHAR_WIDTH
    assert lengths["&#160;ok&#160;"] == 4 * CHAR_WIDTH


def test_ligatures_are_off_and_ids_are_stable() -> None:
    svg = export_svg([[Segment("a ==> b <> c -> d")]], 30, "t")
    assert "font-variant-ligatures: none;" in svg
    assert '"liga" 0' in svg and '"calt" 0' in svg
    assert not re.search(r"terminal-\d", svg)
