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
import os
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from workbench.core.identifiers import slug
from workbench.core.limits import LimitExceeded, Limits
from workbench.core.manifest import ToolManifest
from workbench.core.result import ErrorType, ToolResult, failure
from workbench.core.runtime import CallContext, ToolTimedOut
from workbench.sources.base import SourceState, SourceStatus, ToolSource
from workbench.sources.mcp_results import manifest_from_tools, to_tool_result

HANDSHAKE_TIMEOUT_S = 20.0
STOP_TIMEOUT_S = 5.0
"""A stdio server gets stdin EOF, 1 s, SIGTERM to its group, 1 s, SIGKILL: well within this."""
STDERR_TAIL_LINES = 12
_SSE_CAP = re.compile(r"exceeded the (\d+) byte limit")
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
        self,
        spec: McpServerSpec,
        *,
        handshake_timeout_s: float = HANDSHAKE_TIMEOUT_S,
        limits: Limits | None = None,
    ) -> None:
        super().__init__(spec.name or "mcp")
        self.spec = spec
        self.handshake_timeout_s = handshake_timeout_s
        self.limits = (limits or Limits()).overridden(
            spec.limits, where=f"mcpServers.{spec.name or 'server'}.limits"
        )
        self.manifest: ToolManifest | None = None
        self.server_name: str | None = None
        self._client: Any = None
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._ready: asyncio.Future[None] | None = None
        self._stderr: Any = None
        """The :class:`~workbench.sources.mcp_stdio.StderrTail` of a stdio server."""
        self._guard: Any = None
        """The :class:`~workbench.sources.mcp_guard.MessageGuard` of the connection."""
        self._processes: list[Any] = []
        self._http_status: int | None = None
        self.skipped: list[str] = []

    @property
    def problems(self) -> list[str]:
        """What is wrong with this server that does not stop it: left-out tools, garbage."""
        problems = list(self.skipped)
        if self._guard is not None:
            problems.extend(
                item for item in self._guard.stats.tool_problems if item not in problems
            )
            summary = self._guard.stats.summary()
            if summary:
                problems.append(summary)
        return problems

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
        try:
            transport = self._transport()
            if isinstance(transport, tuple):
                transport, http_client = transport
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
            self._client = None
            if http_client is not None:
                await http_client.aclose()

    def _transport(self) -> Any:
        """The SDK transport for the spec (with the HTTP client to close, for a URL)."""
        from workbench.sources.mcp_guard import (
            GuardStats,
            MessageGuard,
            guarded,
            summarize_sdk_logs,
        )

        summarize_sdk_logs()
        if self.spec.server is not None:
            return self.spec.server  # In-process: our own code, nothing to guard against.
        self._guard = MessageGuard(self.limits, GuardStats())
        if self.spec.url:
            from mcp.client.streamable_http import streamable_http_client

            from workbench.net.mcp_http import capped_client

            async def note_status(response: Any) -> None:
                # The SDK turns an HTTP error into a bare "error response": keep the status.
                if response.status_code >= 400:
                    self._http_status = response.status_code

            http_client = capped_client(
                max_message_bytes=self.limits.max_message_bytes,
                headers=self.spec.headers,
                on_exceeded=self._guard.stats.record_limit,
                event_hooks={"response": [note_status]},
            )
            inner = streamable_http_client(
                self.spec.url,
                http_client=http_client,
                # The SDK's 1 MiB default fails real results; an event is one message.
                max_sse_event_size=self.limits.max_message_bytes,
            )
            return guarded(inner, self._guard), http_client
        from mcp.client.stdio import get_default_environment

        from workbench.sources.mcp_stdio import StderrTail, StdioLaunch, stdio_transport

        self._stderr = StderrTail(self.limits.max_stderr_bytes)
        # A workbench user expects their environment (PATH, virtualenv) to reach the server,
        # unless the config opts out to keep secrets from it.
        base = dict(os.environ) if self.spec.inherit_env else get_default_environment()
        if os.name != "posix":
            # No process groups or death signals there: the SDK's own transport, guarded.
            from mcp import StdioServerParameters
            from mcp.client.stdio import stdio_client

            params = StdioServerParameters(
                command=self.spec.command or "",
                args=self.spec.args,
                env={**base, **self.spec.env},
                cwd=self.spec.cwd,
                encoding_error_handler="replace",
            )
            return guarded(stdio_client(params), self._guard)
        launch = StdioLaunch(
            command=self.spec.command or "",
            args=tuple(self.spec.args),
            env={**base, **self.spec.env},
            cwd=self.spec.cwd,
        )
        return stdio_transport(launch, self._guard, self._stderr, on_spawn=self._processes.append)

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
        left_out = self._guard.stats.tool_problems if self._guard is not None else []
        if left_out:
            detail += f"; {len(left_out)} malformed tool(s) left out (listed as problems)"
        self.status = SourceStatus(SourceState.READY, detail)

    def _stderr_tail(self) -> str:
        if self._stderr is None:
            return ""
        lines = [line.rstrip() for line in self._stderr.text().splitlines() if line.strip()]
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
        # Polled: wait() would also wait for a grandchild to let go of the stdout pipe.
        deadline = asyncio.get_running_loop().time() + timeout_s
        while self._exit_code() is None and self._processes:
            if asyncio.get_running_loop().time() >= deadline:
                break
            await asyncio.sleep(0.02)
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

        hits_before = len(self._guard.stats.limit_hits) if self._guard is not None else 0
        try:
            result = await client.call_tool(api, args, progress_callback=on_progress)
        except MCPError as error:
            if error.code == -32001:
                raise ToolTimedOut(error.message) from None
            exceeded = self._exceeded(error, hits_before)
            if exceeded is not None:
                return failure(
                    ErrorType.LIMIT_EXCEEDED,
                    f"{self.name} answered {api}, but {exceeded}",
                    body=exceeded.to_body(),
                )
            if error.code == -32000 and self.spec.url and error.message != "Connection closed":
                # Over HTTP this code also ends one request (its event stream broke); the
                # connection, and the other requests, live on.
                return failure(
                    ErrorType.CONNECTION_CLOSED,
                    f"{self.name} did not finish answering {api}: {error.message}",
                )
            if error.code == -32000:
                code = await self._wait_exit_code()
                how = f"exited with code {code}" if code is not None else "closed the connection"
                detail = f"{self.name} {how} while {api} was running"
                self.status = SourceStatus(SourceState.FAILED, f"{detail}{self._stderr_suffix()}")
                return failure(
                    ErrorType.CONNECTION_CLOSED,
                    f"{detail}; no result arrived.",
                    body={"stderr": tail} if (tail := self._stderr_tail()) else None,
                )
            return self._protocol_failure(api, error)
        except RuntimeError as error:
            # The SDK validates structuredContent against the tool's outputSchema.
            return failure(
                ErrorType.PROTOCOL_ERROR,
                f"{self.name} returned an invalid result for {api}: {error}",
            )
        return to_tool_result(result, tool=tool, api=api)

    def _exceeded(self, error: Any, hits_before: int) -> LimitExceeded | None:
        """The cap an error stands for: the guard's, the capped HTTP client's, or the SSE one."""
        from workbench.sources.mcp_guard import GUARD_ERROR

        data = error.data.get(GUARD_ERROR) if isinstance(error.data, dict) else None
        if isinstance(data, dict) and isinstance(data.get("cap"), str):
            return LimitExceeded(
                data["cap"],
                int(data.get("limit") or 0),
                seen=data.get("seen"),
                per_server=True,
                what="its answer",
            )
        hits = self._guard.stats.limit_hits if self._guard is not None else []
        if len(hits) > hits_before:
            hit = hits[-1]
            return LimitExceeded(
                hit.cap, hit.limit, seen=hit.seen, per_server=True, what="its answer"
            )
        if "recursion limit exceeded" in str(error.message):
            # pydantic's own JSON depth limit, met inside the SDK before our guard sees it.
            return LimitExceeded(
                "max_json_depth", self.limits.max_json_depth, per_server=True, what="its answer"
            )
        match = _SSE_CAP.search(str(error.message))
        if match is not None:
            return LimitExceeded(
                "max_message_bytes",
                int(match.group(1)),
                per_server=True,
                what="one event of its answer",
            )
        return None

    def _protocol_failure(self, api: str, error: Any) -> ToolResult:
        from workbench.sources.mcp_guard import GUARD_ERROR

        data = error.data.get(GUARD_ERROR) if isinstance(error.data, dict) else None
        if isinstance(data, dict):
            # The guard answered for the server: what it saw is the message, not a code.
            return failure(
                ErrorType.PROTOCOL_ERROR,
                f"{self.name} sent an unusable answer to {api}: {error.message}",
                body={"preview": data.get("preview")} if data.get("preview") else None,
            )
        return failure(
            ErrorType.PROTOCOL_ERROR,
            f"{self.name} answered {api} with error {error.code}: {error.message}",
            body={"code": error.code, "data": error.data},
        )
