"""The event log folds as it goes: bounded however much a call sends, and still recordable."""

from __future__ import annotations

import sys
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core import events as ev
from workbench.core.call_state import CallState
from workbench.core.event_log import EventLog
from workbench.core.reducer import reduce_all
from workbench.core.result import to_result
from workbench.fixtures.recorder import variant_from_events

START = [
    ev.ArgsDelta('{"q": ', at_ms=0),
    ev.ArgsDelta('"x"}', at_ms=1),
    ev.ArgsComplete(args={"q": "x"}, raw='{"q": "x"}', at_ms=2),
    ev.Started(at_ms=3),
]


def end(at_ms: int) -> ev.Completed:
    return ev.Completed(to_result(success=True, content="done"), at_ms=at_ms)


def size_of(log: EventLog) -> int:
    return sum(sys.getsizeof(event) + len(getattr(event, "text", "")) for event in log)


def test_a_progress_flood_keeps_one_report_per_step_and_the_last_value() -> None:
    log = EventLog()
    for event in START:
        log.append(event)
    for step in range(200_000):
        log.append(ev.Progress(step + 1, 200_000, None, at_ms=3 + step // 20))  # 20 per ms
    log.append(end(20_000))
    progress = [event for event in log if isinstance(event, ev.Progress)]
    assert len(progress) <= 101  # 10 s of flood, one per 100 ms step
    assert progress[-1].progress == 200_000
    assert log.received == 200_005
    assert [type(event).__name__ for event in log][:3] == ["ArgsDelta", "ArgsComplete", "Started"]
    variant = variant_from_events(log, variant_id="v", label="flood")
    assert variant["output"][-1]["progress"] == 200_000


def test_an_output_flood_keeps_the_latest_output_and_says_how_much_went() -> None:
    log = EventLog(max_output_chars=100_000)
    for event in START:
        log.append(event)
    line = "y\n" * 32_768  # a 64 KiB pipe read of `yes`
    for index in range(1_000):  # 64 MiB in all
        log.append(ev.OutputChunk(line, "stdout", at_ms=10 + index))
    log.append(end(2_000))
    output = [event for event in log if isinstance(event, ev.OutputChunk)]
    kept = sum(len(event.text) for event in output if event.stream == "stdout")
    assert kept <= 100_000
    assert log.dropped_output_chars + kept == 1_000 * len(line)
    assert output[0].stream == "stderr"
    assert (
        output[0].text
        == f"[… {log.dropped_output_chars:,} characters of earlier output not kept]\n"
    )
    assert size_of(log) < 400_000
    variant = variant_from_events(log, variant_id="v", label="yes")
    assert variant["output"][0]["text"].startswith("[… ")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.builds(ev.OutputChunk, st.text(max_size=300), st.sampled_from(["stdout", "stderr"])),
            st.builds(ev.Progress, st.floats(0, 100) | st.none(), st.none(), st.none()),
        ),
        max_size=3_000,
    )
)
def test_any_stream_of_output_and_progress_stays_bounded_and_ordered(
    middle: list[ev.CallEvent],
) -> None:
    log = EventLog(max_events=200, max_output_chars=5_000)
    timed = [replace(event, at_ms=10 + index) for index, event in enumerate(middle)]
    for event in [*START, *timed, end(10_000)]:
        log.append(event)
    assert len(log) <= 200 + 1
    stdout_chars = sum(
        len(e.text) for e in log if isinstance(e, ev.OutputChunk) and not e.text.startswith("[… ")
    )
    assert stdout_chars <= 5_000
    stamps = [event.at_ms for event in log]
    assert stamps == sorted(stamps)
    assert isinstance(list(log)[-1], ev.Completed)
    # Folding never changes how the call ends.
    state = reduce_all(CallState(tool="t", api="a"), log)
    assert state.phase.value == "done" and state.args == {"q": "x"}
