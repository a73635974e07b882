"""What the SDK refuses before any callback sees it is still shown: a malformed elicitation
from a real stdio server is answered -32602 by the SDK, and the call says so."""

from __future__ import annotations

import asyncio
import json

from tests.sources.helpers import faulty_spec, run_call
from workbench.core import events as ev
from workbench.core.interventions import InputAnswer, InputRequest
from workbench.sources.base import SourceState
from workbench.sources.mcp_source import McpSource


async def test_a_malformed_elicitation_is_refused_and_reported_in_the_call() -> None:
    source = McpSource(faulty_spec())
    await asyncio.wait_for(source.start(), 20)
    assert source.status.state is SourceState.READY, source.status
    asked: list[InputRequest] = []

    async def person(request: InputRequest) -> InputAnswer:
        asked.append(request)
        return InputAnswer("accept", content={})

    try:
        run = await asyncio.wait_for(
            run_call(source, "faulty", "bad_elicit", {}, input_gate=person), 20
        )
    finally:
        await source.stop()
    assert asked == []  # Never shown: the SDK refused it first.
    answer = json.loads(run.result.content.removeprefix("client answered: "))
    assert answer["id"] == "elicit-1" and answer["error"]["code"] == -32602
    notices = [event.text for event in run.events if isinstance(event, ev.ServerNotice)]
    [notice] = [text for text in notices if "malformed" in text]
    assert "elicitation/create" in notice and "-32602" in notice
    assert "requestedSchema" in notice
    assert "1 malformed request(s) to the client refused" in "; ".join(source.problems)
