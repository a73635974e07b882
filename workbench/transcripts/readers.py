"""The transcript formats by name, the ``--format auto`` sniffer, and :func:`read_transcript`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import chain, islice
from pathlib import Path
from typing import Any

from workbench.transcripts import (
    acp,
    anthropic,
    claude_code,
    codex,
    gemini,
    openai_chat,
    openai_responses,
    otel,
)
from workbench.transcripts.locating import LocatedDocument
from workbench.transcripts.model import Entry, TranscriptProblem
from workbench.transcripts.reading import Reader
from workbench.transcripts.records import (
    Record,
    is_json_document,
    items_of,
    jsonl_records,
    load_document,
)

READERS: dict[str, Reader] = {
    "claude-code": claude_code.read,
    "codex": codex.read,
    "gemini": gemini.read,
    "acp": acp.read,
    "openai-chat": openai_chat.read,
    "openai-responses": openai_responses.read,
    "anthropic": anthropic.read,
    "otel": otel.read,
}
"""Each reader turns a stream of records into entries (see :mod:`workbench.transcripts`)."""

FORMATS = tuple(READERS)

_SNIFFERS: tuple[tuple[str, Callable[[dict[str, Any]], bool]], ...] = (
    ("otel", otel.looks_like),
    ("acp", acp.looks_like),
    ("codex", codex.looks_like),
    ("claude-code", claude_code.looks_like),
    ("gemini", gemini.looks_like),
    ("openai-responses", openai_responses.looks_like),
    ("anthropic", anthropic.looks_like),
    ("openai-chat", openai_chat.looks_like),
)
SNIFF_RECORDS = 50
"""How many records ``auto`` looks at before it gives up."""


class UnknownFormat(Exception):
    """``--format auto`` recognised none of the formats in the file's first records."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.reason = (
            f"not a transcript format Workbench reads (none of {', '.join(FORMATS)} in its "
            f"first {SNIFF_RECORDS} records); name one with --format"
        )
        super().__init__(f"{file}: {self.reason}")


CONTAINER_KEYS = ("messages", "input", "output", "items", "data")
"""Where a document (a gemini-cli recording, a request or response body) keeps its records."""


def _is_container(data: dict[str, Any]) -> bool:
    """A document holding records, not a record: no ``type``, ``role`` or JSON-RPC of its own."""
    return not any(key in data for key in ("type", "role", "jsonrpc", "resourceSpans")) and any(
        isinstance(data.get(key), list) for key in CONTAINER_KEYS
    )


def _document_records(
    document: Any, file: str, line: int | None = None, located: LocatedDocument | None = None
) -> Iterator[Record | TranscriptProblem]:
    """The records of a JSON document: the items of its list of messages, items or spans."""
    if located is not None:
        line = located.line_of(document) or line
    if isinstance(document, list):
        yield from items_of(document, file, "", line, located)
        return
    if not isinstance(document, dict):
        yield TranscriptProblem(file, line, "document", "neither an object nor a list")
        return
    if _is_container(document):
        key = next(key for key in CONTAINER_KEYS if isinstance(document.get(key), list))
        yield from items_of(document[key], file, key, line, located)
        return
    yield Record(line, document, "", located)


def records_of(
    path: Path, file: str, on_bytes: Callable[[int], None] | None = None, *, locate: bool = True
) -> Iterator[Record | TranscriptProblem]:
    """The records of the file at ``path``: its lines, or its document's items (``locate``:
    each with the line it starts on)."""
    if is_json_document(path):
        document = load_document(path, file, locate=locate)
        if on_bytes is not None:
            on_bytes(path.stat().st_size)
        if isinstance(document, TranscriptProblem):
            yield document
            return
        yield from _document_records(document.root, file, 1, document)
        return
    with path.open("rb") as stream:
        for record in jsonl_records(stream, file, on_bytes):
            if isinstance(record, Record) and _is_container(record.data):
                # A document on one line (a minified recording, a request body per line).
                yield from _document_records(record.data, file, record.line)
            else:
                yield record


def sniff(records: Iterable[Record | TranscriptProblem]) -> str | None:
    """The format of the first records that any format recognises, or ``None``."""
    weak: str | None = None
    for record in islice(records, SNIFF_RECORDS):
        if isinstance(record, TranscriptProblem):
            continue
        for name, looks_like in _SNIFFERS:
            if looks_like(record.data):
                return name
        if weak is None and openai_chat.looks_like_message(record.data):
            weak = "openai-chat"
    # Plain {role, content: "..."} messages are in every message format: only when nothing
    # more telling came up are they taken for Chat Completions.
    return weak


def detect_format(path: Path, file: str | None = None) -> str:
    """The format of the transcript at ``path`` (:class:`UnknownFormat` when none fits)."""
    # Only a look at the first records: a document's lines are not needed for it.
    found = sniff(records_of(path, file or str(path), locate=False))
    if found is None:
        raise UnknownFormat(str(file or path))
    return found


def read_transcript(
    path: Path,
    format: str = "auto",
    *,
    file: str | None = None,
    on_bytes: Callable[[int], None] | None = None,
) -> Iterator[Entry]:
    """The entries of the transcript at ``path``, lazily, in the order the session settles them.

    ``format`` is a name of :data:`READERS` or ``auto`` (:class:`UnknownFormat` when none
    fits); ``file`` is how problems name the file; ``on_bytes`` hears the bytes read.
    """
    name = str(file or path)
    chosen = detect_format(path, name) if format == "auto" else format
    reader = READERS[chosen]
    return reader(records_of(path, name, on_bytes), name)


def read_records(
    records: Iterable[Record | TranscriptProblem], format: str, file: str
) -> Iterator[Entry]:
    """Entries of records already in hand (a test's, or a stream's)."""
    records = iter(records)
    if format == "auto":
        head = list(islice(records, SNIFF_RECORDS))
        found = sniff(head)
        if found is None:
            raise UnknownFormat(file)
        format = found
        records = chain(head, records)
    return READERS[format](records, file)
