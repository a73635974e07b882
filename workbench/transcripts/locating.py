"""A JSON document decoded with the line where each of its upper objects and items starts.

``json.loads`` gives values without positions, so a problem inside a gemini-cli recording, a
request body or an OTLP export could only be named by its path. :func:`decode_located` walks
the document's upper levels itself (lists, and the objects that are their items, down to
:data:`DEPTH` levels), decodes every other value with the C scanner, and notes where each
walked object and each list item starts, so those problems read ``FILE:LINE: record: what is
wrong`` like a JSON Lines file's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from json.decoder import JSONDecodeError
from json.scanner import make_scanner
from typing import Any, cast

DEPTH = 6
"""How many levels down lines are noted: an OTLP span is the deepest record read
(``resourceSpans[i].scopeSpans[j].spans[k]``, six levels); what is inside it is decoded whole."""

# A ``*`` pattern matches everywhere (maybe nothing): its match is never ``None``.
_BLANK = cast(Callable[[str, int], "re.Match[str]"], re.compile(r"[ \t\n\r]*").match)
_BLANKS = frozenset(" \t\n\r")

# The json module's own C string and value scanners (typeshed leaves them out or mistypes them).
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


class _Walk:
    """One pass over the text; lines are counted forward only, so the walk is linear."""

    def __init__(self, text: str, located: LocatedDocument) -> None:
        self.text = text
        self.located = located
        self.scan = cast(_Scanner, make_scanner(json.JSONDecoder()))  # type: ignore[arg-type]
        self.line = 1
        self.counted = 0

    def line_at(self, position: int) -> int:
        self.line += self.text.count("\n", self.counted, position)
        self.counted = position
        return self.line

    def skip(self, position: int) -> int:
        return _BLANK(self.text, position).end()

    def expect(self, position: int, what: str) -> None:
        raise JSONDecodeError(f"Expecting {what}", self.text, position)

    def value(self, position: int, depth: int, *, item: bool = True) -> tuple[Any, int]:
        """The value at ``position``; ``item``: it is a list's item (or the document), the
        only place a record is (an object that is a key's value, such as a call's arguments,
        is decoded in one piece)."""
        opening = self.text[position : position + 1]
        if depth <= DEPTH and opening == "{" and item:
            return self.object(position, depth)
        if depth <= DEPTH and opening == "[":
            return self.array(position, depth)
        try:
            found: tuple[Any, int] = self.scan(self.text, position)
        except StopIteration as stop:
            raise JSONDecodeError("Expecting value", self.text, stop.value) from None
        return found

    def next_item(self, position: int, closing: str) -> tuple[int, bool]:
        """Past an item of an object or list: at its ``closing`` bracket (``True``), or past
        the comma, at the next item."""
        text = self.text
        if text[position : position + 1] in _BLANKS:
            position = _BLANK(text, position).end()
        separator = text[position : position + 1]
        if separator == closing:
            return position + 1, True
        if separator != ",":
            self.expect(position, "',' delimiter")
        position += 1
        if text[position : position + 1] in _BLANKS:
            position = _BLANK(text, position).end()
        return position, False

    def object(self, position: int, depth: int) -> tuple[dict[str, Any], int]:
        # The hot loop of the walk: whitespace is skipped inline, only where there is some.
        text = self.text
        line = self.line_at(position)
        found: dict[str, Any] = {}
        position = _BLANK(text, position + 1).end()
        done = text[position : position + 1] == "}"
        position += done
        while not done:
            if text[position : position + 1] != '"':
                self.expect(position, "property name enclosed in double quotes")
            key, position = _scanstring(text, position + 1)
            if text[position : position + 1] != ":":
                position = _BLANK(text, position).end()
                if text[position : position + 1] != ":":
                    self.expect(position, "':' delimiter")
            position += 1
            if text[position : position + 1] in _BLANKS:
                position = _BLANK(text, position).end()
            if depth < DEPTH and text[position : position + 1] == "[":
                found[key], position = self.array(position, depth + 1)
            else:
                try:
                    found[key], position = self.scan(text, position)
                except StopIteration as stop:
                    raise JSONDecodeError("Expecting value", text, stop.value) from None
            position, done = self.next_item(position, "}")
        self.located._objects[id(found)] = line
        return found, position

    def array(self, position: int, depth: int) -> tuple[list[Any], int]:
        found: list[Any] = []
        lines: list[int] = []
        position = self.skip(position + 1)
        done = self.text[position : position + 1] == "]"
        position += done
        while not done:
            lines.append(self.line_at(position))
            item, position = self.value(position, depth + 1)
            found.append(item)
            position, done = self.next_item(position, "]")
        self.located._items[id(found)] = lines
        return found, position


def decode_located(text: str) -> LocatedDocument:
    """The document ``text`` holds, located (:class:`json.JSONDecodeError` when it is no JSON)."""
    located = LocatedDocument()
    walk = _Walk(text, located)
    located.root, end = walk.value(walk.skip(0), 0)
    end = walk.skip(end)
    if end != len(text):
        raise JSONDecodeError("Extra data", text, end)
    return located
