"""The state of one tool call, as surfaces see it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from workbench.core.interventions import Exchange, ServerMessages
from workbench.core.output_buffer import OutputBuffer
from workbench.core.result import ToolError, ToolResult


class Phase(StrEnum):
    """Where a call is in its lifecycle."""

    ARGS_STREAMING = "args-streaming"
    AWAITING_APPROVAL = "awaiting-approval"
    EXECUTING = "executing"
    AWAITING_INPUT = "awaiting-input"
    """Running, paused while the server waits for the user (elicitation, sampling)."""
    STREAMING_OUTPUT = "streaming-output"
    DONE = "done"
    FAILED = "failed"
    BLOCKED = "blocked"
    SKIPPED = "skipped"
    CANCELLED = "cancelled"
    TIMED_OUT = "timed-out"

    @property
    def is_terminal(self) -> bool:
        return self in TERMINAL_PHASES

    @property
    def is_loading(self) -> bool:
        """Args are complete and the call is under way (the Inspector's "-ing" wording)."""
        return self in (
            Phase.EXECUTING,
            Phase.STREAMING_OUTPUT,
            Phase.AWAITING_APPROVAL,
            Phase.AWAITING_INPUT,
        )


TERMINAL_PHASES = frozenset(
    {Phase.DONE, Phase.FAILED, Phase.BLOCKED, Phase.SKIPPED, Phase.CANCELLED, Phase.TIMED_OUT}
)


@dataclass(frozen=True, slots=True)
class Approval:
    """Why approval was asked for, and what became of it."""

    reason: str = ""
    policy: str = "required"
    decision: str | None = None
    """``None`` while waiting; then ``approved``, ``skipped``, ``cancelled`` or ``blocked``."""
    note: str = ""
    args_edited: bool = False
    rule: str = ""
    """The policy rule or audit that asked: debug detail for the details pane."""


@dataclass(frozen=True, slots=True)
class ProgressInfo:
    progress: float | None = None
    total: float | None = None
    message: str | None = None

    @property
    def fraction(self) -> float | None:
        if self.progress is None or not self.total:
            return None
        return max(0.0, min(1.0, self.progress / self.total))


@dataclass(frozen=True, slots=True)
class Timings:
    """Milliseconds since the call began (from the events, never from a clock)."""

    args_complete_ms: int | None = None
    started_ms: int | None = None
    first_output_ms: int | None = None
    ended_ms: int | None = None
    last_event_ms: int = 0

    @property
    def run_ms(self) -> int | None:
        if self.started_ms is None or self.ended_ms is None:
            return None
        return self.ended_ms - self.started_ms


@dataclass(frozen=True, slots=True)
class CallState:
    """Everything a surface may render about one call."""

    tool: str
    api: str
    call_id: str = "call"
    phase: Phase = Phase.ARGS_STREAMING
    raw_args: str = ""
    partial_args: dict[str, Any] | None = None
    args: dict[str, Any] | None = None
    args_error: str | None = None
    approval: Approval | None = None
    output: OutputBuffer = field(default_factory=OutputBuffer)
    progress: ProgressInfo | None = None
    result: ToolResult | None = None
    timings: Timings = field(default_factory=Timings)
    exchanges: tuple[Exchange, ...] = ()
    """What the server asked mid-call (elicitation, sampling), each with its answer."""
    server_messages: ServerMessages = field(default_factory=ServerMessages)
    """The server's log lines and notifications during the call (the latest, and a count)."""
    ignored_events: int = 0
    """Events that arrived where the lifecycle does not allow them (e.g. after the result)."""

    @property
    def is_args_streaming(self) -> bool:
        return self.phase is Phase.ARGS_STREAMING

    @property
    def is_loading(self) -> bool:
        return self.phase.is_loading

    @property
    def known_args(self) -> dict[str, Any]:
        """The final args if complete, else whatever partial args exist."""
        if self.args is not None:
            return self.args
        return self.partial_args or {}

    @property
    def pending_exchange(self) -> Exchange | None:
        """The request the call is waiting on (the oldest unanswered one), if any."""
        return next((item for item in self.exchanges if item.answer is None), None)

    @property
    def error(self) -> ToolError | None:
        return self.result.error if self.result is not None else None


LIFECYCLE_ORDER: tuple[Phase, ...] = (
    Phase.ARGS_STREAMING,
    Phase.AWAITING_APPROVAL,
    Phase.EXECUTING,
    Phase.STREAMING_OUTPUT,
)
"""The phases a call goes through before it ends, in the order they happen."""


def phase_path(state: CallState, planned: Sequence[Phase] = ()) -> tuple[Phase, ...]:
    """The phases to show for ``state``, in the order they happen, ending at its own.

    ``planned`` is the path a fixture variant takes; while ``state`` is on it, that path is
    shown whole (what is still to come too). A call that left it (skipped at the approval,
    cancelled while running) and a live call, which has no plan, show the phases the state
    shows it went through: an approval only if one was asked for, execution only once
    started (in live calls the arguments complete before the approval, but run after it).
    """
    if state.phase in planned:
        return tuple(sorted(dict.fromkeys(planned), key=_lifecycle_rank))
    timings = state.timings
    path = [Phase.ARGS_STREAMING]
    if state.approval is not None or state.phase is Phase.AWAITING_APPROVAL:
        path.append(Phase.AWAITING_APPROVAL)
    if timings.started_ms is not None or state.phase in (Phase.EXECUTING, Phase.STREAMING_OUTPUT):
        path.append(Phase.EXECUTING)
    if timings.first_output_ms is not None or state.phase is Phase.STREAMING_OUTPUT:
        path.append(Phase.STREAMING_OUTPUT)
    if state.phase not in path:
        path.append(state.phase)
    return tuple(path)


def _lifecycle_rank(phase: Phase) -> int:
    return LIFECYCLE_ORDER.index(phase) if phase in LIFECYCLE_ORDER else len(LIFECYCLE_ORDER)
