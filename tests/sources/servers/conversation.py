"""An MCP server that uses the whole conversation: it elicits, samples, lists roots, logs,
changes its tool list, publishes resources, templates and prompts, and has MCP App tools.

In-process as ``build_server()`` (connect with ``mode="legacy"``: only the legacy handshake
has a back-channel for server -> client requests in-process), or over stdio::

    python tests/sources/servers/conversation.py
"""

from __future__ import annotations

import base64
import contextlib
import warnings
from typing import Any

import anyio
import mcp_types as types
from mcp.server.apps import Apps, ResourceCsp, ResourcePermissions
from mcp.server.mcpserver import Context, MCPServer

warnings.simplefilter("ignore")  # The SDK marks roots, sampling and logging deprecated (2026).

PNG_1x1 = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
APP_HTML = "<!doctype html><html><body><div id=clock></div></body></html>"
NAME_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Name", "description": "What to call you"},
        "age": {"type": "integer", "minimum": 0, "maximum": 150},
        "color": {
            "type": "string",
            "oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}],
        },
    },
    "required": ["name"],
}


def build_server(name: str = "conversation") -> MCPServer:
    """A fresh server (tests never share its state)."""
    apps = Apps()
    # The server reads the extension's tools when it is built: register them first.
    register_apps(apps)
    server = MCPServer(name, extensions=[apps], log_level="WARNING")

    @server.tool(description="Ask the user for their name (form elicitation).")
    async def ask(ctx: Context, message: str = "What should we call you?") -> str:
        result = await ctx.session.elicit_form(message, NAME_SCHEMA, ctx.request_id)
        return f"{result.action}: {result.content}"

    @server.tool(description="Ask with any schema (to test what a client refuses).")
    async def ask_schema(ctx: Context, schema: dict[str, Any]) -> str:
        result = await ctx.session.elicit_form("Fill this in", schema, ctx.request_id)
        return f"{result.action}: {result.content}"

    @server.tool(description="Ask the user to open a URL (URL elicitation).")
    async def ask_url(ctx: Context, url: str) -> str:
        result = await ctx.elicit_url("Sign in to continue", url, "el-1")
        await ctx.session.send_elicit_complete("el-1")
        return f"url {result.action}"

    @server.tool(description="Elicit again and again: a client must bound this.")
    async def ask_loop(ctx: Context, times: int = 1000) -> str:
        asked = 0
        for _ in range(times):
            # The client may refuse: keep asking, like a bad server.
            with contextlib.suppress(Exception):
                await ctx.session.elicit_form("Again?", NAME_SCHEMA, ctx.request_id)
            asked += 1
        return f"asked {asked} times"

    @server.tool(description="Ask for a name the 2026-07-28 way (input required, then retried).")
    async def ask_modern(ctx: Context) -> str | types.InputRequiredResult:
        responses = ctx.input_responses or {}
        answer = responses.get("who")
        if answer is not None:
            return f"{answer.action}: {answer.content}"  # type: ignore[union-attr]
        request = types.ElicitRequest(
            params=types.ElicitRequestFormParams(
                message="Who are you?", requested_schema=NAME_SCHEMA
            )
        )
        return types.InputRequiredResult(input_requests={"who": request}, request_state="s1")

    @server.tool(description="Require input forever, the 2026-07-28 way.")
    async def loop_modern(ctx: Context) -> types.InputRequiredResult:
        request = types.ElicitRequest(
            params=types.ElicitRequestFormParams(message="Again?", requested_schema=NAME_SCHEMA)
        )
        return types.InputRequiredResult(input_requests={"again": request}, request_state="x")

    @server.tool(description="Ask the client's model for a completion (sampling).")
    async def sample(ctx: Context, chars: int = 20, messages: int = 1) -> str:
        text = ("2+2? " * (chars // 5 + 1))[:chars]
        conversation = [
            types.SamplingMessage(role="user", content=types.TextContent(type="text", text=text))
            for _ in range(messages)
        ]
        try:
            result = await ctx.session.create_message(
                conversation,
                max_tokens=50,
                system_prompt="Answer with a number.",
                temperature=0.2,
                model_preferences=types.ModelPreferences(
                    hints=[types.ModelHint(name="claude-3-haiku")], speed_priority=0.8
                ),
                related_request_id=ctx.request_id,
            )
        except Exception as error:  # noqa: BLE001 - a rejected request is an MCPError
            return f"sampling failed: {error}"
        content = result.content
        text_reply = content.text if isinstance(content, types.TextContent) else "?"
        return f"{result.model} said: {text_reply}"

    @server.tool(description="List the client's roots.")
    async def roots(ctx: Context) -> str:
        result = await ctx.session.list_roots()
        return ", ".join(str(root.uri) for root in result.roots) or "no roots"

    @server.tool(description="Log, report progress, change the tool list, update a resource.")
    async def chatty(ctx: Context, lines: int = 3) -> str:
        for index in range(lines):
            await ctx.info(f"line {index + 1}", logger_name="chatty")
        await ctx.warning({"disk": "92% full"})
        for step in range(3):
            await ctx.report_progress(step + 1, 3, f"step {step + 1}")
        await ctx.session.send_tool_list_changed()
        await ctx.session.send_resource_updated("res://note.txt")
        return "done"

    @server.tool(description="Send log lines as fast as possible.")
    async def flood(ctx: Context, lines: int = 10_000) -> str:
        for index in range(lines):
            await ctx.debug(f"flood {index}")
        return f"sent {lines} lines"

    @server.tool(description="Add a tool, then tell the client its list changed.")
    async def add_tool(ctx: Context, name: str = "added") -> str:
        def added() -> str:
            return "I was added"

        server.add_tool(added, name=name, description="Added at run time.")
        await ctx.session.send_tool_list_changed()
        await anyio.sleep(0.5)  # The client re-lists meanwhile.
        return f"added {name}"

    @server.tool(description="Sleep, then answer (for timing).")
    async def slow(seconds: float = 1.0) -> str:
        await anyio.sleep(seconds)
        return f"slept {seconds:g} s"

    @server.tool(
        description="Declares a UI resource the server cannot serve.",
        meta={"ui": {"resourceUri": "ui://missing/app.html"}},
    )
    def broken_ui() -> str:
        return "fallback text"

    # --- resources, templates, prompts -----------------------------------------------------

    @server.resource("res://note.txt", mime_type="text/plain", description="A short note")
    def note() -> str:
        return "Remember the milk.\n"

    @server.resource("res://data.json", mime_type="application/json")
    def data() -> str:
        return '{"items": [1, 2, 3], "ok": true}'

    @server.resource("res://logo.png", mime_type="image/png")
    def logo() -> bytes:
        return PNG_1x1

    @server.resource("res://blob.bin", mime_type="application/octet-stream")
    def blob() -> bytes:
        return bytes(range(256)) * 4

    @server.resource("res://item/{item_id}", mime_type="text/plain")
    def item(item_id: str) -> str:
        return f"item {item_id}"

    @server.prompt(description="Greet someone.")
    def greet(name: str, style: str = "warm") -> str:
        return f"Say hello to {name} in a {style} way."

    del ask, ask_schema, ask_url, ask_loop, ask_modern, loop_modern, sample, roots, chatty
    del flood, add_tool, slow
    del broken_ui, note, data, logo, blob, item, greet
    return server


def register_apps(apps: Apps) -> None:
    """MCP App tools: one with a text fallback, one without, one only the app may call."""

    @apps.tool(resource_uri="ui://clock/app.html", description="The time, with a UI.")
    def clock() -> str:
        return "It is 12:00 UTC."

    @apps.tool(
        resource_uri="ui://clock/app.html",
        description="A UI tool that returns only structured content (no text fallback).",
    )
    def chart() -> types.CallToolResult:
        return types.CallToolResult(content=[], structured_content={"points": [1, 2, 3]})

    @apps.tool(
        resource_uri="ui://clock/app.html",
        visibility=["app"],
        description="Only the app may call this; never the model.",
    )
    def refresh() -> str:
        return "refreshed"

    apps.add_html_resource(
        "ui://clock/app.html",
        APP_HTML,
        csp=ResourceCsp(connect_domains=["https://api.example.com"]),
        permissions=ResourcePermissions(clipboard_write={}),
        prefers_border=True,
    )

    del clock, chart, refresh


if __name__ == "__main__":
    build_server().run()
