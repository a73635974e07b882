"""Reading rendered text: numbers, notes, glyphs — the small parsers the rules share."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

NUMBER = r"\d{1,3}(?:,\d{3})+|\d+"

SHOWING = re.compile(
    rf"showing (?:the (?:first |last )?)?({NUMBER}) of ({NUMBER})(?: ([a-z][a-z ]*))?"
)
"""``showing 12 of 6,000 lines`` (the unit is optional)."""
MORE = re.compile(rf"\+({NUMBER}) more\b")
RANGE = re.compile(rf"\b(?:lines?|rows?) ({NUMBER})[-\u2013]({NUMBER}) of ({NUMBER})")
"""``lines 1-24 of 200``."""
TRUNCATION_NOTE = re.compile(
    r"showing|\bhidden\b|\bmore\b|\bcut\b|\bcapped\b|\btruncated\b|\bfirst part\b|\bof \d",
    re.IGNORECASE,
)
EMPTY_WORDS = re.compile(
    r"\b(?:no|none|nothing|empty|not any|zero|did not|no longer)\b|∅", re.IGNORECASE
)
WORD = re.compile(r"[^\W\d_]{2,}")

DECORATION = frozenset("·•▸▶◂◀○●◆◇■□▪▫⏸⏱⊘⛔↷✓✗→←↑↓↪⏎…❱|")
"""Marks that are drawn rather than read: 3:1 is enough for them (WCAG non-text contrast)."""


def to_int(text: str) -> int:
    return int(text.replace(",", ""))


def is_decoration(text: str) -> bool:
    """Whether every visible character of ``text`` is a line, block, spinner or mark."""
    for character in text:
        if character.isspace():
            continue
        code = ord(character)
        if 0x2500 <= code <= 0x259F or 0x2800 <= code <= 0x28FF:
            continue  # Box drawing, block elements, braille spinners.
        if character in DECORATION:
            continue
        return False
    return True


def line_total(value: str) -> int:
    if not value:
        return 0
    return value.count("\n") + (0 if value.endswith("\n") else 1)


def numbers_in(value: Any, depth: int = 0) -> Iterator[int]:
    """Every count a JSON-like value states or holds: integers, list lengths, pairwise sums of
    a dict's integers (``stdoutLines + stderrLines``), and the lines and characters of its
    strings (a page's text is the tool's, however a surface cuts it)."""
    if depth > 3:
        return
    if isinstance(value, bool):
        return
    if isinstance(value, str):
        yield len(value)
        yield line_total(value)
    elif isinstance(value, int):
        yield value
    elif isinstance(value, list):
        yield len(value)
        for item in value[:50]:
            yield from numbers_in(item, depth + 1)
    elif isinstance(value, dict):
        ints = [
            item for item in value.values() if isinstance(item, int) and not isinstance(item, bool)
        ]
        for index, first in enumerate(ints):
            for second in ints[index + 1 :]:
                yield first + second
        for item in value.values():
            yield from numbers_in(item, depth + 1)


_COUNTED = re.compile(rf"({NUMBER}) ([a-z]+)")


def counts_by_unit(text: str) -> dict[str, set[int]]:
    """``(383 lines)`` -> ``{"line": {383}}``: every number followed by a word, by the word's
    singular (plain "s" plurals)."""
    found: dict[str, set[int]] = {}
    for match in _COUNTED.finditer(text):
        unit = match.group(2)
        unit = unit[:-1] if unit.endswith("s") and len(unit) > 3 else unit
        found.setdefault(unit, set()).add(to_int(match.group(1)))
    return found
