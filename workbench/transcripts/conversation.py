"""A transcript as the conversation view reads it: rows, read a page at a time.

:class:`Conversation` pulls turns from the lazy reader only as far as it is asked
(:meth:`Conversation.load`), so opening a 10,000-call session reads its first page, not the
whole file. Each turn becomes rows: the user's prompt, the model's text and thinking, and its
tool calls, a subagent's calls (and words) nested under the call that started them. A call row
knows which tool and API draw it (:func:`~.importer.resolve`, as ``workbench import`` decides)
and builds its fixture variant and event script only when asked. Pure: no Textual.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from itertools import count
from pathlib import Path
from typing import TYPE_CHECKING

from workbench.transcripts.importer import (
    Target,
    kind_of,
    resolve,
    variant_of,
    with_nested_calls,
)
from workbench.transcripts.model import Message, ToolCall, TranscriptProblem, Turn, turns
from workbench.transcripts.readers import detect_format, read_transcript
from workbench.transcripts.redaction import TranscriptRedactor

if TYPE_CHECKING:
    from workbench.core.manifest import ToolManifest
    from workbench.fixtures.models import FixtureVariant
    from workbench.fixtures.script import CallScript

PAGE_ROWS = 200
"""Rows read ahead of what the view shows: a page, not the session."""

ERROR_KINDS = frozenset({"error"})
SUMMARY_CHARS = 400


@dataclass(slots=True)
class TurnRow:
    """The start of a turn: what the user asked (``None`` before the first prompt)."""

    number: int
    prompt: Message | None


@dataclass(slots=True)
class MessageRow:
    """The model's text or thinking (or a subagent's prompt), at its nesting depth."""

    message: Message
    depth: int = 0


@dataclass(slots=True)
class ProblemRow:
    """A line the reader could not use, where the session met it."""

    problem: TranscriptProblem


@dataclass(slots=True)
class CallRow:
    """One tool call: the call as the agent saw it, what draws it, and its number."""

    call: ToolCall
    target: Target
    number: int
    """1-based, in the order the calls started, over the whole session."""
    depth: int = 0
    redactor: TranscriptRedactor = field(default_factory=TranscriptRedactor, repr=False)
    inspector: str | None = None
    """The call's Inspector line at its ending, as plain text, once a view has drawn it."""

    @property
    def kind(self) -> str:
        return kind_of(self.call)

    @property
    def is_error(self) -> bool:
        return self.kind in ERROR_KINDS

    @property
    def name(self) -> str:
        """How the model named the call (``Bash``), an MCP call as ``SERVER.TOOL``."""
        if self.call.server:
            return f"{self.call.server}.{self.call.name}"
        parts = self.call.name.split("__", 2)
        if len(parts) == 3 and parts[0] == "mcp" and parts[1] and parts[2]:
            return f"{parts[1]}.{parts[2]}"
        return self.call.name

    @property
    def summary(self) -> str:
        """What the call did, in a few words: its title or first text argument (redacted)."""
        text = self.call.title or next(
            (
                value
                for value in self.call.args.values()
                if isinstance(value, str) and value.strip()
            ),
            "",
        )
        return self.redactor.text(text[:SUMMARY_CHARS])

    def variant(self) -> FixtureVariant:
        """The call as a fixture variant (secrets redacted); built when asked, never kept, so
        the rows of a long session hold each call's content once."""
        from workbench.fixtures.models import FixtureVariant

        return FixtureVariant.model_validate(variant_of(self.call, self.redactor))

    def script(self, manifest: ToolManifest | None) -> CallScript:
        """The call's event stream (its phases), as a fixture replay of it would play."""
        from workbench.fixtures.script import build_script

        return build_script(
            self.variant(), tool=self.target.tool, api=self.target.api, manifest=manifest
        )

    def matches(self, query: CallQuery) -> bool:
        return query.matches(self)


Row = TurnRow | MessageRow | ProblemRow | CallRow


def runs_past(call: CallRow, following: CallRow) -> bool:
    """Whether ``call`` is still running when ``following`` starts: by the recorded times (a
    subagent's Task while its calls run), or, where the format records none, when
    ``following`` is nested under it."""
    ended, started = call.call.ended, following.call.started
    if ended is not None and started is not None:
        return started < ended
    return following.depth > call.depth


@dataclass(frozen=True, slots=True)
class CallQuery:
    """A filter over calls: ``tool:NAME`` (the call's, its tool's or API's name contains it),
    ``error`` (calls that failed), and free words (in the name, title, args or content).
    Every term must hold; case does not matter."""

    tools: tuple[str, ...] = ()
    errors: bool = False
    words: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str) -> CallQuery:
        tools: list[str] = []
        words: list[str] = []
        errors = False
        for term in text.lower().split():
            if term.startswith("tool:") and term != "tool:":
                tools.append(term.removeprefix("tool:"))
            elif term in ("error", "errors", "is:error"):
                errors = True
            else:
                words.append(term)
        return cls(tuple(tools), errors, tuple(words))

    @property
    def empty(self) -> bool:
        return not (self.tools or self.errors or self.words)

    def matches(self, row: CallRow) -> bool:
        if self.errors and not row.is_error:
            return False
        names = " ".join((row.name, row.target.tool, row.target.api)).lower()
        if any(tool not in names for tool in self.tools):
            return False
        if not self.words:
            return True
        call = row.call
        haystack = " ".join(
            (names, call.title or "", repr(call.args), call.content or "", call.error or "")
        ).lower()
        return all(word in haystack for word in self.words)


class Conversation:
    """The rows of a transcript, read as far as asked.

    ``mapping`` and ``known`` are what ``workbench import`` uses to say which tool draws a
    call (``[tool.workbench] import_map`` and the project's tools and APIs).
    """

    def __init__(
        self,
        path: Path,
        format: str = "auto",
        *,
        mapping: Mapping[str, str] | None = None,
        known: Mapping[str, frozenset[str]] | None = None,
        file: str | None = None,
    ) -> None:
        self.path = path
        self.file = file or str(path)
        self.format = detect_format(path, self.file) if format == "auto" else format
        self.mapping = dict(mapping or {})
        self.known = dict(known or {})
        self.redactor = TranscriptRedactor()
        """Every text the view shows passes it: secrets never reach the screen."""
        self.rows: list[Row] = []
        self.done = False
        """Every row of the session is read."""
        self._turns: Iterator[Turn] = turns(read_transcript(path, self.format, file=self.file))
        self._turn_numbers = count(1)
        self._call_numbers = count(1)

    @property
    def calls(self) -> list[CallRow]:
        return [row for row in self.rows if isinstance(row, CallRow)]

    def load(self, rows: int = PAGE_ROWS) -> list[Row]:
        """Read whole turns until at least ``rows`` more rows are in hand (or the session
        ends); the new rows, also appended to :attr:`rows`."""
        added: list[Row] = []
        while len(added) < rows and not self.done:
            turn = next(self._turns, None)
            if turn is None:
                self.done = True
                break
            added.extend(self._rows_of(turn))
        self.rows.extend(added)
        return added

    def load_all(self) -> list[Row]:
        added: list[Row] = []
        while not self.done:
            added.extend(self.load())
        return added

    def _rows_of(self, turn: Turn) -> Iterator[Row]:
        if turn.prompt is not None or turn.entries:
            prompt = self._redacted(turn.prompt) if turn.prompt is not None else None
            yield TurnRow(next(self._turn_numbers), prompt)
        calls = {call.id for call in turn.calls}
        children: dict[str | None, list[Message | ToolCall]] = {}
        for entry in turn.entries:
            parent = entry.parent_call if entry.parent_call in calls else None
            children.setdefault(parent, []).append(entry)
        for entries in children.values():
            entries.sort(key=lambda entry: entry.line)
        yield from self._nested(children, None, 0)
        for problem in turn.problems:
            yield ProblemRow(problem)

    def _redacted(self, message: Message) -> Message:
        return replace(message, text=self.redactor.text(message.text))

    def _nested(
        self, children: dict[str | None, list[Message | ToolCall]], parent: str | None, depth: int
    ) -> Iterator[Row]:
        for entry in children.pop(parent, []):
            if isinstance(entry, Message):
                yield MessageRow(self._redacted(entry), depth)
                continue
            nested = [item for item in children.get(entry.id, []) if isinstance(item, ToolCall)]
            entry = with_nested_calls(entry, nested)
            target = resolve(entry, self.format, self.mapping, self.known)
            yield CallRow(entry, target, next(self._call_numbers), depth, self.redactor)
            if entry.id != parent:  # A call naming itself as its parent would never end.
                yield from self._nested(children, entry.id, depth + 1)
