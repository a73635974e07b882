"""The session model every transcript reader produces: messages, tool calls and problems.

A reader yields :data:`Entry` items in the order the session settles them: a message when its
line is read, a tool call when its result arrives (or, for a call that never got one, when the
file ends), a :class:`TranscriptProblem` for a line it cannot use. Nothing here reads files.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

MessageRole = Literal["user", "assistant", "thinking", "system"]

CallOutcome = Literal[
    "done", "failed", "denied", "interrupted", "cancelled", "blocked", "unfinished"
]
"""How a call ended in the agent's session: a person said no (``denied``), stopped it while it
ran (``interrupted``), the turn was called off (``cancelled``), a rule refused it
(``blocked``), or the transcript ends before its result (``unfinished``)."""


@dataclass(slots=True)
class Message:
    """A piece of conversation text: what the user asked, what the model said or thought."""

    role: MessageRole
    text: str
    line: int
    timestamp: datetime | None = None
    parent_call: str | None = None
    """The call (a subagent's Task) this message belongs under, when the format says."""


@dataclass(slots=True)
class ToolCall:
    """One tool call as the agent saw it, from its arguments to the content the model read."""

    id: str
    name: str
    """The name the model called (``Bash``, ``mcp__github__list_issues``, ``get_weather``)."""
    args: dict[str, Any]
    line: int
    """The line that started the call."""
    server: str | None = None
    """The MCP server, when the format names it apart from the tool (Codex, ACP)."""
    content: str | None = None
    """The text the model read back (``None``: no result was recorded)."""
    state: Any = None
    """Structured result data, where the format has it."""
    error: str | None = None
    """The error message, for a call that failed."""
    error_type: str | None = None
    outcome: CallOutcome = "unfinished"
    started: datetime | None = None
    ended: datetime | None = None
    parent_call: str | None = None
    """The call that started this one (a subagent's Task), when the format says."""
    prompt: str | None = None
    """What the user last asked before the call: the call's context for a label."""
    title: str | None = None
    """A one-line description the agent gave the call (ACP ``title``, a ``description`` arg)."""
    truncated: bool = False
    """The agent said it cut the output before the model read it."""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def duration_ms(self) -> int | None:
        if self.started is None or self.ended is None:
            return None
        milliseconds = int((self.ended - self.started).total_seconds() * 1000)
        return milliseconds if milliseconds >= 0 else None


@dataclass(frozen=True, slots=True)
class TranscriptProblem:
    """A line the reader could not use: ``FILE:LINE: record type: what is wrong``.

    It never quotes the line (a transcript may hold secrets), only where it is and what kind
    of record it was.
    """

    file: str
    line: int | None
    record: str
    message: str

    def format(self) -> str:
        from workbench.core.sanitize import clean

        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return clean(f"{where}: {self.record}: {self.message}")


Entry = Message | ToolCall | TranscriptProblem


@dataclass(slots=True)
class Turn:
    """What follows one thing the user asked: the model's text and thinking, its tool calls
    (a subagent's among them, with ``parent_call`` set) and the problems met on the way."""

    prompt: Message | None
    """The user's message that opened the turn (``None`` before the first one)."""
    entries: list[Message | ToolCall] = field(default_factory=list)
    problems: list[TranscriptProblem] = field(default_factory=list)

    @property
    def calls(self) -> list[ToolCall]:
        """The turn's calls in the order they started (entries come as they ended)."""
        return sorted(
            (entry for entry in self.entries if isinstance(entry, ToolCall)),
            key=lambda call: call.line,
        )


def turns(entries: Iterable[Entry]) -> Iterator[Turn]:
    """Group a reader's entries into turns, lazily: each turn is yielded when the next user
    message (not a subagent's) arrives, or at the end, so a long session is never all read."""
    current = Turn(prompt=None)
    for entry in entries:
        if isinstance(entry, Message) and entry.role == "user" and entry.parent_call is None:
            if current.prompt is not None or current.entries or current.problems:
                yield current
            current = Turn(prompt=entry)
        elif isinstance(entry, TranscriptProblem):
            current.problems.append(entry)
        else:
            current.entries.append(entry)
    if current.prompt is not None or current.entries or current.problems:
        yield current
