"""McpSource over in-process and streamable-HTTP servers: manifests, every result kind, failures."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from mcp import MCPError
from mcp.server.mcpserver import Context, MCPServer

from tests.net.local_server import closed_port
from tests.sources.helpers import render_card, run_call, serve_asgi
from workbench.core import events as ev
from workbench.core.result import ErrorType
from workbench.core.runtime import CallContext
from workbench.sources.base import SourceState
from workbench.sources.demo_server import build_server
from workbench.sources.mcp_source import McpServerSpec, McpSource

DEMO_APIS = {
    "echo",
    "weather",
    "tiny_image",
    "resource_links",
    "embedded_resource",
    "count_down",
    "fail",
    "sleep",
    "delete_file",
    # The rest of the conversation: elicitation, sampling, logging, an MCP App.
    "ask_profile",
    "sign_in",
    "summarize",
    "chatty",
    "clock",
}


@pytest.fixture
async def demo() -> AsyncIterator[McpSource]:
    source = McpSource(McpServerSpec(name="demo", server=build_server()))
    await source.start()
    assert source.status.state is SourceState.READY, source.status
    yield source
    await source.stop()


async def invoke(source: McpSource, api: str, args: dict[str, Any] | None = None) -> Any:
    return await source.invoke(source.name, api, args or {}, CallContext())


# --- the manifest ---------------------------------------------------------------------------------


async def test_demo_server_is_one_tool_whose_apis_are_its_mcp_tools(demo: McpSource) -> None:
    assert demo.status.detail == "14 tools over in-process"
    [manifest] = demo.list_tools()
    assert manifest.identifier == "demo"
    assert manifest.type == "mcp"
    assert manifest.meta.title == "workbench-demo"
    assert manifest.meta.description == "A demo server showing every kind of MCP result."
    assert set(manifest.api_names()) == DEMO_APIS
    assert demo.server_name == "workbench-demo"
    assert demo.has_tool("demo") and demo.get_tool("demo") is manifest


async def test_destructive_tools_require_approval_and_read_only_tools_never_ask(
    demo: McpSource,
) -> None:
    manifest = demo.list_tools()[0]
    assert manifest.effective_intervention("delete_file") == "required"
    for name in DEMO_APIS - {"delete_file"}:
        assert manifest.effective_intervention(name) == "never", name


async def test_schemas_come_from_the_server(demo: McpSource) -> None:
    manifest = demo.list_tools()[0]
    echo = manifest.get_api("echo")
    assert echo is not None
    assert echo.description == "Echo the text back, unchanged."
    assert echo.parameters["properties"]["text"]["type"] == "string"
    assert echo.parameters["required"] == ["text"]
    weather = manifest.get_api("weather")
    assert weather is not None and weather.output_schema is not None
    assert set(weather.output_schema["properties"]) == {
        "city",
        "temperature_c",
        "conditions",
        "humidity",
    }


async def test_a_nameless_spec_takes_the_slugified_server_name() -> None:
    source = McpSource(McpServerSpec(name="", server=build_server()))
    assert source.name == "mcp"
    await source.start()
    try:
        assert source.name == "workbench-demo"
        assert source.list_tools()[0].identifier == "workbench-demo"
    finally:
        await source.stop()


async def test_tool_allow_list_and_policy_overrides_of_the_spec() -> None:
    source = McpSource(
        McpServerSpec(
            name="demo",
            server=build_server(),
            tools=["echo", "delete_file"],
            policies={"echo": "always", "delete_file": "never"},
        )
    )
    await source.start()
    try:
        manifest = source.list_tools()[0]
        assert manifest.api_names() == ["echo", "delete_file"]
        assert manifest.effective_intervention("echo") == "always"
        assert manifest.effective_intervention("delete_file") == "never"
        assert source.status.detail == "2 tools over in-process"
    finally:
        await source.stop()


# --- every kind of result ------------------------------------------------------------------------


async def test_text_becomes_content(demo: McpSource) -> None:
    result = await invoke(demo, "echo", {"text": "hello, workbench"})
    assert result.success is True
    assert result.content == "hello, workbench"
    assert result.state is None


async def test_structured_content_becomes_state(demo: McpSource) -> None:
    result = await invoke(demo, "weather", {"city": "oslo"})
    assert result.success is True
    assert result.state == {
        "city": "Oslo",
        "temperature_c": -3.0,
        "conditions": "snow",
        "humidity": 81,
    }
    assert '"conditions": "snow"' in result.content


async def test_is_error_becomes_a_failed_result_of_type_mcp_tool_error(demo: McpSource) -> None:
    result = await invoke(demo, "fail", {"reason": "the disk is on fire"})
    assert result.success is False
    assert result.error is not None and result.error.type == "McpToolError"
    assert "the disk is on fire" in result.error.message
    assert "the disk is on fire" in result.content
    unknown_city = await invoke(demo, "weather", {"city": "atlantis"})
    assert unknown_city.success is False and "no forecast for 'atlantis'" in unknown_city.content


async def test_image_becomes_a_block_summary_with_type_and_size(demo: McpSource) -> None:
    result = await invoke(demo, "tiny_image", {"size": 12})
    assert result.success is True
    [block] = result.state["blocks"]
    assert block["type"] == "image" and block["mimeType"] == "image/png"
    assert block["width"] == 12 and block["height"] == 12
    assert block["bytes"] > 50
    assert result.content == f"[image: image/png, {block['bytes']:,} bytes, 12x12]"


async def test_resource_links_become_link_blocks(demo: McpSource) -> None:
    result = await invoke(demo, "resource_links", {"count": 2})
    blocks = result.state["blocks"]
    assert blocks[0] == {"type": "text", "text": "2 related documents:"}
    assert blocks[1] == {
        "type": "resource_link",
        "name": "chapter-1.md",
        "uri": "file:///docs/chapter-1.md",
        "title": "Chapter 1",
        "description": "Chapter 1 of the guide",
        "mimeType": "text/markdown",
    }
    assert [block["uri"] for block in blocks[1:]] == [
        "file:///docs/chapter-1.md",
        "file:///docs/chapter-2.md",
    ]
    assert "[link: Chapter 2 <file:///docs/chapter-2.md>]" in result.content


async def test_embedded_text_resource_is_inlined(demo: McpSource) -> None:
    result = await invoke(demo, "embedded_resource")
    assert result.state["blocks"][1] == {
        "type": "resource",
        "uri": "file:///etc/demo/config.toml",
        "mimeType": "application/toml",
        "text": "[server]\nport = 8080\nworkers = 4\n",
    }
    assert result.content.startswith(
        "The current configuration:\n[resource file:///etc/demo/config.toml]\n[server]\nport = 8080"
    )


async def test_progress_reports_reach_the_call_context(demo: McpSource) -> None:
    reports: list[tuple[float | None, float | None, str | None]] = []
    result = await demo.invoke(
        "demo",
        "count_down",
        {"steps": 3, "delay": 0.01},
        CallContext(progress=lambda value, total, message: reports.append((value, total, message))),
    )
    assert result.content == "counted down 3 steps"
    assert reports == [(1, 3, "step 1 of 3"), (2, 3, "step 2 of 3"), (3, 3, "step 3 of 3")]


async def test_the_generic_render_shows_images_links_and_resources(demo: McpSource) -> None:
    manifest = demo.list_tools()[0]
    image = await run_call(demo, "demo", "tiny_image", {"size": 12})
    text = render_card(image.state(), manifest)
    assert "image/png" in text and "image" in text
    assert re.search(r"12\s*[×x]\s*12", text), text
    links = await run_call(demo, "demo", "resource_links", {"count": 2})
    text = render_card(links.state(), manifest)
    for expected in (
        "Chapter 1",
        "Chapter 2",
        "file:///docs/chapter-1.md",
        "file:///docs/chapter-2.md",
    ):
        assert expected in text, text
    resource = await run_call(demo, "demo", "embedded_resource", {})
    text = render_card(resource.state(), manifest)
    assert "file:///etc/demo/config.toml" in text and "workers = 4" in text


# --- protocol errors and lifecycle ----------------------------------------------------------------


def protocol_error_server() -> MCPServer:
    server = MCPServer("strict", log_level="WARNING")

    @server.tool(structured_output=False)
    def refuse() -> str:
        raise MCPError(-32602, "refused: bad params", {"hint": "try again"})

    del refuse
    return server


async def test_a_json_rpc_error_from_the_server_is_a_protocol_error_result() -> None:
    source = McpSource(McpServerSpec(name="strict", server=protocol_error_server()))
    await source.start()
    try:
        result = await invoke(source, "refuse")
        assert result.success is False
        assert result.error is not None and result.error.type == ErrorType.PROTOCOL_ERROR
        assert (
            result.error.message == "strict answered refuse with error -32602: refused: bad params"
        )
        assert result.error.body == {"code": -32602, "data": {"hint": "try again"}}
        assert source.status.state is SourceState.READY  # One bad answer does not end the session.
        assert (await invoke(source, "refuse")).error is not None
    finally:
        await source.stop()


async def test_a_stopped_source_lists_nothing_and_answers_source_unavailable() -> None:
    source = McpSource(McpServerSpec(name="demo", server=build_server()))
    assert source.list_tools() == []
    before = await invoke(source, "echo", {"text": "x"})
    assert before.error is not None and before.error.type == ErrorType.SOURCE_UNAVAILABLE
    assert "demo is not connected" in before.content
    await source.start()
    assert (await invoke(source, "echo", {"text": "x"})).success is True
    await source.stop()
    assert source.status.state is SourceState.STOPPED
    assert source.list_tools() == []
    after = await invoke(source, "echo", {"text": "x"})
    assert after.error is not None and after.error.type == ErrorType.SOURCE_UNAVAILABLE
    await source.stop()  # A second stop is harmless.
    assert source.status.state is SourceState.STOPPED


async def test_a_source_can_be_started_again_after_stop() -> None:
    source = McpSource(McpServerSpec(name="demo", server=build_server(), mode="legacy"))
    await source.start()
    await source.stop()
    await source.start()
    try:
        assert source.status.state is SourceState.READY
        assert (await invoke(source, "echo", {"text": "again"})).content == "again"
    finally:
        await source.stop()


# --- specs from the command line and from mcp.json -----------------------------------------------


def test_spec_from_argument() -> None:
    stdio = McpServerSpec.from_argument("python -m 'my server' --flag")
    assert (stdio.command, stdio.args, stdio.transport) == (
        "python",
        ["-m", "my server", "--flag"],
        "stdio",
    )
    assert stdio.target == "python -m 'my server' --flag"
    http = McpServerSpec.from_argument("https://tools.example.invalid/mcp")
    assert (http.url, http.transport, http.target) == (
        "https://tools.example.invalid/mcp",
        "http",
        "https://tools.example.invalid/mcp",
    )
    with pytest.raises(ValueError, match="needs a command or a URL"):
        McpServerSpec.from_argument("   ")
    assert McpServerSpec(name="x", server=object()).transport == "in-process"


# --- streamable HTTP -----------------------------------------------------------------------------


def header_server() -> MCPServer:
    server = MCPServer("header-echo", log_level="WARNING")

    @server.tool(structured_output=False)
    async def whoami(ctx: Context) -> str:
        headers = ctx.headers or {}
        return f"authorization={headers.get('authorization')}; x-team={headers.get('x-team')}"

    del whoami
    return server


async def test_streamable_http_calls_with_headers_and_progress() -> None:
    with serve_asgi(header_server().streamable_http_app()) as origin:
        source = McpSource(
            McpServerSpec(
                name="remote",
                url=f"{origin}/mcp",
                headers={"Authorization": "Bearer s3cret", "X-Team": "tools"},
            )
        )
        await source.start()
        try:
            assert source.status.state is SourceState.READY, source.status
            assert source.status.detail == "1 tools over http"
            result = await invoke(source, "whoami")
            assert result.content == "authorization=Bearer s3cret; x-team=tools"
        finally:
            await source.stop()


async def test_the_demo_server_over_streamable_http() -> None:
    with serve_asgi(build_server().streamable_http_app()) as origin:
        source = McpSource(McpServerSpec(name="web", url=f"{origin}/mcp"))
        await source.start()
        try:
            assert source.server_name == "workbench-demo"
            assert (await invoke(source, "echo", {"text": "over http"})).content == "over http"
            assert (await invoke(source, "weather", {"city": "lisbon"})).state[
                "conditions"
            ] == "sunny"
            run = await run_call(source, "web", "count_down", {"steps": 3, "delay": 0.01})
            assert run.names.count("Progress") == 3
            assert (
                isinstance(run.terminal, ev.Completed)
                and run.result.content == "counted down 3 steps"
            )
        finally:
            await source.stop()
        assert source.status.state is SourceState.STOPPED


def refusing_app(status: int) -> Any:
    """An ASGI app answering every request with ``status``, like an MCP endpoint behind a token
    check."""

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", b"text/plain"), (b"www-authenticate", b"Bearer")],
            }
        )
        await send({"type": "http.response.body", "body": b"missing token"})

    return app


@pytest.mark.parametrize(
    ("status", "detail"),
    [(401, "HTTP 401 Unauthorized"), (403, "HTTP 403 Forbidden"), (500, "HTTP 500")],
)
async def test_http_error_statuses_are_reported_as_such(status: int, detail: str) -> None:
    with serve_asgi(refusing_app(status)) as origin:
        source = McpSource(
            McpServerSpec(name="locked", url=f"{origin}/mcp"), handshake_timeout_s=10
        )
        await source.start()
        try:
            assert source.status.state is SourceState.FAILED
            assert source.status.detail == f"{detail} from {origin}/mcp"
            assert source.list_tools() == []
        finally:
            await source.stop()


async def test_an_unreachable_port_cannot_connect() -> None:
    url = f"http://127.0.0.1:{closed_port()}/mcp"
    source = McpSource(McpServerSpec(name="gone", url=url), handshake_timeout_s=10)
    await source.start()
    try:
        assert source.status.state is SourceState.FAILED
        assert source.status.detail.startswith(f"cannot connect to {url}"), source.status.detail
    finally:
        await source.stop()
