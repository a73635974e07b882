"""The embedded demo MCP server: every kind of MCP result, so live mode works with no set-up.

Besides results it shows the rest of the conversation: a tool that asks for input mid-call
(a form, a URL), one that asks the client's model for a completion, one that logs and
changes the tool list, an MCP App tool with a UI resource, resources, a resource template
and a prompt. Requests to the client work in both protocol eras: the pre-2026 way (a
server -> client request) and the 2026-07-28 way (an "input required" result, retried).

The SDK reads tool annotations at registration, so its names are imported at module level
(this module is only imported in live mode).

Run in-process by ``workbench live``; also runnable as a real stdio server, or over
streamable HTTP on 127.0.0.1::

    python -m workbench.sources.demo_server [--http PORT]
"""

from __future__ import annotations

import struct
import warnings
import zlib
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
import mcp_types as types
from mcp.server.apps import Apps, ResourceCsp, ResourcePermissions
from mcp.server.mcpserver import Context, Image, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp.types import (
    EmbeddedResource,
    ResourceLink,
    TextContent,
    TextResourceContents,
    ToolAnnotations,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel, Field

SERVER_NAME = "workbench-demo"
NOTES_URI = "demo://notes/today.md"


def tiny_png(width: int = 8, height: int = 8) -> bytes:
    """A valid PNG of a small gradient (no image library needed)."""
    raw = b"".join(
        b"\x00" + b"".join(bytes((x * 30 % 256, y * 30 % 256, 160)) for x in range(width))
        for y in range(height)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


class Forecast(BaseModel):
    """The weather in one city (structured output)."""

    city: str
    temperature_c: float = Field(description="Air temperature in degrees Celsius")
    conditions: str
    humidity: int = Field(ge=0, le=100)


CITIES: dict[str, tuple[float, str, int]] = {
    "lisbon": (19.5, "sunny", 55),
    "oslo": (-3.0, "snow", 81),
    "nairobi": (24.0, "cloudy", 60),
    "tokyo": (14.5, "rain", 77),
}


PROFILE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Name", "description": "What to call you"},
        "team": {
            "type": "string",
            "title": "Team",
            "oneOf": [
                {"const": "tools", "title": "Tools"},
                {"const": "models", "title": "Models"},
                {"const": "infra", "title": "Infrastructure"},
            ],
        },
        "newsletter": {"type": "boolean", "title": "Send me the newsletter", "default": False},
    },
    "required": ["name"],
}
CLOCK_HTML = (
    "<!doctype html><html><head><title>Clock</title></head>"
    "<body><div id=clock>12:00</div><script>/* a UI host renders this */</script></body></html>"
)


def _modern(ctx: Context) -> bool:
    return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS


async def _ask(ctx: Context, key: str, request: Any, legacy: Any) -> Any:
    """The client's answer to ``request``, in whichever way the connection supports.

    2026-07-28: the tool returns "input required" and is called again with the answer
    (``None`` is returned meanwhile, and :func:`_input_required` builds that result).
    Before: a server -> client request, awaited here.
    """
    if _modern(ctx):
        return (ctx.input_responses or {}).get(key)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        return await legacy()


_Tool = TypeVar("_Tool", bound=Callable[..., Any])


def _text_tool(
    server: MCPServer, description: str, *, destructive: bool = False
) -> Callable[[_Tool], _Tool]:
    """``server.tool`` for a tool that answers with the text or content blocks it returns (no
    structured output made from its return type); read-only unless ``destructive``."""
    annotations = (
        ToolAnnotations(destructive_hint=True)
        if destructive
        else ToolAnnotations(read_only_hint=True)
    )
    return server.tool(description=description, annotations=annotations, structured_output=False)


def _input_required(key: str, request: Any) -> types.InputRequiredResult:
    return types.InputRequiredResult(input_requests={key: request}, request_state=key)


def _register_apps(apps: Apps) -> None:
    """An MCP App tool: a UI host would render its ``ui://`` resource; a terminal shows the
    text fallback the tool also returns."""

    @apps.tool(
        resource_uri="ui://demo/clock.html",
        description="The time in a city, with an app UI (MCP Apps) and a text fallback.",
        annotations=ToolAnnotations(read_only_hint=True),
    )
    def clock(city: str = "Lisbon") -> str:
        return f"It is 12:00 in {city}."

    apps.add_html_resource(
        "ui://demo/clock.html",
        CLOCK_HTML,
        title="Clock",
        csp=ResourceCsp(connect_domains=["https://time.example.com"]),
        permissions=ResourcePermissions(clipboard_write={}),
        prefers_border=True,
    )
    del clock


def build_server() -> MCPServer:
    """A fresh demo server (each call builds its own, so tests never share state)."""
    apps = Apps()
    _register_apps(apps)  # The server reads an extension's tools when it is built.
    server = MCPServer(
        SERVER_NAME,
        version="1.0.0",
        instructions="A demo server showing every kind of MCP result.",
        log_level="WARNING",
        extensions=[apps],
    )

    @_text_tool(server, "Echo the text back, unchanged.")
    def echo(text: str) -> str:
        return text

    @server.tool(
        description="The weather in a city (lisbon, oslo, nairobi or tokyo) as structured content.",
        annotations=ToolAnnotations(read_only_hint=True),
    )
    def weather(city: str) -> Forecast:
        key = city.strip().lower()
        if key not in CITIES:
            raise ToolError(f"no forecast for {city!r}; try one of {', '.join(sorted(CITIES))}")
        temperature, conditions, humidity = CITIES[key]
        return Forecast(
            city=city.title(), temperature_c=temperature, conditions=conditions, humidity=humidity
        )

    @server.tool(description="A small PNG image.", annotations=ToolAnnotations(read_only_hint=True))
    def tiny_image(size: int = 8) -> Image:
        size = max(1, min(size, 64))
        return Image(data=tiny_png(size, size), format="png")

    @_text_tool(server, "Links to resources the client can fetch.")
    def resource_links(count: int = 3) -> list[TextContent | ResourceLink]:
        count = max(0, min(count, 20))
        blocks: list[TextContent | ResourceLink] = [
            TextContent(type="text", text=f"{count} related documents:")
        ]
        for index in range(1, count + 1):
            blocks.append(
                ResourceLink(
                    type="resource_link",
                    uri=f"file:///docs/chapter-{index}.md",
                    name=f"chapter-{index}.md",
                    title=f"Chapter {index}",
                    mime_type="text/markdown",
                    description=f"Chapter {index} of the guide",
                )
            )
        return blocks

    @_text_tool(server, "An embedded text resource (a small config file).")
    def embedded_resource() -> list[TextContent | EmbeddedResource]:
        return [
            TextContent(type="text", text="The current configuration:"),
            EmbeddedResource(
                type="resource",
                resource=TextResourceContents(
                    uri="file:///etc/demo/config.toml",
                    mime_type="application/toml",
                    text="[server]\nport = 8080\nworkers = 4\n",
                ),
            ),
        ]

    @_text_tool(server, "Count down, reporting progress each step (for the Streaming surface).")
    async def count_down(ctx: Context, steps: int = 5, delay: float = 0.3) -> str:
        steps = max(1, min(steps, 100))
        for index in range(steps):
            await ctx.report_progress(index + 1, steps, f"step {index + 1} of {steps}")
            await anyio.sleep(max(0.0, min(delay, 10.0)))
        return f"counted down {steps} steps"

    @_text_tool(server, "Fail on purpose with a tool error (isError).")
    def fail(reason: str = "the demo failed on purpose") -> str:
        raise ToolError(reason)

    @_text_tool(server, "Sleep for a while (to try cancelling and timeouts).")
    async def sleep(seconds: float = 30.0) -> str:
        await anyio.sleep(max(0.0, min(seconds, 800.0)))
        return f"slept {seconds:g} s"

    @_text_tool(
        server,
        "Delete a file in the demo store (destructive: asks for approval).",
        destructive=True,
    )
    def delete_file(path: str) -> str:
        return f"pretended to delete {path}"

    _register_conversation(server, _register_protocol(server))
    del (
        echo,
        weather,
        tiny_image,
        resource_links,
        embedded_resource,
        count_down,
        fail,
        sleep,
        delete_file,
    )
    return server


class ProtocolState:
    """What a client has set on the demo server: its log level and its subscriptions."""

    def __init__(self) -> None:
        self.log_level: str = "debug"
        self.subscribed: set[str] = set()

    def logs(self, level: str) -> bool:
        """Whether a line at ``level`` passes the level the client set."""
        return LOG_LEVELS.index(level) >= LOG_LEVELS.index(self.log_level)


LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
FOCUSES = ("correctness", "performance", "readability", "security", "style")
CHAPTERS = tuple(str(number) for number in range(1, 13))


def _register_protocol(server: MCPServer) -> ProtocolState:
    """logging/setLevel, resources/subscribe and unsubscribe, and completion/complete.

    MCPServer has decorators for tools, resources and prompts (its completion decorator is
    untyped); the SDK directs spec methods such as ``logging/setLevel`` (gone at 2026-07-28,
    still spoken by every earlier client) to the low-level server's ``add_request_handler``.
    """
    state = ProtocolState()
    lowlevel = server._lowlevel_server  # no public accessor; see the docstring

    async def set_level(ctx: Any, params: types.SetLevelRequestParams) -> types.EmptyResult:
        del ctx
        state.log_level = params.level
        return types.EmptyResult()

    async def subscribe(ctx: Any, params: types.SubscribeRequestParams) -> types.EmptyResult:
        del ctx
        state.subscribed.add(str(params.uri))
        return types.EmptyResult()

    async def unsubscribe(ctx: Any, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        del ctx
        state.subscribed.discard(str(params.uri))
        return types.EmptyResult()

    lowlevel.add_request_handler("logging/setLevel", types.SetLevelRequestParams, set_level)
    lowlevel.add_request_handler("resources/subscribe", types.SubscribeRequestParams, subscribe)
    lowlevel.add_request_handler(
        "resources/unsubscribe", types.UnsubscribeRequestParams, unsubscribe
    )

    async def complete(ctx: Any, params: types.CompleteRequestParams) -> types.CompleteResult:
        del ctx
        ref, argument = params.ref, params.argument
        options: tuple[str, ...] = ()
        if isinstance(ref, types.PromptReference) and ref.name == "review_code":
            options = FOCUSES if argument.name == "focus" else ()
        elif isinstance(ref, types.ResourceTemplateReference) and argument.name == "number":
            options = CHAPTERS
        values = [option for option in options if option.startswith(argument.value)]
        return types.CompleteResult(
            completion=types.Completion(values=values, total=len(values), has_more=False)
        )

    lowlevel.add_request_handler("completion/complete", types.CompleteRequestParams, complete)
    return state


def _register_conversation(server: MCPServer, protocol: ProtocolState) -> None:
    """Tools that ask the client things mid-call, log, and change the tool list; resources,
    a template and a prompt."""

    @_text_tool(server, "Ask you for a profile mid-call (form elicitation), then greet you.")
    async def ask_profile(ctx: Context) -> str | types.InputRequiredResult:
        message = "Who is using the demo? (this is a form the server sends mid-call)"
        request = types.ElicitRequest(
            params=types.ElicitRequestFormParams(message=message, requested_schema=PROFILE_SCHEMA)
        )
        answer = await _ask(
            ctx,
            "profile",
            request,
            lambda: ctx.session.elicit_form(message, PROFILE_SCHEMA, ctx.request_id),
        )
        if answer is None:
            return _input_required("profile", request)
        if answer.action != "accept" or not answer.content:
            return f"No profile ({answer.action}): hello, anonymous user."
        team = answer.content.get("team")
        return f"Hello {answer.content.get('name')}" + (f" of the {team} team." if team else ".")

    @_text_tool(
        server,
        "Ask you to sign in on a web page (URL elicitation; nothing opens by itself).",
    )
    async def sign_in(
        ctx: Context, url: str = "https://auth.example.com/device?code=WB-DEMO"
    ) -> str | types.InputRequiredResult:
        message = "Sign in to the demo service to continue"
        request = types.ElicitRequest(
            params=types.ElicitRequestURLParams(message=message, url=url, elicitation_id="demo-1")
        )
        answer = await _ask(ctx, "sign-in", request, lambda: ctx.elicit_url(message, url, "demo-1"))
        if answer is None:
            return _input_required("sign-in", request)
        done = {"accept": "accepted", "decline": "declined", "cancel": "cancelled"}
        return f"Sign-in {done.get(answer.action, answer.action)}."

    @_text_tool(server, "Ask the client's model to summarise a text (sampling: you approve it).")
    async def summarize(
        ctx: Context, text: str = "MCP lets servers ask the client for input and completions."
    ) -> str | types.InputRequiredResult:
        messages = [
            types.SamplingMessage(
                role="user", content=types.TextContent(type="text", text=f"Summarise:\n{text}")
            )
        ]
        preferences = types.ModelPreferences(
            hints=[types.ModelHint(name="claude-3-haiku")], speed_priority=0.8
        )
        request = types.CreateMessageRequest(
            params=types.CreateMessageRequestParams(
                messages=messages,
                max_tokens=60,
                system_prompt="Summarise in one sentence.",
                model_preferences=preferences,
            )
        )
        try:
            answer = await _ask(
                ctx,
                "summary",
                request,
                lambda: ctx.session.create_message(
                    messages,
                    max_tokens=60,
                    system_prompt="Summarise in one sentence.",
                    model_preferences=preferences,
                    related_request_id=ctx.request_id,
                ),
            )
        except Exception as error:  # noqa: BLE001 - a rejected request is an error reply
            return f"No summary: {error}"
        if answer is None:
            return _input_required("summary", request)
        if isinstance(answer, types.ErrorData):
            return f"No summary: {answer.message}"
        content = answer.content
        said = content.text if isinstance(content, types.TextContent) else "(not text)"
        return f"Summary ({answer.model}): {said}"

    @_text_tool(server, "Log at every level, report progress and announce a changed tool list.")
    async def chatty(ctx: Context) -> str:
        lines = [
            ("debug", ctx.debug, "opening the demo database", "db"),
            ("info", ctx.info, "3 rows found", "db"),
            ("warning", ctx.warning, {"disk": "92% full"}, None),
            ("error", ctx.error, "one row could not be parsed", "parser"),
        ]
        logged = 0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            for level, log, message, logger in lines:
                if protocol.logs(level):  # below the level the client set: not sent
                    await log(message, logger_name=logger)
                    logged += 1
            for step in range(3):
                await ctx.report_progress(step + 1, 3, f"step {step + 1} of 3")
                await anyio.sleep(0.05)
            if not _modern(ctx):
                await ctx.session.send_tool_list_changed()
                if NOTES_URI in protocol.subscribed:
                    await ctx.session.send_resource_updated(NOTES_URI)
        return (
            f"Logged {logged} of 4 lines (level {protocol.log_level}), reported progress, "
            "and announced a changed tool list."
        )

    @server.resource(NOTES_URI, mime_type="text/markdown", description="Today's notes")
    def notes() -> str:
        return "# Today\n\n- try an elicitation\n- approve a sampling request\n"

    @server.resource(
        "demo://config.json", mime_type="application/json", description="The demo's settings"
    )
    def config() -> str:
        return '{"theme": "dark", "retries": 3, "servers": ["a", "b"]}'

    @server.resource("demo://logo.png", mime_type="image/png", description="A tiny logo")
    def logo() -> bytes:
        return tiny_png(16, 16)

    @server.resource(
        "demo://chapters/{number}", mime_type="text/markdown", description="A chapter of the guide"
    )
    def chapter(number: str) -> str:
        return f"# Chapter {number}\n\nThe text of chapter {number}.\n"

    @server.prompt(description="Ask a model to review a piece of code.")
    def review_code(code: str, focus: str = "correctness") -> str:
        return f"Review this code for {focus}:\n\n{code}"

    del ask_profile, sign_in, summarize, chatty, notes, config, logo, chapter, review_code


if __name__ == "__main__":
    import sys

    if len(sys.argv) == 3 and sys.argv[1] == "--http":
        # Streamable HTTP on loopback only (the conformance suite's server scenarios use it).
        build_server().run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        build_server().run()
