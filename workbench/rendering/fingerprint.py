"""The content hash of a drawing: what a reviewer sees, cell by cell, in 16 hex digits.

A review decision names the picture it was about by this hash. It covers the text and every
cell's colours and attributes, so a colour change sends a case back to review; it does not
cover how the SVG is written, so a new Rich exporter (or our own SVG fixes) voids no review,
nor what cannot be seen (the text colour or weight of a blank cell).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from functools import lru_cache

from rich.color import Color
from rich.segment import Segment
from rich.style import Style

_ATTRIBUTES = ("bold", "dim", "italic", "underline", "strike", "blink", "conceal")
_BLANK_ATTRIBUTES = ("underline", "strike")
"""What still shows on a blank cell."""
_BLANKS = re.compile(r"( +)")


def _colour(color: Color | None) -> str:
    if color is None:
        return "-"
    if color.is_default:
        return "default"
    return color.get_truecolor().hex


@lru_cache(maxsize=4096)  # A drawing has few distinct styles and many runs of each.
def _style_key(style: Style | None, *, blank: bool = False) -> str:
    if style is None:
        return ""
    # Reverse video is seen as the two colours swapped (a scrollbar's thumb is one).
    color, bgcolor = (style.bgcolor, style.color) if style.reverse else (style.color, style.bgcolor)
    if blank:
        flags = "".join("1" if getattr(style, name) else "0" for name in _BLANK_ATTRIBUTES)
        return f"-/{_colour(bgcolor)}/{flags}"
    flags = "".join("1" if getattr(style, name) else "0" for name in _ATTRIBUTES)
    return f"{_colour(color)}/{_colour(bgcolor)}/{flags}"


def picture_hash(lines: Iterable[Iterable[Segment]]) -> str:
    """Hash of rows of segments, as seen: how the segments were cut does not matter."""
    digest = hashlib.sha256()
    for line in lines:
        runs: list[list[str]] = []  # [style key, text], adjacent equal keys merged
        for text, style, control in line:
            if control:
                continue
            for part in _BLANKS.split(text):
                if not part:
                    continue
                key = _style_key(style, blank=part[0] == " ")
                if runs and runs[-1][0] == key:
                    runs[-1][1] += part
                else:
                    runs.append([key, part])
        for key, text in runs:
            digest.update(f"{key}\x1f{text}\x1e".encode("utf-8", "surrogatepass"))
        digest.update(b"\n")
    return digest.hexdigest()[:16]
