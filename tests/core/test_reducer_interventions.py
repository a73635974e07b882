"""The reducer folds mid-call requests into an awaiting-input phase, and server messages into
a bounded log, without breaking "exactly one result"."""

from __future__ import annotations

from dataclasses import replace

from workbench.core import events as ev
from workbench.core.call_record import CallRecord
from workbench.core.call_state import Phase
from workbench.core.interventions import InputAnswer, elicitation_request, sampling_request
from workbench.core.result import to_result

FORM = {"type": "object", "properties": {"name": {"type": "string"}}}


def started() -> CallRecord:
    record = CallRecord.start("t", "a")
    record.extend([ev.ArgsComplete(args={}, at_ms=1), ev.Started(at_ms=2)])
    return record


def ask(key: str = "elicitation-1", at: int = 10) -> ev.ElicitationRequested:
    request = replace(elicitation_request("Your name?", schema=FORM), key=key)
    return ev.ElicitationRequested(request, at_ms=at)


def test_a_request_pauses_the_call_and_its_answer_resumes_it() -> None:
    record = started()
    state = record.add(ask())
    assert state.phase is Phase.AWAITING_INPUT and state.is_loading
    assert state.pending_exchange is not None and state.pending_exchange.key == "elicitation-1"
    state = record.add(
        ev.ElicitationAnswered(
            InputAnswer("accept", content={"name": "Ada"}, key="elicitation-1"), at_ms=50
        )
    )
    assert state.phase is Phase.EXECUTING
    [exchange] = state.exchanges
    assert exchange.answer is not None and exchange.answer.content == {"name": "Ada"}
    assert (exchange.asked_ms, exchange.answered_ms) == (10, 50)
    assert Phase.AWAITING_INPUT in record.phases


def test_after_output_the_call_goes_back_to_streaming() -> None:
    record = started()
    record.add(ev.OutputChunk("hello\n", at_ms=5))
    record.add(ask())
    state = record.add(ev.OutputChunk("while waiting\n", at_ms=12))
    assert state.phase is Phase.AWAITING_INPUT  # Output during the wait is kept; the wait goes on.
    assert "while waiting" in state.output.text()
    state = record.add(
        ev.ElicitationAnswered(InputAnswer("decline", key="elicitation-1"), at_ms=20)
    )
    assert state.phase is Phase.STREAMING_OUTPUT


def test_two_open_requests_both_need_answers() -> None:
    record = started()
    record.add(ask("elicitation-1"))
    sampling = replace(sampling_request({"messages": [], "maxTokens": 3}), key="sampling-1")
    record.add(ev.SamplingRequested(sampling, at_ms=11))
    state = record.add(ev.SamplingAnswered(InputAnswer("decline", key="sampling-1"), at_ms=12))
    assert state.phase is Phase.AWAITING_INPUT
    assert state.pending_exchange is not None and state.pending_exchange.key == "elicitation-1"
    state = record.add(ev.ElicitationAnswered(InputAnswer("cancel", key="elicitation-1"), at_ms=13))
    assert state.phase is Phase.EXECUTING


def test_answers_that_match_nothing_and_requests_out_of_place_are_ignored() -> None:
    record = CallRecord.start("t", "a")
    state = record.add(ask())  # Not started: there is no call to pause.
    assert state.phase is Phase.ARGS_STREAMING and state.ignored_events == 1
    record = started()
    record.add(ask())
    state = record.add(ev.ElicitationAnswered(InputAnswer("accept", key="elicitation-9"), at_ms=3))
    assert state.phase is Phase.AWAITING_INPUT and state.ignored_events == 1


def test_a_call_can_end_while_the_user_is_asked() -> None:
    record = started()
    record.add(ask())
    state = record.add(ev.TimedOut(to_result(success=False, content="timed out"), at_ms=99))
    assert state.phase is Phase.TIMED_OUT
    assert state.exchanges[0].answer is None
    state = record.add(
        ev.ElicitationAnswered(InputAnswer("accept", key="elicitation-1"), at_ms=100)
    )
    assert state.ignored_events == 1 and state.exchanges[0].answer is None


def test_server_messages_are_folded_bounded_in_any_running_phase() -> None:
    record = started()
    for index in range(500):
        record.add(ev.LogMessage(f"line {index}", level="debug", at_ms=index))
    record.add(ev.ListChanged("tools", at_ms=600))
    state = record.add(ev.ResourceUpdated("res://a", at_ms=601))
    messages = state.server_messages
    assert messages.total == 502 and len(messages.items) == 200
    assert messages.items[-1].text == "res://a was updated"
    assert messages.items[-2].kind == "list-changed"
    assert state.phase is Phase.EXECUTING
    # The recording keeps at most 500 server events; the rest are counted.
    assert record.events.dropped_server_events == 2
