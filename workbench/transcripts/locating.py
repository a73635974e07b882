"""A JSON document decoded with the line where each of its upper objects and items starts.

``json.loads`` gives values without positions, so a problem inside a gemini-cli recording, a
request body or an OTLP export could only be named by its path. :func:`decode_located` decodes
the document with ``json.loads`` (C speed, and its own errors), then scans the text once for
where the upper levels start (lists, and the objects that are their items, down to
:data:`DEPTH` levels), pairing each with its decoded value, so those problems read
``FILE:LINE: record: what is wrong`` like a JSON Lines file's. The scan steps over the plain
members of the objects it walks with regular expressions and over deeper values with the C
scanner (faster than a pattern past a long string's escapes); it decodes nothing in Python.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from json.scanner import make_scanner
from typing import Any, cast

DEPTH = 6
"""How many levels down lines are noted: an OTLP span is the deepest record read
(``resourceSpans[i].scopeSpans[j].spans[k]``, six levels); what is inside it is passed over."""

# The scan runs on text json.loads has accepted, so its patterns need not reject bad JSON; the
# possessive quantifiers keep them from backtracking.
_BLANKS = r"[ \t\n\r]"
_STRING = r'"[^"\\]*+(?:\\.[^"\\]*+)*+"'
_SCALAR = rf'(?:{_STRING}|[^ \t\n\r,\]}}"\[{{]++)'
_OBJECT_STEP = re.compile(
    rf"[ \t\n\r,]*+(?:{_STRING}{_BLANKS}*+:{_BLANKS}*+{_SCALAR}[ \t\n\r,]*+)*+"
    rf"(?:({_STRING}){_BLANKS}*+:{_BLANKS}*+[\[{{]|}})"
).match
"""Past an object's members with plain values: at the bracket opening the next member's value
(group 1: its key), or past the closing brace."""
_ARRAY_STEP = re.compile(rf"[ \t\n\r,]*+(?:({_SCALAR})|([\[{{])|(\]))").match
"""To a list's next item: a plain value (group 1), a bracket opening one (2), or the end (3)."""
_START = re.compile(rf"{_BLANKS}*+").match

# The json module's own C string scanner (typeshed leaves it out).
_scanstring = cast(Callable[[str, int], tuple[str, int]], json.decoder.scanstring)  # type: ignore[attr-defined]
_Scanner = Callable[[str, int], tuple[Any, int]]


class LocatedDocument:
    """A decoded document and the lines where its upper objects and list items start.

    Lines are kept by the identity of the decoded objects; the document is held here so those
    stay alive (and their identities unique) as long as this is.
    """

    def __init__(self, root: Any = None) -> None:
        self.root: Any = root
        self._objects: dict[int, int] = {}
        self._items: dict[int, list[int]] = {}

    def line_of(self, value: Any) -> int | None:
        """The line where ``value`` (an object of the document's upper levels) starts."""
        return self._objects.get(id(value))

    def item_lines(self, values: Any) -> list[int] | None:
        """The line where each item of ``values`` (a list of the upper levels) starts."""
        return self._items.get(id(values))


class _Scan:
    """One pass over the text beside its decoded value, in the text's order, so lines are
    counted forward only and the pass is linear."""

    def __init__(self, text: str, located: LocatedDocument) -> None:
        self.text = text
        self.objects = located._objects
        self.items = located._items
        self.scan = cast(_Scanner, make_scanner(json.JSONDecoder()))  # type: ignore[arg-type]
        self.line = 1
        self.counted = 0

    def line_at(self, position: int) -> int:
        self.line += self.text.count("\n", self.counted, position)
        self.counted = position
        return self.line

    def value(self, value: Any, position: int, depth: int) -> int:
        """Past the list item (or document) that opens with a bracket at ``position``."""
        opening = self.text[position]
        if depth <= DEPTH and opening == "{" and isinstance(value, dict):
            return self.object(value, position, depth)
        if depth <= DEPTH and opening == "[" and isinstance(value, list):
            return self.array(value, position, depth)
        # Deeper than lines are noted, or a duplicated key's earlier value (json.loads kept
        # the last; the scan notes its lines when it reaches it). The C scanner decodes a
        # value faster than a pattern finds its end past its strings' escapes.
        return self.scan(self.text, position)[1]

    def object(self, found: dict[str, Any], position: int, depth: int) -> int:
        text = self.text
        self.objects[id(found)] = self.line_at(position)
        position += 1
        while True:
            step = _OBJECT_STEP(text, position)
            assert step is not None  # the text is JSON: an object has members, then a brace
            opening = step.end() - 1
            if step.lastindex is None:
                return opening + 1
            # Only a list is walked below an object: an object that is a key's value (a
            # call's arguments) is no record, so it is passed over whole.
            value = None
            if depth < DEPTH and text[opening] == "[":
                value = found.get(_scanstring(text, step.start(1) + 1)[0])
            if isinstance(value, list):
                position = self.array(value, opening, depth + 1)
            else:
                position = self.scan(text, opening)[1]

    def array(self, found: list[Any], position: int, depth: int) -> int:
        text = self.text
        lines: list[int] = []
        position += 1
        while True:
            step = _ARRAY_STEP(text, position)
            # The text is JSON: a list has items, then a bracket (one group always matches).
            assert step is not None and step.lastindex is not None
            kind = step.lastindex
            if kind == 3:
                self.items[id(found)] = lines
                return step.end()
            start = step.start(kind)
            self.line += text.count("\n", self.counted, start)
            self.counted = start
            lines.append(self.line)
            if kind == 1:
                position = step.end()
            else:
                index = len(lines) - 1
                position = self.value(
                    found[index] if index < len(found) else None, start, depth + 1
                )


def decode_located(text: str) -> LocatedDocument:
    """The document ``text`` holds, located (:class:`json.JSONDecodeError` when it is no JSON)."""
    located = LocatedDocument(json.loads(text))
    start = _START(text, 0).end()  # type: ignore[union-attr]  # a * pattern always matches
    if text[start : start + 1] in ("{", "["):
        _Scan(text, located).value(located.root, start, 0)
    return located
