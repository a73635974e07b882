"""LiveCall and what a source asks the user mid-call: the deadline stops while a person
answers, a cancel ends the wait, refused requests never reach a person, and a source that
asks in a loop is stopped."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from tests.sources.helpers import CallRun, make_call, run_call
from workbench.core import events as ev
from workbench.core.interventions import (
    InputAnswer,
    InputRequest,
    elicitation_request,
    sampling_request,
)
from workbench.core.manifest import ToolManifest
from workbench.core.result import ErrorType, ToolResult, to_result
from workbench.core.runtime import CallContext
from workbench.sources.base import SourceState, SourceStatus, ToolSource
from workbench.sources.call_runner import MAX_INPUT_REQUESTS

FORM = {"type": "object", "properties": {"name": {"type": "string"}}}


class AskingSource(ToolSource):
    """A source whose one API asks the user ``times`` times, then returns the answers."""

    def __init__(self, request: InputRequest, times: int = 1) -> None:
        super().__init__("asking")
        self.request = request
        self.times = times
        self.answers: list[InputAnswer] = []
        self.status = SourceStatus(SourceState.READY)

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    def list_tools(self) -> list[ToolManifest]:
        return []

    async def invoke(
        self, tool: str, api: str, args: dict[str, Any], ctx: CallContext
    ) -> ToolResult:
        for _ in range(self.times):
            self.answers.append(await ctx.ask(self.request))
        return to_result(success=True, content=", ".join(a.action for a in self.answers))


def form() -> InputRequest:
    return elicitation_request("Your name?", schema=FORM)


async def test_the_deadline_stops_while_a_person_answers() -> None:
    async def slow_person(request: InputRequest) -> InputAnswer:
        await asyncio.sleep(1.6)
        return InputAnswer("accept", content={"name": "Ada"})

    source = AskingSource(form())
    started = time.monotonic()
    run = await run_call(source, "t", "a", {}, timeout_ms=1000, input_gate=slow_person)
    assert time.monotonic() - started >= 1.5
    assert isinstance(run.terminal, ev.Completed), run.result
    assert source.answers[0].content == {"name": "Ada"}
    [asked] = [event for event in run.events if isinstance(event, ev.ElicitationRequested)]
    [answered] = [event for event in run.events if isinstance(event, ev.ElicitationAnswered)]
    assert asked.request.key == answered.answer.key == "elicitation-1"
    assert answered.at_ms - asked.at_ms >= 1500


async def test_a_cancel_ends_the_wait_and_the_call() -> None:
    never = asyncio.Event()

    async def absent_person(request: InputRequest) -> InputAnswer:
        await never.wait()
        raise AssertionError("unreachable")

    source = AskingSource(form())
    call, events = make_call(source, "t", "a", {}, input_gate=absent_person)
    task = asyncio.ensure_future(call.run())
    while not any(isinstance(event, ev.ElicitationRequested) for event in events):
        await asyncio.sleep(0.01)
    call.cancel("the user pressed escape")
    result = await asyncio.wait_for(task, 5)
    assert result.error is not None and result.error.type == ErrorType.CANCELLED
    assert "escape" in result.content
    state = run_state(call, events)
    assert state.phase.value == "cancelled"
    [exchange] = state.exchanges
    assert exchange.answer is None  # Nobody answered: the call ended first.


async def test_without_anyone_to_ask_a_request_is_declined() -> None:
    source = AskingSource(sampling_request({"messages": [], "maxTokens": 3}))
    run = await run_call(source, "t", "a", {})
    [answered] = [event for event in run.events if isinstance(event, ev.SamplingAnswered)]
    assert answered.answer.action == "decline" and answered.answer.by == "default"
    assert run.result.content == "decline"


async def test_a_refused_request_never_reaches_the_person() -> None:
    asked: list[InputRequest] = []

    async def person(request: InputRequest) -> InputAnswer:
        asked.append(request)
        return InputAnswer("accept")

    source = AskingSource(elicitation_request("Log in", mode="url", url="javascript:alert(1)"))
    run = await run_call(source, "t", "a", {}, input_gate=person)
    assert asked == []
    [answered] = [event for event in run.events if isinstance(event, ev.ElicitationAnswered)]
    assert answered.answer.action == "decline" and answered.answer.by == "workbench"
    assert "javascript" in answered.answer.note


async def test_a_source_that_asks_in_a_loop_is_stopped_after_the_limit() -> None:
    answered: list[InputRequest] = []

    async def person(request: InputRequest) -> InputAnswer:
        answered.append(request)
        return InputAnswer("decline")

    source = AskingSource(form(), times=1000)
    run = await run_call(source, "t", "a", {}, input_gate=person)
    assert len(answered) == MAX_INPUT_REQUESTS
    assert isinstance(run.terminal, ev.Failed)
    assert run.result.error is not None and run.result.error.type == ErrorType.INPUT_LIMIT
    assert f"the limit is {MAX_INPUT_REQUESTS}" in run.result.content
    asked = [event for event in run.events if isinstance(event, ev.ElicitationRequested)]
    assert len(asked) == MAX_INPUT_REQUESTS
    assert run.state().phase.value == "failed"


def run_state(call: Any, events: list[ev.CallEvent]) -> Any:
    return CallRun(call=call, result=call.result, events=events).state()
