"""The records of a transcript file, one at a time, and the problems of those that do not parse.

A JSON Lines file is read a line at a time (memory bounded by the longest line); a file that is
one JSON document (a gemini-cli recording, a saved request body, an OTLP export) is parsed
whole and its records are the items of its list. A line that is not JSON, or not an object, is
a :class:`~workbench.transcripts.model.TranscriptProblem` that names the line, never quotes it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from workbench.transcripts.model import TranscriptProblem

MAX_LINE_BYTES = 64 * 1024 * 1024
"""A line longer than this is reported and skipped, not parsed (a session line is kilobytes)."""


@dataclass(frozen=True, slots=True)
class Record:
    """One JSON object of a transcript and where it is (its line, or its place in a document)."""

    line: int | None
    data: dict[str, Any]
    where: str = ""
    """For a record inside a JSON document: its path there (``messages[3]``)."""


def _readline(stream: IO[bytes]) -> bytes:
    return stream.readline(MAX_LINE_BYTES + 1)


def jsonl_records(
    stream: IO[bytes], file: str, on_bytes: Callable[[int], None] | None = None
) -> Iterator[Record | TranscriptProblem]:
    """The objects of a JSON Lines stream, in order; a bad line becomes a problem.

    ``on_bytes`` hears how many bytes each line took (a progress bar's feed).
    """
    number = 0
    while True:
        raw = _readline(stream)
        if not raw:
            return
        if on_bytes is not None:
            on_bytes(len(raw))
        number += 1
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            # Skip the rest of the line without holding it.
            while (rest := _readline(stream)) and not rest.endswith(b"\n"):
                pass
            yield TranscriptProblem(file, number, "line", f"longer than {MAX_LINE_BYTES} bytes")
            continue
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except UnicodeDecodeError:
            yield TranscriptProblem(file, number, "line", "not UTF-8 text")
            continue
        except ValueError as error:
            message = error.msg if isinstance(error, json.JSONDecodeError) else "not JSON"
            yield TranscriptProblem(file, number, "line", f"not JSON ({message.lower()})")
            continue
        if not isinstance(data, dict):
            yield TranscriptProblem(
                file, number, "line", f"a JSON {_json_kind(data)}, not an object"
            )
            continue
        yield Record(number, data)


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    return "number"


def is_json_document(path: Path) -> bool:
    """Whether the file is one JSON document (spread over lines, or an array), not JSON Lines."""
    with path.open("rb") as stream:
        first = _readline(stream)
        while first and not first.strip():
            first = _readline(stream)
        if first.lstrip().startswith(b"["):
            return True
        try:
            json.loads(first)
        except ValueError:
            return bool(first.lstrip().startswith(b"{"))
        # One object per line, or a single-line document: either way its lines are records.
        return False


def load_document(path: Path, file: str) -> Any | TranscriptProblem:
    """The whole file as one JSON value, or the problem that stops it parsing."""
    try:
        return json.loads(path.read_bytes())
    except UnicodeDecodeError:
        return TranscriptProblem(file, None, "document", "not UTF-8 text")
    except json.JSONDecodeError as error:
        return TranscriptProblem(file, error.lineno, "document", f"not JSON ({error.msg.lower()})")


def items_of(
    values: Any, file: str, where: str, line: int | None = None
) -> Iterator[Record | TranscriptProblem]:
    """The objects of a JSON list at ``where`` as records; an item that is no object, a problem."""
    if not isinstance(values, list):
        yield TranscriptProblem(file, line, where, "not a list")
        return
    for index, item in enumerate(values):
        place = f"{where}[{index}]"
        if isinstance(item, dict):
            yield Record(line, item, place)
        else:
            yield TranscriptProblem(file, line, place, f"a JSON {_json_kind(item)}, not an object")
