"""The call event stream: everything that can happen to one tool call, in order.

Fixture replays and live calls both produce these events; the reducer folds them into a
:class:`~workbench.core.call_state.CallState`. ``at_ms`` is the time since the call began,
supplied by the source, so that a replay and its recording agree and snapshots never depend
on the wall clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from workbench.core.result import ToolResult

OutputStream = Literal["stdout", "stderr", "progress"]


@dataclass(frozen=True, slots=True)
class CallEvent:
    """Base of every event."""

    at_ms: int = field(default=0, kw_only=True)


@dataclass(frozen=True, slots=True)
class ArgsDelta(CallEvent):
    """More raw argument text arrived from the model."""

    text: str


@dataclass(frozen=True, slots=True)
class ArgsComplete(CallEvent):
    """The model finished the arguments.

    ``args`` are the final arguments; when ``None`` they are parsed from ``raw`` (or from the
    text streamed so far).
    """

    args: dict[str, Any] | None = None
    raw: str | None = None


@dataclass(frozen=True, slots=True)
class ApprovalRequested(CallEvent):
    """Policy says a human must approve before the call runs."""

    reason: str = ""
    policy: str = "required"
    rule: str = ""
    """The policy rule or audit that asked (for the details pane, not the card)."""


@dataclass(frozen=True, slots=True)
class Approved(CallEvent):
    """A human (or an approval mode) approved; ``args`` are the possibly edited arguments."""

    args: dict[str, Any] | None = None
    by: str = "user"


@dataclass(frozen=True, slots=True)
class Started(CallEvent):
    """The tool began executing."""


@dataclass(frozen=True, slots=True)
class OutputChunk(CallEvent):
    """Output the tool emitted while running."""

    text: str
    stream: OutputStream = "stdout"


@dataclass(frozen=True, slots=True)
class Progress(CallEvent):
    """A progress report: ``progress`` of ``total`` (either may be unknown)."""

    progress: float | None = None
    total: float | None = None
    message: str | None = None


@dataclass(frozen=True, slots=True)
class Terminal(CallEvent):
    """Base of the events that end a call; each carries the call's one result."""

    result: ToolResult


@dataclass(frozen=True, slots=True)
class Completed(Terminal):
    """The tool returned a result (which may itself be a failure)."""


@dataclass(frozen=True, slots=True)
class Failed(Terminal):
    """The call failed outside the tool's own result (crash, protocol error, closed pipe)."""


@dataclass(frozen=True, slots=True)
class TimedOut(Terminal):
    """The deadline passed."""


@dataclass(frozen=True, slots=True)
class Cancelled(Terminal):
    """The user or the caller cancelled the call."""


@dataclass(frozen=True, slots=True)
class Blocked(Terminal):
    """Policy refused the call without asking (headless mode)."""


@dataclass(frozen=True, slots=True)
class Skipped(Terminal):
    """A human declined to run the call, with a reason."""

    reason: str = ""
