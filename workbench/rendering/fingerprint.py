"""The content hash of a drawing: what a reviewer sees, cell by cell, in 16 hex digits.

A review decision names the picture it was about by this hash. It covers the text and every
cell's colours and attributes, so a colour change sends a case back to review; it does not
cover how the SVG is written, so a new Rich exporter (or our own SVG fixes) voids no review.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from rich.color import Color
from rich.segment import Segment
from rich.style import Style

_ATTRIBUTES = ("bold", "dim", "italic", "underline", "strike", "reverse", "blink", "conceal")


def _colour(color: Color | None) -> str:
    if color is None:
        return "-"
    if color.is_default:
        return "default"
    return color.get_truecolor().hex


def _style_key(style: Style | None) -> str:
    if style is None:
        return ""
    flags = "".join("1" if getattr(style, name) else "0" for name in _ATTRIBUTES)
    return f"{_colour(style.color)}/{_colour(style.bgcolor)}/{flags}"


def picture_hash(lines: Iterable[Iterable[Segment]]) -> str:
    """Hash of rows of segments; runs of one style are merged first, so how the segments
    were cut does not matter."""
    digest = hashlib.sha256()
    for line in lines:
        for text, style, control in Segment.simplify(list(line)):
            if control:
                continue
            digest.update(f"{_style_key(style)}\x1f{text}\x1e".encode("utf-8", "surrogatepass"))
        digest.update(b"\n")
    return digest.hexdigest()[:16]
