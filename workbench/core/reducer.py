"""The pure reducer: ``reduce(state, event) -> state``.

It never raises and never does I/O. Events the lifecycle does not allow in the current phase
(output after the result, a second result) are counted in ``ignored_events`` and otherwise
ignored, which is what keeps "exactly one result" true however a source misbehaves.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from workbench.core import events as ev
from workbench.core.call_state import Approval, CallState, Phase, ProgressInfo
from workbench.core.interventions import Exchange, ServerMessage
from workbench.core.partial_args import parse_complete_args, parse_partial_args

_TERMINAL_PHASE: dict[type[ev.Terminal], Phase] = {
    ev.Failed: Phase.FAILED,
    ev.TimedOut: Phase.TIMED_OUT,
    ev.Cancelled: Phase.CANCELLED,
    ev.Blocked: Phase.BLOCKED,
    ev.Skipped: Phase.SKIPPED,
}

_RUNNING = (Phase.EXECUTING, Phase.STREAMING_OUTPUT)
_STARTED = (*_RUNNING, Phase.AWAITING_INPUT)


def _server_message(event: ev.ServerEvent) -> ServerMessage:
    if isinstance(event, ev.LogMessage):
        return ServerMessage(event.at_ms, "log", event.text, level=event.level, logger=event.logger)
    if isinstance(event, ev.ListChanged):
        return ServerMessage(event.at_ms, "list-changed", f"the {event.what} list changed")
    if isinstance(event, ev.ResourceUpdated):
        return ServerMessage(event.at_ms, "resource-updated", f"{event.uri} was updated")
    assert isinstance(event, ev.ServerNotice)
    return ServerMessage(event.at_ms, "notice", event.text)


def _running_phase(state: CallState) -> Phase:
    """Where a running call is when nothing waits on the user."""
    return Phase.STREAMING_OUTPUT if state.timings.first_output_ms is not None else Phase.EXECUTING


def _ignored(state: CallState) -> CallState:
    return replace(state, ignored_events=state.ignored_events + 1)


def _finish_args(state: CallState, event: ev.ArgsComplete) -> CallState:
    raw = event.raw if event.raw is not None else state.raw_args
    args: dict[str, Any] | None
    if event.args is not None:
        args, error = dict(event.args), None
    else:
        args, error = parse_complete_args(raw)
    timings = replace(state.timings, args_complete_ms=event.at_ms)
    return replace(
        state,
        phase=Phase.EXECUTING,
        raw_args=raw,
        args=args,
        args_error=error,
        partial_args=args if args is not None else state.partial_args,
        timings=timings,
    )


def _before_start(state: CallState, event: ev.CallEvent) -> CallState | None:
    """``state`` ready for ``event``, which belongs before the tool starts: arguments still
    streaming end here; ``None`` when the call has started already, where ``event`` is out of
    place."""
    if state.phase is Phase.ARGS_STREAMING:
        return _finish_args(state, ev.ArgsComplete(at_ms=event.at_ms))
    if state.phase is not Phase.EXECUTING or state.timings.started_ms is not None:
        return None
    return state


def reduce(state: CallState, event: ev.CallEvent) -> CallState:
    """Fold one event into the call state."""
    phase = state.phase
    if phase.is_terminal:
        return _ignored(state)
    state = replace(state, timings=replace(state.timings, last_event_ms=event.at_ms))

    if isinstance(event, ev.ArgsDelta):
        if phase is not Phase.ARGS_STREAMING:
            return _ignored(state)
        raw = state.raw_args + event.text
        partial = parse_partial_args(raw)
        return replace(
            state, raw_args=raw, partial_args=partial if partial is not None else state.partial_args
        )

    if isinstance(event, ev.ArgsComplete):
        if phase is not Phase.ARGS_STREAMING:
            return _ignored(state)
        return _finish_args(state, event)

    if isinstance(event, ev.ApprovalRequested):
        ready = _before_start(state, event)
        if ready is None:
            return _ignored(state)
        return replace(
            ready,
            phase=Phase.AWAITING_APPROVAL,
            approval=Approval(reason=event.reason, policy=event.policy, rule=event.rule),
        )

    if isinstance(event, ev.Approved):
        if phase is not Phase.AWAITING_APPROVAL:
            return _ignored(state)
        asked = state.approval or Approval()
        edited = event.args is not None and event.args != state.args
        return replace(
            state,
            phase=Phase.EXECUTING,
            args=dict(event.args) if event.args is not None else state.args,
            approval=replace(asked, decision="approved", note=event.by, args_edited=edited),
        )

    if isinstance(event, ev.Started):
        ready = _before_start(state, event)
        if ready is None:
            return _ignored(state)
        return replace(
            ready, phase=Phase.EXECUTING, timings=replace(ready.timings, started_ms=event.at_ms)
        )

    if isinstance(event, (ev.OutputChunk, ev.Progress)):
        if phase not in _STARTED:
            return _ignored(state)
        timings = state.timings
        if timings.first_output_ms is None:
            timings = replace(timings, first_output_ms=event.at_ms)
        # Output that arrives while the server waits on the user is kept; the wait goes on.
        running: Phase = phase if phase is Phase.AWAITING_INPUT else Phase.STREAMING_OUTPUT
        if isinstance(event, ev.OutputChunk):
            return replace(
                state,
                phase=running,
                output=state.output.append(event.text, event.stream),
                timings=timings,
            )
        return replace(
            state,
            phase=running,
            progress=ProgressInfo(event.progress, event.total, event.message),
            timings=timings,
        )

    if isinstance(event, ev.InputRequested):
        if phase not in _STARTED:
            return _ignored(state)
        exchange = Exchange(event.request, asked_ms=event.at_ms)
        return replace(state, phase=Phase.AWAITING_INPUT, exchanges=(*state.exchanges, exchange))

    if isinstance(event, ev.InputAnswered):
        key = event.answer.key
        index = next(
            (
                position
                for position, item in enumerate(state.exchanges)
                if item.key == key and item.answer is None
            ),
            None,
        )
        if index is None or phase is not Phase.AWAITING_INPUT:
            return _ignored(state)
        exchanges = list(state.exchanges)
        exchanges[index] = exchanges[index].answered(event.answer, event.at_ms)
        state = replace(state, exchanges=tuple(exchanges))
        if state.pending_exchange is None:
            state = replace(state, phase=_running_phase(state))
        return state

    if isinstance(event, ev.ServerEvent):
        return replace(state, server_messages=state.server_messages.add(_server_message(event)))

    if isinstance(event, ev.Terminal):
        if isinstance(event, ev.Completed):
            new_phase = Phase.DONE if event.result.success else Phase.FAILED
        else:
            new_phase = _TERMINAL_PHASE[type(event)]
        approval = state.approval
        if phase is Phase.AWAITING_APPROVAL and approval is not None:
            decision = {
                Phase.SKIPPED: "skipped",
                Phase.CANCELLED: "cancelled",
                Phase.BLOCKED: "blocked",
            }
            note = event.reason if isinstance(event, ev.Skipped) else approval.note
            approval = replace(
                approval, decision=decision.get(new_phase, approval.decision), note=note
            )
        elif isinstance(event, ev.Blocked):
            approval = Approval(reason=event.result.content, decision="blocked")
        args = state.args
        if args is None and phase is Phase.ARGS_STREAMING:
            args, _ = parse_complete_args(state.raw_args)
        return replace(
            state,
            phase=new_phase,
            args=args,
            approval=approval,
            result=event.result,
            timings=replace(state.timings, ended_ms=event.at_ms),
        )

    return _ignored(state)


def reduce_all(state: CallState, events: Iterable[ev.CallEvent]) -> CallState:
    """Fold a sequence of events."""
    for event in events:
        state = reduce(state, event)
    return state
