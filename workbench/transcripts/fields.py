"""Small readers of the field shapes the transcript formats share: times, text blocks, args."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

_TRUNCATION = re.compile(
    r"\[\s*\d+\s+(?:lines?|characters?|chars|bytes|tokens)\s+truncated\s*\]"
    r"|\btruncated\b.{0,40}\b(?:lines?|characters|chars|bytes|tokens|output)\b"
    r"|\boutput (?:was )?(?:too large|truncated)"
    r"|\[\.\.\.\s*omitted\s+\d+"
    r"|\bTotal output lines:\s*\d+",
    re.IGNORECASE,
)
"""How agents say they cut a result before the model read it (Claude Code's
``[N lines truncated]`` and "Output too large", Codex's ``[... omitted N of M lines ...]`` and
``Total output lines:``, gemini-cli's "truncated")."""


_TRUNCATION_WORDS = ("truncated", "omitted", "too large", "total output lines")
"""One of these is in every text :data:`_TRUNCATION` matches: a cheap test that skips the
regex on most outputs."""


def says_truncated(text: str | None) -> bool:
    """Whether the agent says, in the text the model read, that it cut the output."""
    if not text:
        return False
    lowered = text.lower()
    if not any(word in lowered for word in _TRUNCATION_WORDS):
        return False
    return _TRUNCATION.search(text) is not None


def timestamp(value: Any) -> datetime | None:
    """An ISO 8601 time (``...Z`` too), seconds or milliseconds since the epoch, or nothing."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        seconds = value / 1000 if value > 1e11 else value
        try:
            return datetime.fromtimestamp(seconds, tz=UTC)
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(value, str) and value:
        try:
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
        return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)
    return None


def nanos(value: Any) -> datetime | None:
    """An OTLP ``...UnixNano`` time (a number or a decimal string)."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return timestamp(number / 1e9) if number > 0 else None


def text_of(content: Any) -> str:
    """The text of a content value: a string, or a list of text blocks (other blocks named)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        content = [content]
    if not isinstance(content, list):
        return json.dumps(content, ensure_ascii=False)
    parts: list[str] = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict):
            text = block.get("text")
            if isinstance(text, str):
                parts.append(text)
            elif isinstance(block.get("type"), str):
                parts.append(f"[{block['type']}]")
    return "\n".join(parts)


def arguments(value: Any) -> tuple[dict[str, Any], str | None]:
    """Call arguments as an object: a JSON string is parsed; anything else is wrapped.

    Returns the args and, when they were not a JSON object, what was wrong with them.
    """
    if isinstance(value, dict):
        return value, None
    if value is None or value == "":
        return {}, None
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except ValueError:
            return {"input": value}, None  # A freeform (custom) tool's input is text.
        if isinstance(parsed, dict):
            return parsed, None
        return {"input": parsed}, "the arguments are JSON but not an object"
    return {"input": value}, "the arguments are not an object"


def items(value: Any) -> list[Any]:
    """``value`` if it is a list, else nothing: a misshapen record is read as far as it goes."""
    return value if isinstance(value, list) else []


def string(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def first_line(text: str, limit: int = 80) -> str:
    """The first non-blank line of ``text``, cut to ``limit`` characters."""
    for line in text.splitlines():
        line = " ".join(line.split())
        if line:
            return line if len(line) <= limit else line[: limit - 1] + "…"
    return ""
