"""The reducer: every transition, tested as a table, plus the exactly-one-result rule."""

from __future__ import annotations

import pytest

from workbench.core import events as ev
from workbench.core.call_state import CallState, Phase
from workbench.core.reducer import reduce, reduce_all
from workbench.core.result import ErrorType, failure, to_result

OK = to_result(success=True, content="ok", state={"n": 1})
BAD = failure("Boom", "it broke", state={"partial": True})


def state_in(phase: Phase) -> CallState:
    """A state that reached ``phase`` through real events."""
    base = CallState(tool="t", api="a")
    prefix: dict[Phase, list[ev.CallEvent]] = {
        Phase.ARGS_STREAMING: [ev.ArgsDelta('{"q": "x')],
        Phase.AWAITING_APPROVAL: [
            ev.ArgsComplete(args={"q": "x"}),
            ev.ApprovalRequested(reason="r"),
        ],
        Phase.EXECUTING: [ev.ArgsComplete(args={"q": "x"}), ev.Started(at_ms=5)],
        Phase.STREAMING_OUTPUT: [
            ev.ArgsComplete(args={"q": "x"}),
            ev.Started(),
            ev.OutputChunk("a\n"),
        ],
        Phase.DONE: [ev.ArgsComplete(args={}), ev.Started(), ev.Completed(OK)],
        Phase.FAILED: [ev.ArgsComplete(args={}), ev.Started(), ev.Completed(BAD)],
        Phase.BLOCKED: [ev.ArgsComplete(args={}), ev.Blocked(BAD)],
        Phase.SKIPPED: [
            ev.ArgsComplete(args={}),
            ev.ApprovalRequested(),
            ev.Skipped(BAD, reason="no"),
        ],
        Phase.CANCELLED: [ev.ArgsComplete(args={}), ev.Started(), ev.Cancelled(BAD)],
        Phase.TIMED_OUT: [ev.ArgsComplete(args={}), ev.Started(), ev.TimedOut(BAD)],
    }[phase]
    state = reduce_all(base, prefix)
    assert state.phase is phase
    return state


# (phase before, event, phase after); None after means "ignored".
TRANSITIONS: list[tuple[Phase, ev.CallEvent, Phase | None]] = [
    (Phase.ARGS_STREAMING, ev.ArgsDelta('", "n": 1'), Phase.ARGS_STREAMING),
    (Phase.ARGS_STREAMING, ev.ArgsComplete(), Phase.EXECUTING),
    (Phase.ARGS_STREAMING, ev.ApprovalRequested(), Phase.AWAITING_APPROVAL),
    (Phase.ARGS_STREAMING, ev.Started(), Phase.EXECUTING),
    (Phase.ARGS_STREAMING, ev.OutputChunk("x"), None),
    (Phase.ARGS_STREAMING, ev.Approved(), None),
    (Phase.ARGS_STREAMING, ev.Completed(OK), Phase.DONE),
    (Phase.ARGS_STREAMING, ev.Cancelled(BAD), Phase.CANCELLED),
    (Phase.AWAITING_APPROVAL, ev.Approved(), Phase.EXECUTING),
    (Phase.AWAITING_APPROVAL, ev.Skipped(BAD, reason="not now"), Phase.SKIPPED),
    (Phase.AWAITING_APPROVAL, ev.Cancelled(BAD), Phase.CANCELLED),
    (Phase.AWAITING_APPROVAL, ev.Blocked(BAD), Phase.BLOCKED),
    (Phase.AWAITING_APPROVAL, ev.OutputChunk("x"), None),
    (Phase.AWAITING_APPROVAL, ev.Started(), None),
    (Phase.AWAITING_APPROVAL, ev.ArgsDelta("x"), None),
    (Phase.EXECUTING, ev.OutputChunk("line\n"), Phase.STREAMING_OUTPUT),
    (Phase.EXECUTING, ev.Progress(1, 4, "one of four"), Phase.STREAMING_OUTPUT),
    (Phase.EXECUTING, ev.Completed(OK), Phase.DONE),
    (Phase.EXECUTING, ev.Completed(BAD), Phase.FAILED),
    (Phase.EXECUTING, ev.Failed(BAD), Phase.FAILED),
    (Phase.EXECUTING, ev.TimedOut(BAD), Phase.TIMED_OUT),
    (Phase.EXECUTING, ev.Cancelled(BAD), Phase.CANCELLED),
    (Phase.EXECUTING, ev.Started(), None),
    (Phase.EXECUTING, ev.ApprovalRequested(), None),
    (Phase.EXECUTING, ev.ArgsComplete(), None),
    (Phase.STREAMING_OUTPUT, ev.OutputChunk("more"), Phase.STREAMING_OUTPUT),
    (Phase.STREAMING_OUTPUT, ev.Progress(2, 4), Phase.STREAMING_OUTPUT),
    (Phase.STREAMING_OUTPUT, ev.Completed(OK), Phase.DONE),
    (Phase.STREAMING_OUTPUT, ev.TimedOut(BAD), Phase.TIMED_OUT),
    (Phase.STREAMING_OUTPUT, ev.Cancelled(BAD), Phase.CANCELLED),
    (Phase.STREAMING_OUTPUT, ev.Failed(BAD), Phase.FAILED),
    (Phase.STREAMING_OUTPUT, ev.Approved(), None),
]
for terminal in (
    Phase.DONE,
    Phase.FAILED,
    Phase.BLOCKED,
    Phase.SKIPPED,
    Phase.CANCELLED,
    Phase.TIMED_OUT,
):
    for event in (
        ev.Completed(OK),
        ev.Failed(BAD),
        ev.OutputChunk("late"),
        ev.ArgsDelta("x"),
        ev.Started(),
        ev.TimedOut(BAD),
    ):
        TRANSITIONS.append((terminal, event, None))


@pytest.mark.parametrize(
    ("before", "event", "after"),
    TRANSITIONS,
    ids=lambda value: getattr(value, "value", type(value).__name__),
)
def test_transition(before: Phase, event: ev.CallEvent, after: Phase | None) -> None:
    state = state_in(before)
    new = reduce(state, event)
    if after is None:
        assert new.phase is before
        assert new.ignored_events == state.ignored_events + 1
        assert new.result == state.result
    else:
        assert new.phase is after
        assert new.ignored_events == state.ignored_events


def test_partial_args_follow_the_stream() -> None:
    state = CallState(tool="t", api="a")
    seen = []
    for piece in ['{"que', 'ry": "cats a', 'nd dogs", "li', 'mit": 1', "0}"]:
        state = reduce(state, ev.ArgsDelta(piece))
        seen.append(state.partial_args)
    # A number is shown as far as it has been typed ("1" of "10").
    assert seen == [
        {},
        {"query": "cats a"},
        {"query": "cats and dogs"},
        {"query": "cats and dogs", "limit": 1},
        {"query": "cats and dogs", "limit": 10},
    ]
    state = reduce(state, ev.ArgsComplete())
    assert state.args == {"query": "cats and dogs", "limit": 10}
    assert state.args_error is None


def test_invalid_complete_args_are_reported_not_raised() -> None:
    state = reduce_all(
        CallState(tool="t", api="a"), [ev.ArgsDelta('{"a": 1,,}'), ev.ArgsComplete()]
    )
    assert state.args is None
    assert state.args_error is not None and "not valid JSON" in state.args_error


def test_first_result_wins() -> None:
    state = reduce_all(
        state_in(Phase.EXECUTING), [ev.Completed(OK), ev.Failed(BAD), ev.TimedOut(BAD)]
    )
    assert state.phase is Phase.DONE
    assert state.result == OK
    assert state.ignored_events == 2


def test_result_state_survives_failure() -> None:
    state = reduce(state_in(Phase.STREAMING_OUTPUT), ev.Completed(BAD))
    assert state.result is not None and state.result.state == {"partial": True}
    assert state.output.text() == "a"


def test_approval_records_edits_and_decisions() -> None:
    approved = reduce(state_in(Phase.AWAITING_APPROVAL), ev.Approved(args={"q": "edited"}))
    assert approved.args == {"q": "edited"}
    assert (
        approved.approval is not None
        and approved.approval.decision == "approved"
        and approved.approval.args_edited
    )
    skipped = reduce(
        state_in(Phase.AWAITING_APPROVAL),
        ev.Skipped(failure(ErrorType.SKIPPED, "no"), reason="too risky"),
    )
    assert (
        skipped.approval is not None
        and skipped.approval.decision == "skipped"
        and skipped.approval.note == "too risky"
    )


def test_timings_come_from_events() -> None:
    state = reduce_all(
        CallState(tool="t", api="a"),
        [
            ev.ArgsComplete(args={}, at_ms=10),
            ev.Started(at_ms=20),
            ev.OutputChunk("x", at_ms=50),
            ev.Completed(OK, at_ms=120),
        ],
    )
    assert (
        state.timings.args_complete_ms,
        state.timings.started_ms,
        state.timings.first_output_ms,
        state.timings.ended_ms,
    ) == (10, 20, 50, 120)
    assert state.timings.run_ms == 100


def test_reducer_does_not_mutate_earlier_states() -> None:
    executing = state_in(Phase.EXECUTING)
    first = reduce(executing, ev.OutputChunk("one\n"))
    second = reduce(executing, ev.OutputChunk("two\n"))
    assert [line.text for line in first.output.lines()] == ["one"]
    assert [line.text for line in second.output.lines()] == ["two"]
    assert executing.output.is_empty()
