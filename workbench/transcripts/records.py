"""The records of a transcript file, one at a time, and the problems of those that do not parse.

A JSON Lines file is read a line at a time (memory bounded by the longest line); a file that is
one JSON document (a gemini-cli recording, a saved request body, an OTLP export) is parsed
whole, with the line where each of its records starts, and its records are the items of its
list. A line that is not JSON, or not an object, is
a :class:`~workbench.transcripts.model.TranscriptProblem` that names the line, never quotes it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from workbench.transcripts.locating import LocatedDocument, decode_located
from workbench.transcripts.model import TranscriptProblem

MAX_LINE_BYTES = 64 * 1024 * 1024
"""A line longer than this is reported and skipped, not parsed (a session line is kilobytes)."""


@dataclass(frozen=True, slots=True)
class Record:
    """One JSON object of a transcript and where it is (its line, or its place in a document)."""

    line: int | None
    data: dict[str, Any]
    where: str = ""
    """For a record inside a document on one line: its path there (``messages[3]``)."""
    located: LocatedDocument | None = None
    """For a record of a document spread over lines: where the document's objects start."""

    def line_of(self, part: Any) -> int | None:
        """The line where ``part`` (an object inside this record) starts, else the record's."""
        found = self.located.line_of(part) if self.located is not None else None
        return self.line if found is None else found


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


def load_document(
    path: Path, file: str, *, locate: bool = True
) -> LocatedDocument | TranscriptProblem:
    """The whole file as one JSON value, or the problem that stops it parsing; ``locate``:
    with its lines (a look at the format needs none, and ``json.loads`` is faster)."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
        if not locate:
            return LocatedDocument(json.loads(text))
        return decode_located(text)
    except UnicodeDecodeError:
        return TranscriptProblem(file, None, "document", "not UTF-8 text")
    except json.JSONDecodeError as error:
        return TranscriptProblem(file, error.lineno, "document", f"not JSON ({error.msg.lower()})")
    except RecursionError:
        return TranscriptProblem(file, None, "document", "nested too deep to read")


def items_of(
    values: Any,
    file: str,
    where: str,
    line: int | None = None,
    located: LocatedDocument | None = None,
) -> Iterator[Record | TranscriptProblem]:
    """The objects of a JSON list at ``where`` as records; an item that is no object, a problem.

    In a located document each item is named by the line it starts on; on one line (``line``),
    by its path there.
    """
    if not isinstance(values, list):
        yield TranscriptProblem(file, line, where or "document", "not a list")
        return
    lines = located.item_lines(values) if located is not None else None
    for index, item in enumerate(values):
        at = line if lines is None else lines[index]
        place = f"{where}[{index}]" if lines is None else ""
        if isinstance(item, dict):
            yield Record(at, item, place, located)
        else:
            kind = f"a JSON {_json_kind(item)}, not an object"
            yield TranscriptProblem(file, at, place or f"{where or 'document'} item", kind)
