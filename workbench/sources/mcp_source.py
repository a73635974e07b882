"""MCP servers as a tool source, through the official ``mcp`` SDK ``Client``.

One server is one tool; each of its MCP tools is an API. Three transports: stdio (a command),
streamable HTTP (a URL, with headers), and in-process (a server object). A server that fails to
start says why — command not found, exited with code N and the tail of its stderr, no
handshake in time, HTTP 401 — and never takes the other sources down with it.

The ``mcp`` package is imported only when a source starts: it costs about half a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import os
import re
import shlex
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from workbench.core.identifiers import slug
from workbench.core.manifest import ToolManifest
from workbench.core.result import ErrorType, ToolResult, failure
from workbench.core.runtime import CallContext, ToolTimedOut
from workbench.sources.base import SourceState, SourceStatus, ToolSource
from workbench.sources.mcp_results import manifest_from_tools, to_tool_result

HANDSHAKE_TIMEOUT_S = 20.0
STOP_TIMEOUT_S = 5.0
"""The SDK closes stdin, then SIGTERMs, then SIGKILLs a stdio server within about 4 s."""
STDERR_TAIL_LINES = 12
STDERR_TAIL_BYTES = 16 * 1024
MAX_TOOL_PAGES = 50
MAX_TOOLS = 1_000
SERVER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
# Past the longest possible call deadline: the call runner's own deadline cancels first.
BACKSTOP_TIMEOUT_S = 900.0


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
    server: Any = None
    """An in-process server object (``MCPServer``)."""
    tools: list[str] | None = None
    """Allow-list of MCP tool names (``None``: all)."""
    policies: dict[str, str] = field(default_factory=dict)
    """Approval policy per MCP tool name (``never``/``required``/``always``)."""
    mode: str = "auto"
    inherit_env: bool = True
    """Pass this process's environment to a stdio server (``"inheritEnv": false`` opts out,
    leaving the SDK's safe minimum — HOME, PATH, SHELL, TERM, USER — plus ``env``)."""

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


# --- knowing how a stdio server died ------------------------------------------------------------

_spawned: contextvars.ContextVar[list[Any] | None] = contextvars.ContextVar(
    "workbench_mcp_spawned", default=None
)
_patched = False


def _track_spawns() -> None:
    """Record the processes the SDK spawns, to report their exit codes.

    The SDK keeps its subprocess private; the exit code is what tells a user why a server
    died, so the spawner is wrapped once and reports through a context variable.
    """
    global _patched
    if _patched:
        return
    import mcp.client.stdio as stdio

    original = getattr(stdio, "_create_platform_compatible_process", None)
    if original is None:  # A future SDK: exit codes are simply not reported.
        _patched = True
        return

    async def spawn(*args: Any, **kwargs: Any) -> Any:
        process = await original(*args, **kwargs)
        registry = _spawned.get()
        if registry is not None:
            registry.append(process)
        return process

    stdio._create_platform_compatible_process = spawn
    _patched = True


def _leaves(error: BaseException) -> Iterator[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            yield from _leaves(inner)
    else:
        yield error


class McpSource(ToolSource):
    """One MCP server, connected for as long as the source runs."""

    kind = "mcp"

    def __init__(
        self, spec: McpServerSpec, *, handshake_timeout_s: float = HANDSHAKE_TIMEOUT_S
    ) -> None:
        super().__init__(spec.name or "mcp")
        self.spec = spec
        self.handshake_timeout_s = handshake_timeout_s
        self.manifest: ToolManifest | None = None
        self.server_name: str | None = None
        self._client: Any = None
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._ready: asyncio.Future[None] | None = None
        self._errlog: Any = None
        self._processes: list[Any] = []
        self._http_status: int | None = None
        self.skipped: list[str] = []

    # --- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        self.status = SourceStatus(SourceState.STARTING, f"connecting to {self.spec.target}")
        self._http_status = None
        loop = asyncio.get_running_loop()
        self._ready = loop.create_future()
        self._stop = asyncio.Event()
        self._task = asyncio.create_task(self._run(), name=f"mcp:{self.name}")
        try:
            await asyncio.wait_for(asyncio.shield(self._ready), timeout=self.handshake_timeout_s)
        except TimeoutError:
            self.status = SourceStatus(
                SourceState.FAILED,
                f"no handshake from {self.spec.target} within {self.handshake_timeout_s:g} "
                f"s{self._stderr_suffix()}",
            )
            await self.stop(keep_status=True)

    async def _run(self) -> None:
        from mcp import Client

        transport: Any
        http_client = None
        token = _spawned.set(self._processes)
        try:
            if self.spec.server is not None:
                transport = self.spec.server
            elif self.spec.url:
                import httpx2  # The SDK's own HTTP stack: never hand it an httpx object.
                from mcp.client.streamable_http import streamable_http_client

                async def note_status(response: Any) -> None:
                    # The SDK turns an HTTP error into a bare "error response": keep the status.
                    if response.status_code >= 400:
                        self._http_status = response.status_code

                http_client = httpx2.AsyncClient(
                    headers=self.spec.headers,
                    timeout=httpx2.Timeout(30.0, read=300.0),
                    follow_redirects=True,
                    event_hooks={"response": [note_status]},
                )
                transport = streamable_http_client(self.spec.url, http_client=http_client)
            else:
                from mcp import StdioServerParameters
                from mcp.client.stdio import stdio_client

                _track_spawns()
                # Not a with-block: the log outlives this call and is closed in stop().
                self._errlog = tempfile.TemporaryFile(  # noqa: SIM115
                    "w+", encoding="utf-8", errors="replace"
                )
                # A workbench user expects their environment (PATH, virtualenv) to reach the
                # server, unless the config opts out to keep secrets from it.
                env = (
                    {**os.environ, **self.spec.env}
                    if self.spec.inherit_env
                    else dict(self.spec.env)
                )
                params = StdioServerParameters(
                    command=self.spec.command or "", args=self.spec.args, env=env, cwd=self.spec.cwd
                )
                transport = stdio_client(params, errlog=self._errlog)
            async with Client(
                transport, mode=self.spec.mode, read_timeout_seconds=BACKSTOP_TIMEOUT_S
            ) as client:
                self._client = client
                await self._load_tools(client)
                if self._ready is not None and not self._ready.done():
                    self._ready.set_result(None)
                await self._stop.wait()
        except BaseException as error:
            if isinstance(error, asyncio.CancelledError) and self._stop.is_set():
                raise
            self.status = SourceStatus(SourceState.FAILED, self._explain(error))
            self._client = None
            if self._ready is not None and not self._ready.done():
                self._ready.set_result(None)
            if isinstance(error, asyncio.CancelledError):
                raise
        finally:
            _spawned.reset(token)
            self._client = None
            if http_client is not None:
                await http_client.aclose()

    async def _load_tools(self, client: Any) -> None:
        info = client.server_info
        self.server_name = (
            (info.name if info is not None else None) or self.spec.name or "mcp-server"
        )
        identifier = self.spec.name or slug(self.server_name, fallback="mcp-server")
        if not self.spec.name:
            self.name = identifier
        tools: list[Any] = []
        cursor = None
        for _ in range(MAX_TOOL_PAGES):  # A server that pages forever still gets listed.
            page = await client.list_tools(cursor=cursor) if cursor else await client.list_tools()
            tools.extend(page.tools)
            cursor = page.next_cursor
            if not cursor or len(tools) >= MAX_TOOLS:
                break
        tools = tools[:MAX_TOOLS]
        if self.spec.tools is not None:
            tools = [tool for tool in tools if tool.name in self.spec.tools]
        title = (
            (getattr(info, "title", None) or self.server_name)
            if info is not None
            else self.server_name
        )
        description = (
            client.instructions or f"MCP server {self.server_name} over {self.spec.transport}"
        )
        self.manifest, self.skipped = manifest_from_tools(
            identifier, title, description[:500], tools, self.spec.policies
        )
        detail = f"{len(tools)} tools over {self.spec.transport}"
        if self.skipped:
            detail += f"; skipped: {'; '.join(self.skipped)}"
        self.status = SourceStatus(SourceState.READY, detail)

    def _stderr_tail(self) -> str:
        if self._errlog is None:
            return ""
        try:
            self._errlog.flush()
            # Only the end matters, however chatty the server has been.
            size = self._errlog.seek(0, os.SEEK_END)
            self._errlog.seek(max(0, size - STDERR_TAIL_BYTES))
            lines = [line.rstrip() for line in self._errlog.read().splitlines() if line.strip()]
        except (OSError, ValueError):
            return ""
        return "\n".join(lines[-STDERR_TAIL_LINES:])

    def _stderr_suffix(self) -> str:
        tail = self._stderr_tail()
        return f"; stderr:\n{tail}" if tail else ""

    def _exit_code(self) -> int | None:
        for process in self._processes:
            code = getattr(process, "returncode", None)
            if code is not None:
                return int(code)
        return None

    async def _wait_exit_code(self, timeout_s: float = 2.0) -> int | None:
        """The exit code of a server whose pipe just closed: it may not be reaped yet."""
        if self._exit_code() is None and self._processes:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._processes[-1].wait(), timeout=timeout_s)
        return self._exit_code()

    def _http_detail(self, status: int) -> str:
        reason = {401: "Unauthorized", 403: "Forbidden", 404: "Not Found"}.get(status, "")
        return f"{f'HTTP {status} {reason}'.rstrip()} from {self.spec.url}"

    def _explain(self, error: BaseException) -> str:
        """One sentence (plus a stderr tail) saying why the server is unusable."""
        from mcp import MCPError

        leaves = list(_leaves(error))
        for leaf in leaves:
            if isinstance(leaf, FileNotFoundError):
                return f"command not found: {self.spec.command}"
            if isinstance(leaf, PermissionError):
                return f"cannot run {self.spec.command}: permission denied"
        for leaf in leaves:
            status = getattr(getattr(leaf, "response", None), "status_code", None)
            if status is not None:
                return self._http_detail(status)
            if type(leaf).__name__ in ("ConnectError", "ConnectTimeout"):
                return f"cannot connect to {self.spec.url}: {leaf}"
        for leaf in leaves:
            if isinstance(leaf, MCPError) and leaf.code == -32001:
                return f"no handshake from {self.spec.target} in time{self._stderr_suffix()}"
            if isinstance(leaf, MCPError) and leaf.code == -32000:
                code = self._exit_code()
                how = f"exited with code {code}" if code is not None else "closed the connection"
                return f"the server {how} before the handshake{self._stderr_suffix()}"
        if self._http_status is not None:
            return self._http_detail(self._http_status)
        first = leaves[0] if leaves else error
        return f"{type(first).__name__}: {first}{self._stderr_suffix()}"

    async def stop(self, *, keep_status: bool = False) -> None:
        self._stop.set()
        task = self._task
        self._task = None
        if task is not None and not task.done():
            # Still in the handshake (no client yet), the task would not notice the stop
            # event: waiting for it would only add the whole grace period to a failed start.
            if self._client is not None:
                with contextlib.suppress(TimeoutError, Exception):  # stopping must not raise
                    await asyncio.wait_for(asyncio.shield(task), timeout=STOP_TIMEOUT_S)
            if not task.done():
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        if self._errlog is not None:
            with contextlib.suppress(OSError):
                self._errlog.close()
            self._errlog = None
        if not keep_status:
            self.status = SourceStatus(SourceState.STOPPED)

    # --- the contract ------------------------------------------------------------------------

    def list_tools(self) -> list[ToolManifest]:
        return (
            [self.manifest]
            if self.manifest is not None and self.status.state is SourceState.READY
            else []
        )

    async def invoke(
        self, tool: str, api: str, args: dict[str, Any], ctx: CallContext
    ) -> ToolResult:
        from mcp import MCPError

        client = self._client
        if client is None or self.status.state is not SourceState.READY:
            return failure(
                ErrorType.SOURCE_UNAVAILABLE,
                f"{self.name} is not connected ({self.status.detail or self.status.state.value})",
            )

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            ctx.progress(progress, total, message)

        try:
            result = await client.call_tool(api, args, progress_callback=on_progress)
        except MCPError as error:
            if error.code == -32001:
                raise ToolTimedOut(error.message) from None
            if error.code == -32000:
                code = await self._wait_exit_code()
                how = f"exited with code {code}" if code is not None else "closed the connection"
                detail = f"{self.name} {how} while {api} was running"
                self.status = SourceStatus(SourceState.FAILED, f"{detail}{self._stderr_suffix()}")
                return failure(
                    ErrorType.CONNECTION_CLOSED,
                    f"{detail}; no result arrived.",
                    body={"stderr": self._stderr_tail()} if self._errlog else None,
                )
            return failure(
                ErrorType.PROTOCOL_ERROR,
                f"{self.name} answered {api} with error {error.code}: {error.message}",
                body={"code": error.code, "data": error.data},
            )
        except RuntimeError as error:
            # The SDK validates structuredContent against the tool's outputSchema.
            return failure(
                ErrorType.PROTOCOL_ERROR,
                f"{self.name} returned an invalid result for {api}: {error}",
            )
        return to_tool_result(result, tool=tool, api=api)
