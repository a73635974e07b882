"""CallRecord: one call's events folded as they arrive, with the phases it went through."""

from __future__ import annotations

from workbench.core import events as ev
from workbench.core.call_record import CallRecord
from workbench.core.call_state import CallState, Phase
from workbench.core.reducer import reduce_all
from workbench.core.result import ToolResult

EVENTS: list[ev.CallEvent] = [
    ev.ArgsDelta('{"q": "te', at_ms=10),
    ev.ArgsComplete(args={"q": "tea"}, at_ms=20),
    ev.ApprovalRequested(reason="asks first", at_ms=21),
    ev.Approved(args={"q": "tea"}, at_ms=30),
    ev.Started(at_ms=31),
    ev.OutputChunk("brewing\n", at_ms=40),
    ev.Completed(ToolResult(success=True, content="ready"), at_ms=50),
]


def test_a_record_folds_like_the_reducer_and_keeps_events_and_phases_in_order() -> None:
    record = CallRecord.start("kitchen", "brew")
    for event in EVENTS:
        record.add(event)
    assert record.state == reduce_all(CallState(tool="kitchen", api="brew"), EVENTS)
    assert list(record.events) == EVENTS  # distinct kinds: nothing to fold
    assert record.phases == [
        Phase.ARGS_STREAMING,
        Phase.EXECUTING,
        Phase.AWAITING_APPROVAL,
        Phase.STREAMING_OUTPUT,
        Phase.DONE,
    ]
    assert record.finished and (record.tool, record.api) == ("kitchen", "brew")


def test_a_record_continues_from_any_state_and_can_keep_only_the_state() -> None:
    midway = reduce_all(CallState(tool="kitchen", api="brew"), EVENTS[:4])
    record = CallRecord(midway, keep_events=False)
    assert record.phases == [Phase.EXECUTING]
    final = record.extend(EVENTS[4:])
    assert final.phase is Phase.DONE and not record.events


def test_forgetting_events_keeps_the_state_and_stops_collecting() -> None:
    record = CallRecord.start("kitchen", "brew")
    record.extend(EVENTS)
    record.forget_events()
    record.add(ev.OutputChunk("late\n", at_ms=60))
    assert not record.events and not record.keep_events
    assert record.state.phase is Phase.DONE and record.state.ignored_events == 1
