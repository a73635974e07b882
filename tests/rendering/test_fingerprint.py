"""The picture hash a review decision names: it moves with the text and every colour, not with
how the segments were cut."""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style

from workbench.rendering.fingerprint import picture_hash

RED = Style(color="#ff0000", bgcolor="#000000")


def test_the_hash_follows_text_and_colours_but_not_segment_boundaries() -> None:
    base = picture_hash([[Segment("✗ failed", RED)]])
    assert len(base) == 16 and int(base, 16) >= 0
    assert picture_hash([[Segment("✗ fai", RED), Segment("led", RED)]]) == base
    assert picture_hash([[Segment("✗ failed", Style(color="#00ff00", bgcolor="#000000"))]]) != base
    assert picture_hash([[Segment("✗ failed", RED + Style(bold=True))]]) != base
    assert picture_hash([[Segment("✓ failed", RED)]]) != base
    # The same text on two rows is a different picture from one row.
    assert picture_hash([[Segment("a")], [Segment("b")]]) != picture_hash([[Segment("ab")]])
