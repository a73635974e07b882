"""The whole MCP conversation against an in-process server (legacy handshake, which has the
back-channel server -> client requests need): elicitation, sampling, roots, logging, list
changes, resources, templates, prompts and MCP Apps, including bad input."""

from __future__ import annotations

import asyncio
import io
import tracemalloc
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from rich.console import Console

from tests.sources.helpers import render_card, run_call
from tests.sources.servers.conversation import build_server
from workbench.core import events as ev
from workbench.core.call_record import CallRecord
from workbench.core.interventions import ElicitationRequest, InputAnswer, InputRequest
from workbench.core.result import ErrorType
from workbench.sources.base import SourceState
from workbench.sources.call_runner import MAX_INPUT_REQUESTS
from workbench.sources.manager import ToolManager
from workbench.sources.mcp_source import McpServerSpec, McpSource
from workbench.surfaces.context import DARK_PALETTE
from workbench.surfaces.server_requests import sampling_view

# The server side uses roots, sampling and logging, which 2026-07-28 deprecates.
pytestmark = pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[McpSource]:
    source = McpSource(
        McpServerSpec(name="conv", server=build_server(), mode="legacy"), roots=[tmp_path]
    )
    await asyncio.wait_for(source.start(), 20)
    assert source.status.state is SourceState.READY, source.status
    yield source
    await source.stop()


class Person:
    """Answers like a person would, and remembers what it was asked."""

    def __init__(self, **answers: InputAnswer) -> None:
        self.answers = answers
        self.asked: list[InputRequest] = []

    async def __call__(self, request: InputRequest) -> InputAnswer:
        self.asked.append(request)
        kind = request.kind if request.kind == "sampling" else getattr(request, "mode", "form")
        return self.answers.get(kind, InputAnswer("decline"))


def events_of(run: object, kind: type[ev.CallEvent]) -> list[ev.CallEvent]:
    return [event for event in run.events if isinstance(event, kind)]  # type: ignore[attr-defined]


# --- elicitation ----------------------------------------------------------------------------


async def test_a_form_elicitation_is_asked_mid_call_and_the_answer_reaches_the_server(
    server: McpSource,
) -> None:
    person = Person(form=InputAnswer("accept", content={"name": "Ada", "age": 36}))
    run = await run_call(server, "conv", "ask", {}, input_gate=person)
    assert run.result.content == "accept: {'name': 'Ada', 'age': 36}"
    [request] = person.asked
    assert isinstance(request, ElicitationRequest) and request.key == "elicitation-1"
    assert request.message == "What should we call you?"
    assert request.field_names == ["name", "age", "color"] and request.refused is None
    assert run.names[-4:] == ["Started", "ElicitationRequested", "ElicitationAnswered", "Completed"]
    record = CallRecord.start("conv", "ask")
    state = record.extend(run.events)
    assert [phase.value for phase in record.phases] == [
        "args-streaming",
        "executing",
        "awaiting-input",
        "done",
    ]
    assert state.exchanges[0].answer is not None and state.exchanges[0].answer.by == "user"


async def test_the_card_shows_the_form_while_the_server_waits(server: McpSource) -> None:
    waiting = asyncio.Event()
    release = asyncio.Event()

    async def slow(request: InputRequest) -> InputAnswer:
        waiting.set()
        await release.wait()
        return InputAnswer("decline")

    from tests.sources.helpers import CallRun, make_call

    call, events = make_call(server, "conv", "ask", {}, input_gate=slow)
    task = asyncio.ensure_future(call.run())
    await asyncio.wait_for(waiting.wait(), 5)
    state = CallRun(call=call, result=None, events=events).state()  # type: ignore[arg-type]
    text = render_card(state, server.manifest, width=80)
    assert "Awaiting your answer" in text and "The server asks for input" in text
    assert "What should we call you?" in text
    assert "name *" in text and "integer (0..150)" in text and "one of: Red, Green" in text
    release.set()
    await asyncio.wait_for(task, 5)


async def test_url_elicitation_shows_the_site_and_passes_consent_only(server: McpSource) -> None:
    person = Person(url=InputAnswer("accept"))
    run = await run_call(
        server,
        "conv",
        "ask_url",
        {"url": "https://auth.example.com/login?state=1"},
        input_gate=person,
    )
    assert run.result.content == "url accept"
    [request] = person.asked
    assert isinstance(request, ElicitationRequest)
    assert request.mode == "url" and request.url == "https://auth.example.com/login?state=1"
    assert request.elicitation_id == "el-1"
    # The completion notification arrives and is told to the call.
    notices = [event.text for event in events_of(run, ev.ServerNotice)]  # type: ignore[attr-defined]
    assert any("URL elicitation el-1 is complete" in text for text in notices)


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(document.cookie)",
        "file:///etc/passwd",
        "data:text/html;base64,PHNjcmlwdD4=",
        "https://evil.example/\x1b]8;;x\x07",
    ],
)
async def test_hostile_urls_are_refused_without_asking(server: McpSource, url: str) -> None:
    person = Person(url=InputAnswer("accept"))
    run = await run_call(server, "conv", "ask_url", {"url": url}, input_gate=person)
    assert person.asked == []
    assert run.result.content == "url decline"
    [answered] = events_of(run, ev.ElicitationAnswered)
    assert answered.answer.by == "workbench" and answered.answer.note.startswith("refused")  # type: ignore[attr-defined]
    text = render_card(run.state(), server.manifest)
    assert "\x1b" not in text


async def test_a_schema_outside_the_spec_is_refused_without_asking(server: McpSource) -> None:
    person = Person(form=InputAnswer("accept", content={}))
    run = await run_call(
        server,
        "conv",
        "ask_schema",
        {"schema": {"type": "object", "properties": {"address": {"type": "object"}}}},
        input_gate=person,
    )
    assert person.asked == [] and run.result.content == "decline: None"
    [asked] = events_of(run, ev.ElicitationRequested)
    assert "type 'object' is not allowed" in (asked.request.refused or "")  # type: ignore[attr-defined]


async def test_a_server_that_elicits_in_a_loop_is_stopped(server: McpSource) -> None:
    person = Person(form=InputAnswer("decline"))
    run = await asyncio.wait_for(
        run_call(server, "conv", "ask_loop", {"times": 10_000}, input_gate=person), 20
    )
    assert len(person.asked) == MAX_INPUT_REQUESTS
    assert run.result.error is not None and run.result.error.type == ErrorType.INPUT_LIMIT
    # The server is told to stop (notifications/cancelled); it gives up within a moment.
    await asyncio.sleep(0.2)
    before = server.conversation.counts["elicitation/create"]
    await asyncio.sleep(0.3)
    assert server.conversation.counts["elicitation/create"] == before
    assert before <= MAX_INPUT_REQUESTS + 3


# --- sampling -------------------------------------------------------------------------------


async def test_sampling_shows_what_the_model_would_get_and_returns_the_persons_reply(
    server: McpSource,
) -> None:
    person = Person(sampling=InputAnswer("accept", reply="4", model="a-person"))
    run = await run_call(server, "conv", "sample", {"chars": 20}, input_gate=person)
    assert run.result.content == "a-person said: 4"
    [request] = person.asked
    assert request.kind == "sampling"
    assert request.system_prompt == "Answer with a number."  # type: ignore[union-attr]
    assert request.max_tokens == 50 and request.temperature == 0.2  # type: ignore[union-attr]
    assert request.model_hints == ("claude-3-haiku",)  # type: ignore[union-attr]
    assert request.speed_priority == 0.8  # type: ignore[union-attr]
    assert request.messages[0].text.startswith("2+2?")  # type: ignore[union-attr]


async def test_a_rejected_sampling_request_is_an_error_for_the_server(server: McpSource) -> None:
    run = await run_call(server, "conv", "sample", {}, input_gate=Person())
    assert run.result.content.startswith("sampling failed: User rejected sampling request")


async def test_a_ten_megabyte_sampling_request_is_shown_cut_and_stays_bounded(
    server: McpSource,
) -> None:
    person = Person(sampling=InputAnswer("accept", reply="ok"))
    tracemalloc.start()
    try:
        run = await run_call(server, "conv", "sample", {"chars": 10_000_000}, input_gate=person)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert run.result.content.endswith("said: ok")
    [asked] = events_of(run, ev.SamplingRequested)
    [message] = asked.request.messages  # type: ignore[attr-defined]
    assert message.chars == 10_000_000 and len(message.text) == 8_000
    # The SDK parses the 10 MB request a few times over; what the call keeps is 8,000 characters.
    assert peak < 400 * 1024 * 1024
    console = Console(record=True, width=80, color_system=None, file=io.StringIO())
    console.print(sampling_view(asked.request, DARK_PALETTE, 76))  # type: ignore[attr-defined]
    shown = console.export_text()
    assert "showing 8,000 of 10,000,000 characters" in shown
    assert len(shown) < 20_000


# --- roots, logging, notifications ----------------------------------------------------------


async def test_roots_are_answered_and_changing_them_tells_the_server(
    server: McpSource, tmp_path: Path
) -> None:
    run = await run_call(server, "conv", "roots", {})
    assert run.result.content == tmp_path.resolve().as_uri()
    [notice] = events_of(run, ev.ServerNotice)
    assert "listed the client's roots" in notice.text  # type: ignore[attr-defined]
    other = tmp_path / "other"
    other.mkdir()
    await server.set_roots([tmp_path, other])
    run = await run_call(server, "conv", "roots", {})
    assert run.result.content == f"{tmp_path.resolve().as_uri()}, {other.resolve().as_uri()}"
    assert any("roots changed" in line.text for line in server.server_log.lines)


async def test_logs_progress_list_changes_and_resource_updates_reach_the_call(
    server: McpSource,
) -> None:
    run = await run_call(server, "conv", "chatty", {"lines": 2})
    logs = [(event.level, event.logger, event.text) for event in events_of(run, ev.LogMessage)]  # type: ignore[attr-defined]
    assert logs == [
        ("info", "chatty", "line 1"),
        ("info", "chatty", "line 2"),
        ("warning", "", '{"disk": "92% full"}'),
    ]
    assert [event.what for event in events_of(run, ev.ListChanged)] == ["tools"]  # type: ignore[attr-defined]
    assert [event.uri for event in events_of(run, ev.ResourceUpdated)] == ["res://note.txt"]  # type: ignore[attr-defined]
    assert len(events_of(run, ev.Progress)) == 3
    state = run.state()
    assert state.server_messages.total == 5
    kinds = [line.kind for line in server.server_log.lines]
    assert {"log", "list-changed", "resource-updated"} <= set(kinds)


async def test_a_log_flood_stays_bounded_in_the_call(server: McpSource) -> None:
    # 10k notifications take ~6 s here alone; on a loaded CI machine more than the default 10 s.
    run = await asyncio.wait_for(
        run_call(server, "conv", "flood", {"lines": 10_000}, timeout_ms=50_000), 60
    )
    assert run.result.content == "sent 10000 lines"
    state = run.state()
    assert state.server_messages.total == 10_000
    assert len(state.server_messages.items) == 200
    assert state.server_messages.items[-1].text == "flood 9999"
    assert len(server.server_log.lines) == 1_000 and server.server_log.total >= 10_000


async def test_a_changed_tool_list_is_listed_again(server: McpSource) -> None:
    before = server.revision
    assert "added" not in server.manifest.api_names()  # type: ignore[union-attr]
    run = await run_call(server, "conv", "add_tool", {})
    assert run.result.content == "added added"
    for _ in range(50):
        if "added" in server.manifest.api_names():  # type: ignore[union-attr]
            break
        await asyncio.sleep(0.05)
    assert "added" in server.manifest.api_names()  # type: ignore[union-attr]
    assert server.revision > before
    again = await run_call(server, "conv", "added", {})
    assert again.result.content == "I was added"


# --- resources, templates, prompts ----------------------------------------------------------


async def test_resources_templates_and_prompts_are_listed(server: McpSource) -> None:
    assert {item.uri for item in server.resources} >= {
        "res://note.txt",
        "res://data.json",
        "res://logo.png",
        "res://blob.bin",
        "ui://clock/app.html",
    }
    [template] = server.templates
    assert template.uri_template == "res://item/{item_id}" and template.variables == ["item_id"]
    [prompt] = server.prompts
    assert prompt.name == "greet"
    assert [(argument.name, argument.required) for argument in prompt.arguments] == [
        ("name", True),
        ("style", False),
    ]
    assert prompt.schema()["required"] == ["name"]


async def test_without_the_catalog_only_what_an_app_ui_needs_is_listed(
    server: McpSource, tmp_path: Path
) -> None:
    """`workbench call` and `tools` skip templates and prompts; an app UI still gets the
    resource listing it reads its metadata from, so its manifest is the same."""
    bare = McpSource(
        McpServerSpec(name="conv", server=build_server(), mode="legacy"),
        roots=[tmp_path],
        catalog=False,
    )
    await asyncio.wait_for(bare.start(), 20)
    try:
        assert bare.templates == [] and bare.prompts == []
        assert {item.uri for item in bare.resources} == {item.uri for item in server.resources}
        assert bare.manifest == server.manifest
    finally:
        await bare.stop()


async def test_resources_read_as_text_json_image_and_binary(server: McpSource) -> None:
    note = await server.read_resource("res://note.txt")
    assert note.error is None and note.parts[0].text == "Remember the milk.\n"
    data = await server.read_resource("res://data.json")
    assert data.parts[0].json_value == {"items": [1, 2, 3], "ok": True}
    logo = await server.read_resource("res://logo.png")
    assert logo.parts[0].text is None
    assert (logo.parts[0].width, logo.parts[0].height) == (1, 1)
    assert logo.parts[0].describe() == "image/png, 70 bytes, 1×1 px"
    blob = await server.read_resource("res://blob.bin")
    assert blob.parts[0].describe() == "application/octet-stream, 1,024 bytes"
    item = await server.read_resource(server.templates[0].expand({"item_id": "7"}))
    assert item.parts[0].text == "item 7"
    missing = await server.read_resource("res://nope")
    assert missing.parts == () and "Unknown resource" in (missing.error or "")


async def test_a_prompt_is_rendered_with_its_arguments(server: McpSource) -> None:
    rendered = await server.get_prompt("greet", {"name": "Ada", "style": "formal"})
    assert rendered.error is None
    assert [(message.role, message.text) for message in rendered.messages] == [
        ("user", "Say hello to Ada in a formal way.")
    ]
    broken = await server.get_prompt("greet", {})
    assert broken.error is not None and "greet" in broken.error


# --- MCP Apps -------------------------------------------------------------------------------


async def test_app_tools_carry_their_ui_resource_and_its_metadata(server: McpSource) -> None:
    manifest = server.manifest
    assert manifest is not None
    clock = manifest.get_api("clock")
    assert clock is not None and clock.ui is not None
    assert clock.ui.resource_uri == "ui://clock/app.html"
    resource = clock.ui.resource
    assert resource is not None and resource.mime_type == "text/html;profile=mcp-app"
    assert resource.meta["csp"] == {"connectDomains": ["https://api.example.com"]}
    assert resource.meta["permissions"] == {"clipboardWrite": {}}
    assert resource.meta["prefersBorder"] is True and resource.problems == []
    broken = manifest.get_api("broken_ui")
    assert broken is not None and broken.ui is not None and broken.ui.resource is not None
    assert any(
        "could not read its UI resource" in problem for problem in broken.ui.resource.problems
    )
    assert any(problem.startswith("app UI of broken_ui") for problem in server.problems)


async def test_an_app_only_tool_is_never_offered_to_the_model(server: McpSource) -> None:
    manager = ToolManager([server])
    names = [function["function"]["name"] for function in manager.openai_tools()]
    assert "conv__clock" in names and "conv__refresh" not in names


async def test_the_portal_shows_the_ui_and_flags_a_missing_text_fallback(server: McpSource) -> None:
    from workbench.surfaces.card import portal_renderable
    from workbench.surfaces.context import SurfaceContext
    from workbench.surfaces.registry import SurfaceRegistry

    def portal(api: str) -> str:
        console = Console(record=True, width=100, color_system=None, file=io.StringIO())
        console.print(
            portal_renderable(
                SurfaceContext(state=run.state(), manifest=server.manifest, width=100),
                SurfaceRegistry(),
            )
        )
        return console.export_text()

    run = await run_call(server, "conv", "clock", {})
    text = portal("clock")
    assert "app UI (MCP Apps)" in text and "ui://clock/app.html" in text
    assert "https://api.example.com" in text and "clipboardWrite" in text
    # The app's text is drawn once: as the content, not again as state or as the fallback.
    assert text.count("It is 12:00 UTC.") == 1 and "no text fallback" not in text
    assert "text fallback: the content above" in text
    card = render_card(run.state(), server.manifest)
    assert "has an app UI" in card
    run = await run_call(server, "conv", "chart", {})
    assert "no text fallback" in portal("chart")
