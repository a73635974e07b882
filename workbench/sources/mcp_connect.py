"""How to reach one MCP server: its spec, and one small connector per transport.

As the SDK's own ``Client`` does with a URL, a command or a server object, each connector
turns a spec into what ``Client`` connects through: the server object itself (in-process,
our own code, nothing to guard), or a transport with a :class:`MessageGuard` on its streams
(streamable HTTP, stdio). A :class:`Connection` also carries what the source keeps of it: the
guard's counts, a stdio server's stderr, the HTTP client and sign-in to close.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.sources.mcp_guard_stats import MAX_TOOLS
from workbench.sources.oauth import OAuthSettings

if TYPE_CHECKING:
    import anyio.abc
    import httpx2
    from mcp.client._transport import Transport
    from mcp.server.mcpserver import MCPServer

    from workbench.core.limits import Limits
    from workbench.sources.mcp_guard import MessageGuard
    from workbench.sources.mcp_stdio import StderrTail
    from workbench.sources.process_group import StdioLaunch


@dataclass
class McpServerSpec:
    """How to reach one MCP server (the ``mcpServers`` entry other MCP clients use)."""

    name: str
    command: str | None = None
    args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    server: MCPServer | None = None
    """An in-process server object (``MCPServer``)."""
    tools: list[str] | None = None
    """Allow-list of MCP tool names (``None``: all)."""
    policies: dict[str, str] = field(default_factory=dict)
    """Approval policy per MCP tool name (``never``/``required``/``always``)."""
    mode: str = "auto"
    inherit_env: bool | None = None
    """Pass this process's whole environment to a stdio server (``"inheritEnv": true``, or
    ``--inherit-env`` for every server). Unset or false: the SDK's minimum (HOME, LOGNAME,
    PATH, SHELL, TERM, USER) plus ``env``: servers are untrusted, and API keys stay home."""
    roots: list[Path] | None = None
    """This server's own roots (``"roots"`` in mcp.json), instead of the session's ``--root``."""
    oauth: OAuthSettings | None = None
    """How to sign in to an HTTP server that asks for it (``--oauth``, ``"oauth"``)."""
    limits: dict[str, Any] = field(default_factory=dict)
    """This server's own ``"limits"`` (see :mod:`workbench.core.limits`), over the project's."""

    @classmethod
    def from_argument(cls, value: str) -> McpServerSpec:
        """``--mcp 'python -m my_server'`` (stdio) or ``--mcp http://host/mcp`` (HTTP)."""
        if value.startswith(("http://", "https://")):
            return cls(name="", url=value)
        parts = shlex.split(value)
        if not parts:
            raise ValueError("--mcp needs a command or a URL")
        return cls(name="", command=parts[0], args=parts[1:])

    @property
    def transport(self) -> str:
        return "in-process" if self.server is not None else "http" if self.url else "stdio"

    @property
    def target(self) -> str:
        if self.url:
            return self.url
        if self.command:
            return shlex.join([self.command, *self.args])
        return "in-process server"


@dataclass
class Connection:
    """What ``Client`` connects through, and what the source keeps of the connection."""

    transport: Transport | MCPServer
    guard: MessageGuard | None = None
    http_client: httpx2.AsyncClient | None = None
    """Closed by the source when the connection ends."""
    close_auth: Callable[[], None] | None = None
    stderr: StderrTail | None = None
    environment: list[str] = field(default_factory=list)
    """The names of the environment variables a stdio server was started with."""


@dataclass
class ConnectionEvents:
    """What a connector reports back to its source while the connection lives."""

    on_http_status: Callable[[int], None]
    """An HTTP error status (the SDK turns it into a bare "error response")."""
    on_sign_in: Callable[[str], None]
    on_spawn: Callable[[anyio.abc.Process], None]
    on_output_closed: Callable[[], None]


def connect(
    spec: McpServerSpec,
    limits: Limits,
    events: ConnectionEvents,
    started: anyio.abc.Process | None = None,
) -> Connection:
    """The connection for ``spec``: in-process, streamable HTTP, or stdio (``started``: its
    command, already started from :func:`stdio_launch`)."""
    from workbench.sources.mcp_guard import summarize_sdk_logs

    summarize_sdk_logs()
    if spec.server is not None:
        return Connection(spec.server)  # In-process: our own code, nothing to guard against.
    if spec.url:
        return connect_http(spec.url, spec, limits, events)
    return connect_stdio(spec, limits, events, started)


def connect_http(
    url: str, spec: McpServerSpec, limits: Limits, events: ConnectionEvents
) -> Connection:
    """Streamable HTTP on a capped client, guarded, signed in with OAuth when configured."""
    from mcp.client.streamable_http import streamable_http_client

    from workbench.net.mcp_http import capped_client
    from workbench.net.mcp_wire import WireWatch
    from workbench.sources.mcp_guard import GuardStats, MessageGuard, guarded

    watch = WireWatch(max_tools=MAX_TOOLS)
    guard = MessageGuard(
        limits, GuardStats(), max_tools=MAX_TOOLS, sent_by_server=watch.sent_by_server
    )
    watch.on_tools_cut = guard.stats.cut_tools

    async def note_status(response: httpx2.Response) -> None:
        if response.status_code >= 400:
            events.on_http_status(response.status_code)

    auth = None
    close_auth = None
    if spec.oauth is not None:
        from workbench.sources.oauth import auth_for

        auth, close_auth = auth_for(url, spec.oauth, on_sign_in=events.on_sign_in)
    http_client = capped_client(
        auth=auth,
        max_message_bytes=limits.max_message_bytes,
        headers=spec.headers,
        on_exceeded=guard.stats.record_limit,
        event_hooks={"response": [note_status]},
        watch=watch,
    )
    inner = streamable_http_client(
        url,
        http_client=http_client,
        # The SDK's 1 MiB default fails real results; an event is one message.
        max_sse_event_size=limits.max_message_bytes,
    )
    return Connection(
        guarded(inner, guard), guard=guard, http_client=http_client, close_auth=close_auth
    )


SAFE_ENVIRONMENT = ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER")
"""What a stdio server inherits by default: the SDK's ``DEFAULT_INHERITED_ENV_VARS`` (POSIX)."""


def default_environment() -> dict[str, str]:
    """The SDK's ``get_default_environment()``, without importing the SDK (half a second):
    the safe variables that are set, shell functions (``() {...}``) left out."""
    return {
        key: value
        for key in SAFE_ENVIRONMENT
        if (value := os.environ.get(key)) is not None and not value.startswith("()")
    }


def stdio_launch(spec: McpServerSpec) -> tuple[StdioLaunch, list[str]]:
    """What starts ``spec``'s command, and the names of the variables it is started with.

    A workbench user expects their environment (PATH, virtualenv) to reach the server, unless
    the config opts out to keep secrets from it.
    """
    from workbench.sources.process_group import StdioLaunch

    base = dict(os.environ) if spec.inherit_env else default_environment()
    launch = StdioLaunch(
        command=spec.command or "",
        args=tuple(spec.args),
        env={**base, **spec.env},
        cwd=spec.cwd,
    )
    return launch, sorted({*base, *spec.env})


def connect_stdio(
    spec: McpServerSpec,
    limits: Limits,
    events: ConnectionEvents,
    started: anyio.abc.Process | None = None,
) -> Connection:
    """A command started in its own process group, its stdout read line by line, guarded.

    ``started``: the command, already started from :func:`stdio_launch` (POSIX only).
    """
    from workbench.sources.mcp_guard import GuardStats, MessageGuard, guarded
    from workbench.sources.mcp_stdio import StderrTail, stdio_transport

    guard = MessageGuard(limits, GuardStats(), max_tools=MAX_TOOLS)
    stderr = StderrTail(limits.max_stderr_bytes)
    launch, environment = stdio_launch(spec)
    if os.name != "posix":
        # No process groups or death signals there: the SDK's own transport, guarded.
        from mcp import StdioServerParameters
        from mcp.client.stdio import stdio_client

        params = StdioServerParameters(
            command=launch.command,
            args=list(launch.args),
            env=dict(launch.env or {}),
            cwd=launch.cwd,
            encoding_error_handler="replace",
        )
        return Connection(
            guarded(stdio_client(params), guard),
            guard=guard,
            stderr=stderr,
            environment=environment,
        )
    transport = stdio_transport(
        launch,
        guard,
        stderr,
        on_spawn=events.on_spawn,
        on_output_closed=events.on_output_closed,
        started=started,
    )
    return Connection(transport, guard=guard, stderr=stderr, environment=environment)
