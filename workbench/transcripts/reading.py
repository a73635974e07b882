"""What every format's reader does alike, so each reader says only what its format is.

A reader decorated with :func:`record_reader` sees only records: problems already found in
the stream (a line that is no JSON) pass through where they stood, and the calls still
waiting for their result when the records end come last, as ``unfinished``. :class:`Reading`
holds a pass's state: the file problems name, those waiting calls, and the user's last words
(the prompt a call answers).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from functools import wraps

from workbench.transcripts.fields import says_truncated
from workbench.transcripts.model import Entry, Message, MessageRole, ToolCall, TranscriptProblem
from workbench.transcripts.records import Record

Reader = Callable[[Iterable[Record | TranscriptProblem], str], Iterator[Entry]]
RecordReader = Callable[[Iterable[Record], "Reading"], Iterator[Entry]]


class Reading:
    """One reader's pass over one file."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.pending: dict[str, ToolCall] = {}
        """Calls started and not yet answered, by id."""
        self.prompt: str | None = None
        """What the user last said: the prompt of the calls that start after it."""

    def problem(
        self, record: Record, place: str, message: str, part: object = None
    ) -> TranscriptProblem:
        """A problem with ``record`` of this file: ``place`` is the kind of record it was.

        ``part`` is the object inside the record that is wrong (a content block, a call): in a
        document spread over lines, the problem names the line where it starts.
        """
        line = record.line if part is None else record.line_of(part)
        return TranscriptProblem(self.file, line, place, message)

    def said(
        self, role: MessageRole, text: str, line: int, when: datetime | None = None
    ) -> Message:
        """A message; the user's words become the prompt of the calls after them."""
        if role == "user":
            self.prompt = text
        return Message(role, text, line, when)

    def start(self, call: ToolCall) -> None:
        self.pending[call.id] = call

    def answered(self, call_id: object) -> ToolCall | None:
        """The waiting call ``call_id`` names, no longer waiting; ``None`` when none is."""
        return self.pending.pop(str(call_id), None)


def ended(call: ToolCall, text: str, error: str | None = None) -> None:
    """End ``call`` with the text the model read: ``done``, or ``failed`` with ``error``."""
    call.content = text
    call.truncated = says_truncated(text)
    call.outcome = "done" if error is None else "failed"
    call.error = error


def record_reader(read: RecordReader) -> Reader:
    """A format's reader over the whole stream, from one that reads only its records."""

    @wraps(read)
    def reader(records: Iterable[Record | TranscriptProblem], file: str) -> Iterator[Entry]:
        # A problem is held until the reader next yields, so it keeps its place: the reader
        # has pulled it (and every record before it) by then, and nothing after it.
        held: deque[TranscriptProblem] = deque()

        def only_records() -> Iterator[Record]:
            for record in records:
                if isinstance(record, TranscriptProblem):
                    held.append(record)
                else:
                    yield record

        reading = Reading(file)
        for entry in read(only_records(), reading):
            while held:
                yield held.popleft()
            yield entry
        yield from held
        yield from reading.pending.values()

    return reader
