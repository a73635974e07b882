"""The call event stream: everything that can happen to one tool call, in order.

Fixture replays and live calls both produce these events; the reducer folds them into a
:class:`~workbench.core.call_state.CallState`. ``at_ms`` is the time since the call began,
supplied by the source, so that a replay and its recording agree and snapshots never depend
on the wall clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from workbench.core.interventions import (
    ElicitationRequest,
    InputAnswer,
    InputRequest,
    SamplingRequest,
)
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
class InputRequested(CallEvent):
    """The server paused the call to ask the user something (an Intervention mid-call)."""

    request: InputRequest


@dataclass(frozen=True, slots=True)
class ElicitationRequested(InputRequested):
    """The server asks for input: a form, or a URL to visit."""

    request: ElicitationRequest


@dataclass(frozen=True, slots=True)
class SamplingRequested(InputRequested):
    """The server asks for a completion from the client's model; a person approves it."""

    request: SamplingRequest


@dataclass(frozen=True, slots=True)
class InputAnswered(CallEvent):
    """The request ``answer.key`` was answered (by a person, an answers file or a fixture)."""

    answer: InputAnswer


@dataclass(frozen=True, slots=True)
class ElicitationAnswered(InputAnswered):
    """An elicitation was accepted (with content), declined or cancelled."""


@dataclass(frozen=True, slots=True)
class SamplingAnswered(InputAnswered):
    """A sampling request was approved (with a reply) or rejected."""


@dataclass(frozen=True, slots=True)
class ServerEvent(CallEvent):
    """Base of what a server says during a call besides its result (logs, notifications)."""


@dataclass(frozen=True, slots=True)
class LogMessage(ServerEvent):
    """A log line the server sent (``notifications/message``), cleaned and capped."""

    text: str
    level: str = "info"
    logger: str = ""


@dataclass(frozen=True, slots=True)
class ListChanged(ServerEvent):
    """The server's list of tools, prompts or resources changed."""

    what: Literal["tools", "prompts", "resources"] = "tools"


@dataclass(frozen=True, slots=True)
class ResourceUpdated(ServerEvent):
    """A resource the client subscribed to changed (``notifications/resources/updated``)."""

    uri: str


@dataclass(frozen=True, slots=True)
class ServerNotice(ServerEvent):
    """Anything else worth a line: roots listed, an elicitation completed, a malformed request."""

    text: str


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
