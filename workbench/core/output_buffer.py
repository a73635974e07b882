"""An immutable view of a call's output that appends in amortised O(1).

The reducer is pure, so each state holds its own view of the output. Copying a list of
100,000 lines on every chunk would be quadratic; instead views share one append-only store and
remember how many lines they see. Appending to the newest view extends the store in place;
appending to an older view copies its prefix first, so no view ever sees another's future.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass

from workbench.core.events import OutputStream
from workbench.core.sanitize import resolve_carriage_returns

DEFAULT_MAX_LINES = 250_000
"""Lines kept before the oldest are dropped (their count is kept)."""
DEFAULT_MAX_CHARS = 8_000_000
"""Characters kept before the oldest lines are dropped: long lines must not escape the bound."""
MAX_PARTIAL_CHARS = 64 * 1024
"""A line that never ends (a progress bar redrawn with \r) is broken here."""


@dataclass(frozen=True, slots=True)
class OutputLine:
    text: str
    stream: OutputStream


_STREAM_CODES: dict[str, int] = {"stdout": 0, "stderr": 1, "progress": 2}
_STREAM_NAMES: tuple[OutputStream, ...] = ("stdout", "stderr", "progress")


class _Store:
    """Lines as plain strings with a parallel byte per line for the stream.

    Tens of thousands of lines are common; a small object per line would cost several
    times the text itself.
    """

    __slots__ = ("chars", "streams", "texts")

    def __init__(self, texts: list[str] | None = None, streams: array[int] | None = None) -> None:
        self.texts: list[str] = texts if texts is not None else []
        self.streams: array[int] = streams if streams is not None else array("B")
        self.chars = sum(map(len, self.texts))

    def __len__(self) -> int:
        return len(self.texts)

    def append(self, text: str, stream: OutputStream) -> None:
        self.texts.append(text)
        self.streams.append(_STREAM_CODES[stream])
        self.chars += len(text)

    def extend(self, texts: list[str], stream: OutputStream) -> None:
        self.texts.extend(texts)
        self.streams.extend([_STREAM_CODES[stream]] * len(texts))
        self.chars += sum(map(len, texts))

    def drop_index(self, max_lines: int, max_chars: int) -> int:
        """How many lines to drop from the head to keep at most half of either bound."""
        start = max(0, len(self.texts) - max_lines // 2)
        chars = self.chars - sum(map(len, self.texts[:start]))
        while chars > max_chars // 2 and start < len(self.texts):
            chars -= len(self.texts[start])
            start += 1
        return start

    def slice(self, start: int, stop: int) -> list[OutputLine]:
        return [
            OutputLine(text, _STREAM_NAMES[code])
            for text, code in zip(self.texts[start:stop], self.streams[start:stop], strict=True)
        ]

    def copy_prefix(self, count: int) -> _Store:
        return _Store(self.texts[:count], self.streams[:count])

    def copy_suffix(self, start: int) -> _Store:
        return _Store(self.texts[start:], self.streams[start:])


class OutputBuffer:
    """What a tool printed: complete lines, a pending partial line, and totals."""

    __slots__ = (
        "_count",
        "_store",
        "dropped",
        "max_chars",
        "max_lines",
        "partial",
        "partial_stream",
        "total_chars",
    )

    def __init__(
        self,
        *,
        max_lines: int = DEFAULT_MAX_LINES,
        max_chars: int = DEFAULT_MAX_CHARS,
        _store: _Store | None = None,
        _count: int = 0,
        partial: str = "",
        partial_stream: OutputStream = "stdout",
        dropped: int = 0,
        total_chars: int = 0,
    ) -> None:
        self._store = _store if _store is not None else _Store()
        self._count = _count
        self.partial = partial
        self.partial_stream: OutputStream = partial_stream
        self.dropped = dropped
        """Lines dropped from the head to stay under ``max_lines`` and ``max_chars``."""
        self.total_chars = total_chars
        self.max_lines = max_lines
        self.max_chars = max_chars

    def __repr__(self) -> str:
        return f"OutputBuffer(lines={self.line_count}, partial={self.partial!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, OutputBuffer):
            return NotImplemented
        return (
            self.dropped == other.dropped
            and self.partial == other.partial
            and self.lines() == other.lines()
        )

    __hash__ = None  # type: ignore[assignment]

    @property
    def line_count(self) -> int:
        """Every line printed, including dropped ones and a pending partial line."""
        return self.dropped + self._count + (1 if self.partial else 0)

    @property
    def stored_count(self) -> int:
        return self._count + (1 if self.partial else 0)

    def is_empty(self) -> bool:
        return self.line_count == 0

    def lines(self) -> list[OutputLine]:
        """The stored lines, the partial line last."""
        lines = self._store.slice(0, self._count)
        if self.partial:
            lines = [*lines, OutputLine(self.partial, self.partial_stream)]
        return lines

    def tail(self, count: int) -> list[OutputLine]:
        """The last ``count`` stored lines (the partial line included)."""
        if count <= 0:
            return []
        if self.partial:
            head = self._store.slice(max(0, self._count - count + 1), self._count)
            return [*head, OutputLine(self.partial, self.partial_stream)]
        return self._store.slice(max(0, self._count - count), self._count)

    def text(self) -> str:
        texts = self._store.texts[: self._count]
        return "\n".join([*texts, self.partial] if self.partial else texts)

    def append(self, text: str, stream: OutputStream = "stdout") -> OutputBuffer:
        """A new view with ``text`` appended; ``self`` is unchanged."""
        if not text:
            return self
        store = self._store
        if len(store) != self._count:
            store = store.copy_prefix(self._count)
        partial = self.partial
        partial_stream = self.partial_stream
        pieces = text.split("\n")
        if partial and partial_stream != stream:
            # A different stream interrupts a partial line: finish it as its own line.
            store.append(partial, partial_stream)
            partial = ""
        partial_stream = stream
        if len(pieces) > 1:
            store.append(partial + pieces[0], stream)
            store.extend(pieces[1:-1], stream)
            partial = pieces[-1]
        else:
            partial += pieces[0]
        if "\r" in partial:
            # Progress bars redraw one line thousands of times: keep only what it shows.
            partial = resolve_carriage_returns(partial)
        while len(partial) > MAX_PARTIAL_CHARS:
            store.append(partial[:MAX_PARTIAL_CHARS], stream)
            partial = partial[MAX_PARTIAL_CHARS:]
        count = len(store)
        dropped = self.dropped
        if count > self.max_lines or store.chars > self.max_chars:
            # Halve at once, so dropping costs amortised O(1) per line.
            start = store.drop_index(self.max_lines, self.max_chars)
            dropped += start
            store = store.copy_suffix(start)
            count = len(store)
        return OutputBuffer(
            max_lines=self.max_lines,
            max_chars=self.max_chars,
            _store=store,
            _count=count,
            partial=partial,
            partial_stream=partial_stream,
            dropped=dropped,
            total_chars=self.total_chars + len(text),
        )
