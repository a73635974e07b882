"""One size policy for everything a source sends.

Every byte a tool or a server sends is counted after decompression against one of these caps;
the read stops at the cap, and the result names the cap and how to raise it. The caps are set
in ``[tool.workbench.limits]`` of pyproject.toml and, for one MCP server, in its ``"limits"``
object in mcp.json:

```toml
[tool.workbench.limits]
max_message_bytes = "16MiB"   # one MCP message: a stdio line, an HTTP body, an SSE event
max_body_bytes = "5MiB"       # one HTTP answer: an HTTP tool, a web page, a search
max_json_depth = 100          # nesting of one JSON message
max_stderr_bytes = "64KiB"    # the tail of a server's stderr kept for its errors
```
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB

_UNITS = {
    "": 1,
    "b": 1,
    "k": 1000,
    "kb": 1000,
    "kib": KIB,
    "m": 1000**2,
    "mb": 1000**2,
    "mib": MIB,
    "g": 1000**3,
    "gb": 1000**3,
    "gib": GIB,
}
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Cap:
    """What one cap bounds, its unit and the range a config may set it to."""

    what: str
    minimum: int
    maximum: int
    is_bytes: bool = True


CAPS: dict[str, Cap] = {
    "max_message_bytes": Cap(
        "one MCP message (a stdio line, an HTTP body, an SSE event)", KIB, GIB
    ),
    "max_body_bytes": Cap("one HTTP answer (an HTTP tool, a web page, a search)", KIB, GIB),
    "max_json_depth": Cap("the nesting depth of one JSON message", 8, 900, is_bytes=False),
    "max_stderr_bytes": Cap("the tail of a server's stderr kept for its errors", KIB, 64 * MIB),
}


class LimitsError(ValueError):
    """A limits setting that is not a size in range; the message names the key."""


_SIZE_UNITS = ((GIB, "GiB", "GB"), (MIB, "MiB", "MB"), (KIB, "KiB", "KB"))
"""Each binary unit with its exact label and the label a rounded size has always shown."""


def format_size(value: int, *, rounded: bool = False) -> str:
    """A byte count for people, on base 1024: the one size formatter.

    Exact (the default) for caps and limits, in the words a setting is written in:
    ``16777216`` -> ``16 MiB``, and ``1500`` -> ``1,500 bytes`` when no unit divides it.
    ``rounded`` for sizes a surface shows: ``512 B``, ``1.5 KB``, ``3.2 MB`` (one decimal;
    "KB" on base 1024 is what tool surfaces and their snapshots have always said).
    """
    for size, exact_unit, rounded_unit in _SIZE_UNITS:
        if value < size:
            continue
        if rounded:
            return f"{value / size:.1f} {rounded_unit}"
        if value % size == 0:
            return f"{value // size} {exact_unit}"
    return f"{value:.0f} B" if rounded else f"{value:,} bytes"


def parse_size(value: object, key: str) -> int:
    """An int of bytes, or text such as ``"16MiB"``, ``"512 KiB"``, ``"2GB"``."""
    if isinstance(value, bool):
        raise LimitsError(f"{key} must be a size such as 16MiB or a number of bytes")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        match = _SIZE.match(value)
        unit = match.group(2).lower() if match else ""
        if match and unit in _UNITS:
            return int(float(match.group(1)) * _UNITS[unit])
    raise LimitsError(f"{key} must be a size such as 16MiB or a number of bytes, not {value!r}")


@dataclass(frozen=True, slots=True)
class Limits:
    """The caps for one source; :meth:`overridden` layers a server's own settings on top."""

    max_message_bytes: int = 16 * MIB
    max_body_bytes: int = 5 * MIB
    max_json_depth: int = 100
    max_stderr_bytes: int = 64 * KIB

    def overridden(self, settings: Mapping[str, Any] | None, *, where: str) -> Limits:
        """These limits with ``settings`` (a config mapping) applied; ``where`` names it."""
        if not settings:
            return self
        if not isinstance(settings, Mapping):
            raise LimitsError(f"{where} must be a table of limits ({', '.join(CAPS)})")
        changes: dict[str, int] = {}
        for key, value in settings.items():
            cap = CAPS.get(str(key))
            if cap is None:
                raise LimitsError(f"{where}: unknown limit {key!r} (known: {', '.join(CAPS)})")
            name = f"{where}.{key}"
            if cap.is_bytes:
                number = parse_size(value, name)
            elif isinstance(value, int) and not isinstance(value, bool):
                number = value
            else:
                raise LimitsError(f"{name} must be a whole number, not {value!r}")
            if not cap.minimum <= number <= cap.maximum:
                low, high = (
                    (format_size(cap.minimum), format_size(cap.maximum))
                    if cap.is_bytes
                    else (str(cap.minimum), str(cap.maximum))
                )
                raise LimitsError(f"{name} must be between {low} and {high}, not {value!r}")
            changes[str(key)] = number
        return replace(self, **changes)

    def as_dict(self) -> dict[str, int]:
        return {item.name: getattr(self, item.name) for item in fields(self)}


def raise_hint(cap: str, limit: int, *, per_server: bool = False) -> str:
    """How to raise ``cap``: where it is set, with a value that would double it."""
    doubled = format_size(limit * 2)
    suggestion = (
        f'"{doubled.replace(" ", "")}"'
        if CAPS[cap].is_bytes and not doubled.endswith("bytes")
        else str(limit * 2)
    )
    hint = f"raise it with {cap} = {suggestion} under [tool.workbench.limits] in pyproject.toml"
    return hint + (', or in this server\'s "limits" in mcp.json' if per_server else "")


class LimitExceeded(Exception):
    """Something a source sent passed a cap; the message names the cap and how to raise it."""

    def __init__(
        self,
        cap: str,
        limit: int,
        *,
        seen: int | None = None,
        what: str = "",
        per_server: bool = False,
    ) -> None:
        self.cap = cap
        self.limit = limit
        self.seen = seen
        self.what = what or CAPS[cap].what
        hint = raise_hint(cap, limit, per_server=per_server)
        if CAPS[cap].is_bytes:
            text = (
                f"{self.what} exceeded {cap} = {format_size(limit)} (counted after "
                "decompression); the read stopped there"
            )
        else:
            text = f"{self.what} is nested deeper than {cap} = {limit}"
        super().__init__(f"{text}. {hint[0].upper()}{hint[1:]}.")

    def to_body(self) -> dict[str, Any]:
        """What a result's ``error.body`` carries, for a UI or a script to branch on."""
        body: dict[str, Any] = {"cap": self.cap, "limit": self.limit}
        if self.seen is not None:
            body["seen"] = self.seen
        return body


def nesting_exceeds(value: Any, limit: int) -> bool:
    """Whether ``value`` (parsed JSON) nests objects and arrays more than ``limit`` deep.

    Iterative, so a value deep enough to break a recursive walker is still measured; it
    stops at the first branch past the limit.
    """
    if not isinstance(value, (dict, list)):
        return False
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False
