"""server-everything with every capability a client can declare: all 17 tools it offers such
a client, its resources, templates and prompts, its logging and subscriptions.

(19 tools would need MCP tasks, which the SDK cannot declare; its task-only tool is listed
and fails with the server's own message.)
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.sources.helpers import render_card, run_call
from tests.sources.test_reference_servers import BOUND_S, install_everything
from workbench.core import events as ev
from workbench.core.interventions import ElicitationRequest, InputAnswer, InputRequest
from workbench.sources.base import SourceState
from workbench.sources.mcp_source import McpServerSpec, McpSource

pytestmark = pytest.mark.asyncio(loop_scope="module")

TOOLS = [
    "echo",
    "get-annotated-message",
    "get-env",
    "get-resource-links",
    "get-resource-reference",
    "get-structured-content",
    "get-sum",
    "get-tiny-image",
    "gzip-file-as-resource",
    "toggle-simulated-logging",
    "toggle-subscriber-updates",
    "trigger-long-running-operation",
    "get-roots-list",
    "trigger-elicitation-request",
    "trigger-url-elicitation",
    "trigger-sampling-request",
    "simulate-research-query",
]
NAME = "everything"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("workspace")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def everything(workspace: Path) -> AsyncIterator[McpSource]:
    node = shutil.which("node")
    entry = install_everything()
    assert node is not None
    source = McpSource(
        McpServerSpec(
            name=NAME, command=node, args=[str(entry), "stdio"], env={"NODE_ENV": "test"}
        ),
        roots=[workspace],
        log_level="debug",
    )
    await asyncio.wait_for(source.start(), BOUND_S)
    assert source.status.state is SourceState.READY, source.status
    yield source
    await asyncio.wait_for(source.stop(), BOUND_S)


class Person:
    def __init__(self, answer: InputAnswer) -> None:
        self.answer = answer
        self.asked: list[InputRequest] = []

    async def __call__(self, request: InputRequest) -> InputAnswer:
        self.asked.append(request)
        return self.answer


async def call(source: McpSource, api: str, args: dict[str, object], **options: object) -> object:
    return await asyncio.wait_for(run_call(source, NAME, api, args, **options), BOUND_S)


async def test_every_capability_declared_unlocks_seventeen_tools(everything: McpSource) -> None:
    assert everything.manifest is not None
    assert everything.manifest.api_names() == TOOLS
    # The task-only tool is called as a task: no longer a problem to report.
    assert everything.task_tools == {"simulate-research-query"}
    assert not any("MCP task" in problem for problem in everything.problems)


async def test_echo_sum_structured_and_annotated(everything: McpSource) -> None:
    assert (await call(everything, "echo", {"message": "hi"})).result.content == "Echo: hi"  # type: ignore[attr-defined]
    assert "is 42" in (await call(everything, "get-sum", {"a": 40, "b": 2})).result.content  # type: ignore[attr-defined]
    weather = await call(everything, "get-structured-content", {"location": "Chicago"})
    assert set(weather.result.state) == {"temperature", "conditions", "humidity"}  # type: ignore[attr-defined]
    for kind in ("error", "success", "debug"):
        run = await call(
            everything, "get-annotated-message", {"messageType": kind, "includeImage": True}
        )
        blocks = run.result.state["blocks"]  # type: ignore[attr-defined]
        assert [block["type"] for block in blocks] == ["text", "image"], kind


async def test_env_image_links_and_references(everything: McpSource) -> None:
    env = await call(everything, "get-env", {})
    assert json.loads(env.result.content)["NODE_ENV"] == "test"  # type: ignore[attr-defined]
    image = await call(everything, "get-tiny-image", {})
    assert "[image: image/png" in image.result.content  # type: ignore[attr-defined]
    links = await call(everything, "get-resource-links", {"count": 2})
    uris = [b["uri"] for b in links.result.state["blocks"] if b["type"] == "resource_link"]  # type: ignore[attr-defined]
    assert len(uris) == 2
    read = await everything.read_resource(uris[1])
    assert read.error is None and read.parts[0].text is not None  # "Text Resource 2"
    for kind in ("Text", "Blob"):
        run = await call(
            everything, "get-resource-reference", {"resourceType": kind, "resourceId": 3}
        )
        [resource] = [b for b in run.result.state["blocks"] if b["type"] == "resource"]  # type: ignore[attr-defined]
        assert ("text" in resource) == (kind == "Text")


async def test_gzip_a_data_uri_then_read_the_session_resource(everything: McpSource) -> None:
    data = "data:text/plain;base64,aGVsbG8gd29ybGQ="
    run = await call(
        everything,
        "gzip-file-as-resource",
        {"name": "hello.txt.gz", "data": data, "outputType": "resourceLink"},
    )
    [link] = [b for b in run.result.state["blocks"] if b["type"] == "resource_link"]  # type: ignore[attr-defined]
    read = await everything.read_resource(link["uri"])
    assert read.error is None
    [part] = read.parts
    assert part.mime_type == "application/gzip" and part.text is None and part.size > 10
    embedded = await call(
        everything,
        "gzip-file-as-resource",
        {"name": "again.gz", "data": data, "outputType": "resource"},
    )
    assert "[resource demo://resource/session/again.gz" in embedded.result.content  # type: ignore[attr-defined]


async def test_long_running_operation_reports_progress(everything: McpSource) -> None:
    run = await call(everything, "trigger-long-running-operation", {"duration": 1, "steps": 3})
    progress = [
        (event.progress, event.total) for event in run.events if isinstance(event, ev.Progress)
    ]  # type: ignore[attr-defined]
    assert progress == [(1, 3), (2, 3), (3, 3)]


async def test_roots_are_the_workspace_and_a_change_is_announced(
    everything: McpSource, workspace: Path
) -> None:
    run = await call(everything, "get-roots-list", {})
    assert workspace.resolve().as_uri() in run.result.content  # type: ignore[attr-defined]
    extra = workspace / "extra"
    extra.mkdir(exist_ok=True)
    await everything.set_roots([workspace, extra])
    for _ in range(40):  # The server asks for the roots again when told they changed.
        run = await call(everything, "get-roots-list", {})
        if extra.resolve().as_uri() in run.result.content:  # type: ignore[attr-defined]
            break
        await asyncio.sleep(0.05)
    assert "(2 total)" in run.result.content  # type: ignore[attr-defined]
    await everything.set_roots([workspace])


async def test_form_elicitation_accepted_and_declined(everything: McpSource) -> None:
    accept = Person(InputAnswer("accept", content={"name": "Ada", "check": True}))
    run = await call(everything, "trigger-elicitation-request", {}, input_gate=accept)
    assert "User provided the requested information" in run.result.content  # type: ignore[attr-defined]
    assert "- Name: Ada" in run.result.content  # type: ignore[attr-defined]
    [request] = accept.asked
    assert isinstance(request, ElicitationRequest) and request.refused is None
    assert {"name", "check", "email", "titledSingleSelectEnum"} <= set(request.field_names)
    declined = await call(
        everything, "trigger-elicitation-request", {}, input_gate=Person(InputAnswer("decline"))
    )
    assert "User declined" in declined.result.content  # type: ignore[attr-defined]


async def test_url_elicitation_both_paths(everything: McpSource) -> None:
    person = Person(InputAnswer("accept"))
    run = await call(
        everything, "trigger-url-elicitation", {"url": "https://example.com/a"}, input_gate=person
    )
    assert "User completed the URL elicitation flow" in run.result.content  # type: ignore[attr-defined]
    assert person.asked[0].url == "https://example.com/a"  # type: ignore[union-attr]
    # The error path: -32042 first, the URLs shown, then the call made again.
    person = Person(InputAnswer("accept"))
    run = await call(
        everything,
        "trigger-url-elicitation",
        {"url": "https://example.com/b", "errorPath": True},
        input_gate=person,
    )
    assert run.result.success  # type: ignore[attr-defined]
    assert len(person.asked) >= 1
    declined = await call(
        everything,
        "trigger-url-elicitation",
        {"url": "https://example.com/c", "errorPath": True},
        input_gate=Person(InputAnswer("decline")),
    )
    assert declined.result.success is False  # type: ignore[attr-defined]
    assert "needs the user to visit" in declined.result.content  # type: ignore[attr-defined]


async def test_sampling_request_is_answered_by_a_person(everything: McpSource) -> None:
    person = Person(InputAnswer("accept", reply="a haiku", model="person"))
    run = await call(
        everything,
        "trigger-sampling-request",
        {"prompt": "write", "maxTokens": 30},
        input_gate=person,
    )
    assert '"text": "a haiku"' in run.result.content and '"model": "person"' in run.result.content  # type: ignore[attr-defined]
    [request] = person.asked
    assert request.max_tokens == 30 and request.system_prompt == "You are a helpful test server."  # type: ignore[union-attr]
    rejected = await call(everything, "trigger-sampling-request", {"prompt": "x"})
    assert "User rejected sampling request" in rejected.result.content  # type: ignore[attr-defined]


async def test_the_task_only_tool_asks_its_question_while_running_as_a_task(
    everything: McpSource,
) -> None:
    # An ambiguous query: the task turns input_required, and its question arrives while the
    # client waits on tasks/result; the answer goes back and the task completes.
    person = Person(InputAnswer("decline"))
    run = await call(
        everything,
        "simulate-research-query",
        {"topic": "tea", "ambiguous": True},
        input_gate=person,
    )
    assert run.result.success is True, run.result  # type: ignore[attr-defined]
    assert "# Research Report: tea (User declined" in run.result.content  # type: ignore[attr-defined]
    [question] = person.asked
    assert isinstance(question, ElicitationRequest)
    assert "could have multiple interpretations" in question.message
    assert "Research Report: tea" in render_card(run.state(), everything.manifest)  # type: ignore[attr-defined]


async def test_simulated_logging_and_subscriber_updates_arrive(everything: McpSource) -> None:
    uri = everything.resources[0].uri
    assert await everything.subscribe(uri) is None
    logs_before = sum(1 for line in everything.server_log.lines if line.kind == "log")
    for api in ("toggle-simulated-logging", "toggle-subscriber-updates"):
        assert "Started" in (await call(everything, api, {})).result.content  # type: ignore[attr-defined]
    try:
        for _ in range(150):  # Both come every 5 s.
            kinds = [line.kind for line in everything.server_log.lines]
            if kinds.count("log") > logs_before and "resource-updated" in kinds:
                break
            await asyncio.sleep(0.1)
        lines = list(everything.server_log.lines)
        assert any(line.kind == "resource-updated" and uri in line.text for line in lines)
        # The server picks one of eight messages at random, and spells one "Alert level-message".
        assert any(
            line.kind == "log" and re.search(r"level.message", line.text.lower()) for line in lines
        )
    finally:
        for api in ("toggle-simulated-logging", "toggle-subscriber-updates"):
            await call(everything, api, {})


async def test_resources_templates_and_prompts(everything: McpSource) -> None:
    assert len(everything.resources) >= 7
    assert [t.uri_template for t in everything.templates] == [
        "demo://resource/dynamic/text/{resourceId}",
        "demo://resource/dynamic/blob/{resourceId}",
    ]
    text = await everything.read_resource(everything.templates[0].expand({"resourceId": "5"}))
    assert text.error is None and text.parts[0].text is not None
    blob = await everything.read_resource(everything.templates[1].expand({"resourceId": "5"}))
    assert blob.parts[0].text is None and blob.parts[0].size > 0
    doc = await everything.read_resource(everything.resources[0].uri)
    assert doc.parts[0].mime_type == "text/markdown" and doc.parts[0].chars > 100
    assert [p.name for p in everything.prompts] == [
        "simple-prompt",
        "args-prompt",
        "completable-prompt",
        "resource-prompt",
    ]
    simple = await everything.get_prompt("simple-prompt", {})
    assert simple.error is None and simple.messages
    city = await everything.get_prompt("args-prompt", {"city": "Lisbon"})
    assert "Lisbon" in city.messages[0].text
    resource = await everything.get_prompt(
        "resource-prompt", {"resourceType": "Text", "resourceId": "2"}
    )
    assert any(message.text.startswith("[resource ") for message in resource.messages)
