"""Arguments as they stream: an incremental JSON parse of the text so far."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pydantic_core import from_json


def parse_partial_args(raw: str) -> dict[str, Any] | None:
    """The object the model has written so far, or ``None`` if nothing usable yet.

    Uses pydantic_core's partial parser: unfinished strings are kept as far as they go,
    unfinished numbers, literals and keys are left out.
    """
    if not raw.strip():
        return None
    try:
        value = from_json(raw, allow_partial="trailing-strings")
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def parse_complete_args(raw: str) -> tuple[dict[str, Any] | None, str | None]:
    """Parse finished argument text; returns ``(args, error)``, exactly one of them set."""
    if not raw.strip():
        return {}, None
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as error:
        return (
            None,
            f"arguments are not valid JSON: {error.msg} at line {error.lineno} "
            f"column {error.colno}",
        )
    if not isinstance(value, dict):
        return None, f"arguments must be a JSON object, got {type(value).__name__}"
    return value, None


def streaming_prefix(args: dict[str, Any]) -> str:
    """The shortest prefix of ``args``' JSON whose partial parse yields ``args``.

    Used to turn a fixture's ``partial_args`` into the text a model would have streamed so
    far: closing quotes and brackets are dropped while the parse stays the same.
    """
    text = json.dumps(args, ensure_ascii=False)
    while text and text[-1] in '}]"' and parse_partial_args(text[:-1]) == args:
        text = text[:-1]
    return text


@dataclass(frozen=True)
class ArgsStreaming:
    """How a call's arguments are cut into ``ArgsDelta`` pieces (see :func:`stream_chunks`)."""

    min_chars: int
    max_chunks: int

    def chunks(self, text: str) -> list[str]:
        return stream_chunks(text, min_chars=self.min_chars, max_chunks=self.max_chunks)


REPLAY_ARGS_STREAMING = ArgsStreaming(min_chars=12, max_chunks=24)
"""Fixture replay: short pieces on a 30 ms clock, so the streaming phase has steps to show;
every replay, snapshot and audit finding is taken at these steps, so they stay as they are."""
LIVE_ARGS_STREAMING = ArgsStreaming(min_chars=16, max_chunks=40)
"""Live calls: the whole arguments are known before the call starts, and each piece delays the
real call (10 ms each in the TUI), so pieces are longer; never more than 40 of them."""


def stream_chunks(text: str, *, min_chars: int, max_chunks: int) -> list[str]:
    """``text`` cut into at most ``max_chunks`` pieces of at least ``min_chars`` characters.

    Every delta re-parses the text so far, so long arguments must stream in a bounded number
    of pieces or the parse work grows with the square of their length.
    """
    size = max(min_chars, -(-len(text) // max_chunks))
    return [text[index : index + size] for index in range(0, len(text), size)]
