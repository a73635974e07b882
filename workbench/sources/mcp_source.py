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
import importlib
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.core.interventions import LOG_LEVELS
from workbench.core.limits import Limits
from workbench.core.manifest import ToolManifest
from workbench.core.mcp_catalog import PromptInfo, ResourceInfo, ResourceTemplateInfo
from workbench.core.result import ErrorType, ToolResult, failure
from workbench.core.runtime import CallContext, ToolTimedOut
from workbench.core.sanitize import clean, clean_output
from workbench.sources.base import SourceState, SourceStatus, ToolSource
from workbench.sources.mcp_connect import (
    Connection,
    ConnectionEvents,
    McpServerSpec,
    stdio_launch,
)
from workbench.sources.mcp_guard_stats import MAX_TOOLS
from workbench.sources.mcp_published import (
    HANDSHAKE_TIMEOUT_S,
    LIST_CHANGED_DEBOUNCE_S,
    MAX_CATALOG_ITEMS,
    MAX_CATALOG_PAGES,
    MAX_TOOL_PAGES,
    MAX_UI_RESOURCES,
    PublishedCatalog,
)
from workbench.sources.mcp_results import to_tool_result
from workbench.sources.oauth import SIGN_IN_TIMEOUT_S
from workbench.sources.server_log import ServerLog

if TYPE_CHECKING:
    import anyio.abc
    import mcp_types as types
    from mcp import Client, MCPError
    from mcp.shared.dispatcher import ProgressFnT

    from workbench.sources.mcp_conversation import McpConversation
    from workbench.sources.mcp_guard import MessageGuard
    from workbench.sources.mcp_stdio import StderrTail

__all__ = [
    "BACKSTOP_TIMEOUT_S",
    "DEFAULT_LOG_LEVEL",
    "HANDSHAKE_TIMEOUT_S",
    "LIST_CHANGED_DEBOUNCE_S",
    "MAX_CATALOG_ITEMS",
    "MAX_CATALOG_PAGES",
    "MAX_TOOLS",
    "MAX_TOOL_PAGES",
    "MAX_UI_RESOURCES",
    "SERVER_NAME",
    "McpServerSpec",
    "McpSource",
]

OAUTH_ERRORS = ("OAuthFlowError", "OAuthTokenError", "OAuthRegistrationError")
STOP_TIMEOUT_S = 5.0
"""A stdio server gets stdin EOF, 0.5 s, SIGTERM to its session, 0.5 s, SIGKILL: well within."""
STDERR_TAIL_LINES = 12
SERVER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
# Past the longest possible call deadline: the call runner's own deadline cancels first.
# (The SDK's clock also runs while a person answers an elicitation; 15 minutes is the most
# one call may spend waiting on people.)
BACKSTOP_TIMEOUT_S = 900.0
URL_ELICITATION_RETRIES = 2
"""How often a call the server refused with -32042 (visit a URL first) is tried again."""
DEFAULT_LOG_LEVEL = "info"


def _leaves(error: BaseException) -> Iterator[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            yield from _leaves(inner)
    else:
        yield error


class McpSource(PublishedCatalog, ToolSource):
    """One MCP server, connected for as long as the source runs."""

    kind = "mcp"

    def __init__(
        self,
        spec: McpServerSpec,
        *,
        handshake_timeout_s: float = HANDSHAKE_TIMEOUT_S,
        limits: Limits | None = None,
        roots: list[Path] | None = None,
        log_level: str | None = DEFAULT_LOG_LEVEL,
        catalog: bool = True,
    ) -> None:
        super().__init__(spec.name or "mcp")
        if log_level is not None and log_level not in LOG_LEVELS:
            raise ValueError(f"log level {log_level!r} is not one of {', '.join(LOG_LEVELS)}")
        self.spec = spec
        self.handshake_timeout_s = handshake_timeout_s
        if spec.oauth is not None and spec.oauth.interactive and spec.url:
            # The handshake waits for a person to sign in in their browser.
            self.handshake_timeout_s = max(handshake_timeout_s, SIGN_IN_TIMEOUT_S)
        self._close_auth: Callable[[], None] | None = None
        self.limits = (limits or Limits()).overridden(
            spec.limits, where=f"mcpServers.{spec.name or 'server'}.limits"
        )
        self.manifest: ToolManifest | None = None
        self.server_name: str | None = None
        self._client: Client | None = None
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._ready: asyncio.Future[None] | None = None
        self._stderr: StderrTail | None = None
        """The tail of a stdio server's stderr."""
        self._guard: MessageGuard | None = None
        """Checks every message of the connection (none in-process)."""
        self._processes: list[anyio.abc.Process] = []
        self._closed_output = False
        """A stdio server closed its stdout and kept running (it has been ended since)."""
        self._http_status: int | None = None
        self.skipped: list[str] = []
        self.roots: list[Path] = list(spec.roots if spec.roots is not None else roots or [])
        """The client's roots, answered to ``roots/list``: only what ``--root`` or the server's
        ``"roots"`` name (none by default: a server is never handed a folder nobody named)."""
        self.environment: list[str] = []
        """The names of the environment variables a stdio server was started with."""
        self.log_level = log_level
        self.catalog = catalog
        """List resources, templates and prompts after the handshake (the TUI shows them);
        ``workbench call`` and ``workbench tools`` print none, so they skip the round trips."""
        self.server_log = ServerLog()
        """Everything the server said besides results (for the server log panel)."""
        self.conversation: McpConversation | None = None
        """What the server asked and said during calls, once started."""
        self.resources: list[ResourceInfo] = []
        self.templates: list[ResourceTemplateInfo] = []
        self.prompts: list[PromptInfo] = []
        self.notes: list[str] = []
        """Problems found after the handshake (catalog, log level, UI resources, tasks)."""
        self._refresh_task: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[None]] = set()
        self.task_tools: set[str] = set()

    @property
    def problems(self) -> list[str]:
        """What is wrong with this server that does not stop it: left-out tools, garbage."""
        problems = [*self.skipped, *self.notes]
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
        self._closed_output = False
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
        connection: Connection | None = None
        started: anyio.abc.Process | None = None
        try:
            started = await self._start_stdio_server()
            if started is not None:
                # The server boots (node, python: most of a second) while the SDK is imported,
                # in a thread: a ctrl-c meanwhile ends the server at once, not after the import.
                await asyncio.to_thread(importlib.import_module, "mcp")
            import mcp_types as types
            from mcp import Client

            from workbench.sources.mcp_conversation import McpConversation

            conversation = McpConversation(
                self.spec.name or self.spec.target, roots=self.roots, log=self.server_log
            )
            conversation.on_list_changed = self._list_changed
            self.conversation = conversation
            connection = self._connect(started)
            if self._guard is not None:
                self._guard.on_request_problem = conversation.malformed_request
            async with Client(
                connection.transport,
                mode=self.spec.mode,
                read_timeout_seconds=BACKSTOP_TIMEOUT_S,
                # Every capability a client can declare: the server then offers everything
                # (server-everything lists 17 tools instead of 13). No model is ever called.
                sampling_callback=conversation.sample,
                sampling_capabilities=types.SamplingCapability(
                    tools=types.SamplingToolsCapability()
                ),
                elicitation_callback=conversation.elicit,
                list_roots_callback=conversation.list_roots,
                logging_callback=conversation.log_message,
                message_handler=conversation.message,
                log_level=self.log_level,  # type: ignore[arg-type]
                client_info=types.Implementation(name="workbench", version=_version()),
            ) as client:
                self._client = client
                await self._load_tools(client)
                await self._after_connect(client)
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
            if started is not None and started.returncode is None:
                # Started, but no transport took it over (its stop ends it otherwise).
                from workbench.sources.process_group import kill_at_once

                await kill_at_once(started)
            for task in [*self._background, *([self._refresh_task] if self._refresh_task else [])]:
                task.cancel()
            self._background.clear()
            if connection is not None and connection.http_client is not None:
                await connection.http_client.aclose()
            if self._close_auth is not None:
                self._close_auth()
                self._close_auth = None

    async def _start_stdio_server(self) -> anyio.abc.Process | None:
        """A stdio server's command, started before anything imports the SDK (POSIX: the
        SDK's own transport starts it elsewhere); ``None`` for other transports."""
        if self.spec.transport != "stdio" or os.name != "posix":
            return None
        from workbench.sources.process_group import spawn_in_session

        launch, _ = stdio_launch(self.spec)
        process = await spawn_in_session(launch)
        self._processes.append(process)
        return process

    def _connect(self, started: anyio.abc.Process | None = None) -> Connection:
        """The connection for the spec; the source keeps its guard, stderr and sign-in."""
        from workbench.sources.mcp_connect import connect

        connection = connect(
            self.spec,
            self.limits,
            ConnectionEvents(
                on_http_status=self._note_http_status,
                on_sign_in=self._sign_in,
                on_spawn=self._processes.append,
                on_output_closed=self._output_closed,
            ),
            started,
        )
        if connection.guard is not None:
            self._guard = connection.guard
        if connection.stderr is not None:
            self._stderr = connection.stderr
            self.environment = connection.environment
        self._close_auth = connection.close_auth
        return connection

    def _note_http_status(self, status: int) -> None:
        self._http_status = status

    def _output_closed(self) -> None:
        self._closed_output = True

    def _stderr_tail(self) -> str:
        if self._stderr is None:
            return ""
        # What the server wrote to its terminal: shown as the terminal would (a progress bar's
        # last state, colours dropped), invisible characters marked.
        text = clean_output(self._stderr.text())
        lines = [line.rstrip() for line in text.split("\n") if line.strip()]
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

    def _how_it_closed(self, code: int | None) -> str:
        if self._closed_output:
            return "closed its output (stdout) and kept running (it was stopped)"
        return f"exited with code {code}" if code is not None else "closed the connection"

    async def _wait_exit_code(self, timeout_s: float = 2.0) -> int | None:
        """The exit code of a server whose pipe just closed: it may not be reaped yet."""
        # Polled: wait() would also wait for a grandchild to let go of the stdout pipe.
        if self._closed_output:
            return None  # It did not exit: it closed its stdout, and no code will come.
        deadline = asyncio.get_running_loop().time() + timeout_s
        while self._exit_code() is None and self._processes:
            if asyncio.get_running_loop().time() >= deadline:
                break
            await asyncio.sleep(0.02)
        return self._exit_code()

    def _http_detail(self, status: int) -> str:
        reason = {401: "Unauthorized", 403: "Forbidden", 404: "Not Found"}.get(status, "")
        return f"{f'HTTP {status} {reason}'.rstrip()} from {self.spec.url}"

    def oauth_secrets(self) -> list[str]:
        """The client secret and the tokens this source signed in with (for the redactor)."""
        oauth = self.spec.oauth
        if oauth is None or not self.spec.url:
            return []
        from workbench.sources.oauth import FileTokenStorage

        stored = FileTokenStorage(self.spec.url, oauth.token_dir).secrets()
        return [value for value in (oauth.client_secret, *stored) if value]

    def _sign_in(self, url: str) -> None:
        """Tell the person where to sign in: stderr for a headless command, the server log."""
        import sys

        shown = clean(url)
        self.server_log.add("notice", f"sign in to {self.name}: open {shown}")
        print(f"workbench: sign in to {self.spec.url}: open {shown}", file=sys.stderr, flush=True)

    def _explain(self, error: BaseException) -> str:
        """One sentence (plus a stderr tail) saying why the server is unusable."""
        from mcp import MCPError

        from workbench.sources.mcp_errors import server_sent

        leaves = list(_leaves(error))
        for leaf in leaves:
            if type(leaf).__name__ in (
                "OAuthFlowError",
                "OAuthTokenError",
                "OAuthRegistrationError",
            ):
                return f"sign-in to {self.spec.url} failed: {clean(str(leaf))[:300]}"
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
            if isinstance(leaf, MCPError) and server_sent(leaf.data) is not None:
                return (
                    f"{self.spec.target} answered the handshake with error {leaf.code}: "
                    f"{clean(leaf.message)[:300]}"
                )
            if isinstance(leaf, MCPError) and leaf.code == -32001:
                return f"no handshake from {self.spec.target} in time{self._stderr_suffix()}"
            if isinstance(leaf, MCPError) and leaf.code == -32000:
                how = self._how_it_closed(self._exit_code())
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
        from mcp import InputRequiredRoundsExceededError, MCPError
        from pydantic import ValidationError

        from workbench.sources.mcp_tasks import TaskFailed, call_as_task

        client = self._client
        conversation = self.conversation
        if client is None or conversation is None or self.status.state is not SourceState.READY:
            return failure(
                ErrorType.SOURCE_UNAVAILABLE,
                f"{self.name} is not connected ({self.status.detail or self.status.state.value})",
            )

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            ctx.progress(progress, total, message)

        hits_before = len(self._guard.stats.limit_hits) if self._guard is not None else 0
        try:
            with conversation.in_call(ctx):
                if api in self.task_tools:
                    result = await call_as_task(
                        client,
                        conversation,
                        api,
                        args,
                        progress=ctx.progress,
                        on_progress=on_progress,
                        result_timeout_s=BACKSTOP_TIMEOUT_S,
                    )
                else:
                    result = await self._call_visiting_urls(
                        client, conversation, api, args, ctx, on_progress
                    )
        except _UrlsDeclined as declined:
            return failure(
                ErrorType.REQUEST_REFUSED,
                f"{self.name} needs the user to visit {declined.urls} before {api} can run, "
                "and that was declined; nothing ran.",
                state={"urls": declined.url_list},
            )
        except MCPError as error:
            return await self._call_failed(api, error, hits_before)
        except TaskFailed as ended:
            return failure(ErrorType.TOOL_FAILED, f"{self.name} ran {api}, but {ended}")
        except ValidationError as error:
            if api not in self.task_tools:
                raise
            # A task's answers are checked here, not by the SDK (see mcp_tasks).
            return failure(
                ErrorType.PROTOCOL_ERROR,
                f"{self.name} answered the task of {api} unusably: "
                f"{clean(str(error).splitlines()[0])[:300]}",
            )
        except InputRequiredRoundsExceededError as error:
            # 2026-07-28: the server answered "input required" round after round.
            return failure(
                ErrorType.INPUT_LIMIT,
                f"{self.name} asked for input again after every answer to {api}; the workbench "
                f"stopped after {error.max_rounds} rounds.",
                state={"rounds": error.max_rounds},
            )
        except RuntimeError as error:
            # The SDK validates structuredContent against the tool's outputSchema.
            return failure(
                ErrorType.PROTOCOL_ERROR,
                f"{self.name} returned an invalid result for {api}: {error}",
            )
        return to_tool_result(result, tool=tool, api=api)

    async def _call_failed(self, api: str, error: MCPError, hits_before: int) -> ToolResult:
        """The result of a call the SDK raised a JSON-RPC error for (see :mod:`.mcp_errors`)."""
        from workbench.sources.mcp_errors import Unanswered, call_error_result

        hits = self._guard.stats.limit_hits if self._guard is not None else []
        mapped = call_error_result(
            error.code,
            error.message,
            error.data,
            server=self.name,
            api=api,
            over_http=bool(self.spec.url),
            new_limit_hit=hits[-1] if len(hits) > hits_before else None,
            max_json_depth=self.limits.max_json_depth,
        )
        if mapped is Unanswered.TIMED_OUT:
            raise ToolTimedOut(error.message) from None
        if mapped is Unanswered.SERVER_GONE:
            how = self._how_it_closed(await self._wait_exit_code())
            detail = f"{self.name} {how} while {api} was running"
            self.status = SourceStatus(SourceState.FAILED, f"{detail}{self._stderr_suffix()}")
            return failure(
                ErrorType.CONNECTION_CLOSED,
                f"{detail}; no result arrived.",
                body={"stderr": tail} if (tail := self._stderr_tail()) else None,
            )
        assert isinstance(mapped, ToolResult)
        return mapped

    async def _call_visiting_urls(
        self,
        client: Client,
        conversation: McpConversation,
        api: str,
        args: dict[str, Any],
        ctx: CallContext,
        on_progress: ProgressFnT,
    ) -> types.CallToolResult:
        """``tools/call``; when the server first needs URLs visited (-32042), each URL is shown
        as an Intervention and, once all are accepted, the call is made again (bounded)."""
        from mcp import MCPError
        from mcp.shared.exceptions import UrlElicitationRequiredError
        from mcp_types import URL_ELICITATION_REQUIRED

        from workbench.sources.mcp_conversation import url_elicitation

        for attempt in range(URL_ELICITATION_RETRIES + 1):
            try:
                return await client.call_tool(api, args, progress_callback=on_progress)
            except MCPError as error:
                if error.code != URL_ELICITATION_REQUIRED or attempt == URL_ELICITATION_RETRIES:
                    raise
                try:
                    wanted = UrlElicitationRequiredError.from_error(error.error).elicitations
                except (ValueError, TypeError, KeyError):
                    raise error from None
                urls = [clean(item.url)[:300] for item in wanted[:5]]
                conversation.notice(
                    f"{api} needs {len(wanted)} URL(s) visited first (error -32042)"
                )
                for item in wanted[:5]:
                    answer = await ctx.ask(url_elicitation(item, self.name))
                    if answer.action != "accept":
                        raise _UrlsDeclined(urls) from None
        raise AssertionError("unreachable")  # pragma: no cover


class _UrlsDeclined(Exception):
    """The user would not visit the URLs a server needs before a call can run."""

    def __init__(self, urls: list[str]) -> None:
        super().__init__(", ".join(urls))
        self.url_list = urls

    @property
    def urls(self) -> str:
        return ", ".join(self.url_list)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("workbench")
    except PackageNotFoundError:
        return "0"
