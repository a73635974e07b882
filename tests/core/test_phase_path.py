"""The stepper's phases: in the order they happen, ending at the call's own, in both modes."""

from __future__ import annotations

from workbench.core import events as ev
from workbench.core.call_state import CallState, Phase, phase_path
from workbench.core.reducer import reduce_all
from workbench.core.result import ErrorType, failure, to_result

OK = to_result(success=True, content="ok")
START = CallState(tool="t", api="a")


def test_a_live_call_asks_before_it_runs() -> None:
    # Live calls complete their args, ask, then run: the approval comes before execution.
    asked = reduce_all(START, [ev.ArgsComplete(args={}), ev.ApprovalRequested()])
    assert phase_path(asked) == (Phase.ARGS_STREAMING, Phase.AWAITING_APPROVAL)
    done = reduce_all(asked, [ev.Approved(args={}), ev.Started(), ev.Completed(OK)])
    assert phase_path(done) == (
        Phase.ARGS_STREAMING,
        Phase.AWAITING_APPROVAL,
        Phase.EXECUTING,
        Phase.DONE,
    )


def test_a_skipped_call_ends_at_skipped_not_after_done() -> None:
    planned = (Phase.ARGS_STREAMING, Phase.AWAITING_APPROVAL, Phase.EXECUTING, Phase.DONE)
    skipped = reduce_all(
        START,
        [
            ev.ArgsComplete(args={}),
            ev.ApprovalRequested(),
            ev.Skipped(failure(ErrorType.SKIPPED, "no"), reason="no"),
        ],
    )
    assert phase_path(skipped, planned) == (
        Phase.ARGS_STREAMING,
        Phase.AWAITING_APPROVAL,
        Phase.SKIPPED,
    )


def test_on_its_plan_the_whole_plan_shows_in_lifecycle_order() -> None:
    planned = (Phase.DONE, Phase.EXECUTING, Phase.ARGS_STREAMING)
    running = reduce_all(START, [ev.ArgsComplete(args={}), ev.Started()])
    assert phase_path(running, planned) == (Phase.ARGS_STREAMING, Phase.EXECUTING, Phase.DONE)
