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
import warnings
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from workbench.core.identifiers import slug
from workbench.core.interventions import LOG_LEVELS, elicitation_request
from workbench.core.limits import LimitExceeded, Limits
from workbench.core.manifest import ToolManifest, UiResource
from workbench.core.mcp_catalog import (
    PromptInfo,
    PromptRender,
    ResourceInfo,
    ResourceRead,
    ResourceTemplateInfo,
)
from workbench.core.result import ErrorType, ToolResult, failure
from workbench.core.runtime import CallContext, ToolTimedOut
from workbench.core.sanitize import clean
from workbench.sources.base import SourceState, SourceStatus, ToolSource
from workbench.sources.mcp_results import manifest_from_tools, to_tool_result
from workbench.sources.oauth import SIGN_IN_TIMEOUT_S, OAuthSettings
from workbench.sources.server_log import ServerLog

HANDSHAKE_TIMEOUT_S = 20.0
OAUTH_ERRORS = ("OAuthFlowError", "OAuthTokenError", "OAuthRegistrationError")
STOP_TIMEOUT_S = 5.0
"""A stdio server gets stdin EOF, 0.5 s, SIGTERM to its session, 0.5 s, SIGKILL: well within."""
STDERR_TAIL_LINES = 12
_SSE_CAP = re.compile(r"exceeded the (\d+) byte limit")
MAX_TOOL_PAGES = 50
MAX_TOOLS = 1_000
SERVER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
# Past the longest possible call deadline: the call runner's own deadline cancels first.
# (The SDK's clock also runs while a person answers an elicitation; 15 minutes is the most
# one call may spend waiting on people.)
BACKSTOP_TIMEOUT_S = 900.0
MAX_CATALOG_PAGES = 20
MAX_CATALOG_ITEMS = 500
"""Resources, templates and prompts listed per server (a server that pages forever stops)."""
MAX_UI_RESOURCES = 20
LIST_CHANGED_DEBOUNCE_S = 0.25
"""Servers announce list changes in bursts (server-everything sends five at connect)."""
URL_ELICITATION_RETRIES = 2
"""How often a call the server refused with -32042 (visit a URL first) is tried again."""
DEFAULT_LOG_LEVEL = "info"
T = TypeVar("T")


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
        self._client: Any = None
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._ready: asyncio.Future[None] | None = None
        self._stderr: Any = None
        """The :class:`~workbench.sources.mcp_stdio.StderrTail` of a stdio server."""
        self._guard: Any = None
        """The :class:`~workbench.sources.mcp_guard.MessageGuard` of the connection."""
        self._processes: list[Any] = []
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
        self.conversation: Any = None
        """The :class:`~workbench.sources.mcp_conversation.McpConversation` once started."""
        self.resources: list[ResourceInfo] = []
        self.templates: list[ResourceTemplateInfo] = []
        self.prompts: list[PromptInfo] = []
        self.notes: list[str] = []
        """Problems found after the handshake (catalog, log level, UI resources, tasks)."""
        self._refresh_task: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[None]] = set()

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
        import mcp_types as types
        from mcp import Client

        from workbench.sources.mcp_conversation import McpConversation

        transport: Any
        http_client = None
        conversation = McpConversation(
            self.spec.name or self.spec.target, roots=self.roots, log=self.server_log
        )
        conversation.on_list_changed = self._list_changed
        self.conversation = conversation
        try:
            transport = self._transport()
            if isinstance(transport, tuple):
                transport, http_client = transport
            if self._guard is not None:
                self._guard.on_request_problem = conversation.malformed_request
            async with Client(
                transport,
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
            for task in [*self._background, *([self._refresh_task] if self._refresh_task else [])]:
                task.cancel()
            self._background.clear()
            if http_client is not None:
                await http_client.aclose()
            if self._close_auth is not None:
                self._close_auth()
                self._close_auth = None

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
        if self.spec.url:
            from mcp.client.streamable_http import streamable_http_client

            from workbench.net.mcp_http import capped_client
            from workbench.net.mcp_wire import WireWatch

            watch = WireWatch(max_tools=MAX_TOOLS)
            self._guard = MessageGuard(
                self.limits, GuardStats(), max_tools=MAX_TOOLS, sent_by_server=watch.sent_by_server
            )
            watch.on_tools_cut = self._guard.stats.cut_tools

            async def note_status(response: Any) -> None:
                # The SDK turns an HTTP error into a bare "error response": keep the status.
                if response.status_code >= 400:
                    self._http_status = response.status_code

            auth = None
            if self.spec.oauth is not None:
                from workbench.sources.oauth import auth_for

                auth, self._close_auth = auth_for(
                    self.spec.url, self.spec.oauth, on_sign_in=self._sign_in
                )
            http_client = capped_client(
                auth=auth,
                max_message_bytes=self.limits.max_message_bytes,
                headers=self.spec.headers,
                on_exceeded=self._guard.stats.record_limit,
                event_hooks={"response": [note_status]},
                watch=watch,
            )
            inner = streamable_http_client(
                self.spec.url,
                http_client=http_client,
                # The SDK's 1 MiB default fails real results; an event is one message.
                max_sse_event_size=self.limits.max_message_bytes,
            )
            return guarded(inner, self._guard), http_client
        self._guard = MessageGuard(self.limits, GuardStats(), max_tools=MAX_TOOLS)
        from mcp.client.stdio import get_default_environment

        from workbench.sources.mcp_stdio import StderrTail, StdioLaunch, stdio_transport

        self._stderr = StderrTail(self.limits.max_stderr_bytes)
        # A workbench user expects their environment (PATH, virtualenv) to reach the server,
        # unless the config opts out to keep secrets from it.
        base = dict(os.environ) if self.spec.inherit_env else get_default_environment()
        self.environment = sorted({*base, *self.spec.env})
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
        return stdio_transport(
            launch,
            self._guard,
            self._stderr,
            on_spawn=self._processes.append,
            on_output_closed=self._output_closed,
        )

    def _output_closed(self) -> None:
        self._closed_output = True

    async def _load_tools(self, client: Any, *, cache_mode: str = "use") -> None:
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
            page = (
                await client.list_tools(cursor=cursor)
                if cursor
                else await client.list_tools(cache_mode=cache_mode)
            )
            tools.extend(page.tools)
            cursor = page.next_cursor
            if not cursor or len(tools) >= MAX_TOOLS:
                break
        tools = tools[:MAX_TOOLS]
        if self.spec.tools is not None:
            tools = [tool for tool in tools if tool.name in self.spec.tools]
        self.notes = [note for note in self.notes if "task-augmented" not in note]
        for tool in tools:
            execution = getattr(tool, "execution", None)
            if getattr(execution, "task_support", None) == "required":
                self.notes.append(
                    f"{clean(tool.name)[:80]} runs only as an MCP task (taskSupport: required), "
                    "which this client does not support: task-augmented calls fail"
                )
        title = (
            (getattr(info, "title", None) or self.server_name)
            if info is not None
            else self.server_name
        )
        description = (
            client.instructions or f"MCP server {self.server_name} over {self.spec.transport}"
        )
        manifest, self.skipped = manifest_from_tools(
            identifier, title, description[:500], tools, self.spec.policies
        )
        if manifest is not None and self.manifest is not None:
            manifest = _keep_ui_resources(manifest, self.manifest)
        self.manifest = manifest
        self.revision += 1
        detail = f"{len(tools)} tools over {self.spec.transport}"
        if self.skipped:
            detail += f"; skipped: {'; '.join(self.skipped)}"
        cut = self._guard.stats.tools_cut if self._guard is not None else None
        if cut is not None:
            detail += f" (showing {cut[0]:,} of {cut[1]:,} listed)"
        left_out = self._guard.stats.tool_problems if self._guard is not None else []
        if left_out:
            detail += f"; {len(left_out)} malformed tool(s) left out (listed as problems)"
        self.status = SourceStatus(SourceState.READY, detail)

    # --- after the handshake: log level, resources, prompts, UI resources ----------------------

    async def _after_connect(self, client: Any) -> None:
        """Everything a server publishes besides tools; a failure here is a problem, not fatal."""
        from mcp_types.version import MODERN_PROTOCOL_VERSIONS

        self.notes = [note for note in self.notes if "task-augmented" in note]
        capabilities = client.server_capabilities
        modern = client.protocol_version in MODERN_PROTOCOL_VERSIONS
        if capabilities.logging is not None and self.log_level is not None and not modern:
            await self._quietly(
                "logging/setLevel", self._set_level(client, self.log_level), note=False
            )
        # Without the catalog, resources are still listed when a tool has an app UI: the
        # listing's metadata goes into that UI resource.
        has_ui = self.manifest is not None and any(api.ui for api in self.manifest.api)
        if capabilities.resources is not None and (self.catalog or has_ui):
            resources = await self._quietly("resources/list", self._list_resources(client))
            self.resources = resources or []
        if capabilities.resources is not None and self.catalog:
            templates = await self._quietly(
                "resources/templates/list", self._list_templates(client)
            )
            self.templates = templates or []
        if capabilities.prompts is not None and self.catalog:
            self.prompts = await self._quietly("prompts/list", self._list_prompts(client)) or []
        await self._quietly("UI resources", self._load_ui_resources(client))
        if modern and (
            capabilities.tools is not None
            or capabilities.prompts is not None
            or capabilities.resources is not None
        ):
            self._spawn(self._listen(client))
        self.revision += 1

    async def _quietly(self, what: str, work: Awaitable[T], *, note: bool = True) -> T | None:
        """``work``, bounded by the handshake timeout; a failure becomes one problem line."""
        from mcp import MCPError

        try:
            return await asyncio.wait_for(work, timeout=self.handshake_timeout_s)
        except TimeoutError:
            problem = f"{what}: no answer within {self.handshake_timeout_s:g} s"
        except MCPError as error:
            problem = f"{what} failed: {clean(error.message)[:200]} (error {error.code})"
        except Exception as error:  # noqa: BLE001 - a server's odd answer must not stop the source
            problem = f"{what} failed: {type(error).__name__}: {clean(error)[:200]}"
        self.server_log.add("notice", problem)
        if note:
            self.notes.append(problem)
        return None

    async def _set_level(self, client: Any, level: str) -> None:
        from mcp.shared.exceptions import MCPDeprecationWarning

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            await client.set_logging_level(level)
        self.server_log.add("notice", f"asked the server for log messages at {level} and above")

    async def _pages(self, fetch: Callable[..., Awaitable[Any]], field_name: str) -> list[Any]:
        items: list[Any] = []
        cursor = None
        for _ in range(MAX_CATALOG_PAGES):
            page = await (fetch(cursor=cursor) if cursor else fetch())
            items.extend(getattr(page, field_name))
            cursor = page.next_cursor
            if not cursor or len(items) >= MAX_CATALOG_ITEMS:
                break
        return items[:MAX_CATALOG_ITEMS]

    async def _list_resources(self, client: Any) -> list[ResourceInfo]:
        from workbench.sources.mcp_catalog import resource_info

        return [
            resource_info(item) for item in await self._pages(client.list_resources, "resources")
        ]

    async def _list_templates(self, client: Any) -> list[ResourceTemplateInfo]:
        from workbench.sources.mcp_catalog import template_info

        items = await self._pages(client.list_resource_templates, "resource_templates")
        return [template_info(item) for item in items]

    async def _list_prompts(self, client: Any) -> list[PromptInfo]:
        from workbench.sources.mcp_catalog import prompt_info

        return [prompt_info(item) for item in await self._pages(client.list_prompts, "prompts")]

    async def _load_ui_resources(self, client: Any) -> None:
        """Read the ``ui://`` resource of every tool with a UI (MCP Apps) and note its metadata."""
        from workbench.sources.mcp_catalog import ui_resource

        manifest = self.manifest
        if manifest is None:
            return
        uris = list(dict.fromkeys(api.ui.resource_uri for api in manifest.api if api.ui))
        listed = {item.uri: item for item in self.resources}
        found: dict[str, UiResource] = {}
        for uri in uris[:MAX_UI_RESOURCES]:
            found[uri] = await ui_resource(client, uri, listed.get(uri))
        self.manifest = _with_ui_resources(manifest, found)
        self.notes = [note for note in self.notes if not note.startswith("app UI ")]
        for uri, resource in found.items():
            users = [api.name for api in manifest.api if api.ui and api.ui.resource_uri == uri]
            self.notes.extend(
                f"app UI of {', '.join(users[:3])}: {problem}" for problem in resource.problems
            )

    async def _listen(self, client: Any) -> None:
        """On a 2026-07-28 connection, list changes come over ``subscriptions/listen``."""
        from mcp.shared.subscriptions import (
            PromptsListChanged,
            ResourcesListChanged,
            ResourceUpdated,
            ToolsListChanged,
        )

        conversation = self.conversation
        try:
            async with client.listen(
                tools_list_changed=True, prompts_list_changed=True, resources_list_changed=True
            ) as subscription:
                async for event in subscription:
                    if isinstance(event, ToolsListChanged):
                        method = "notifications/tools/list_changed"
                    elif isinstance(event, PromptsListChanged):
                        method = "notifications/prompts/list_changed"
                    elif isinstance(event, ResourcesListChanged):
                        method = "notifications/resources/list_changed"
                    elif isinstance(event, ResourceUpdated):
                        await conversation.updated(event.uri)
                        continue
                    else:
                        continue
                    await conversation.list_changed_method(method)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001 - a lost stream is a line in the log, not a crash
            self.server_log.add(
                "notice", f"the change subscription ended: {type(error).__name__}: {clean(error)}"
            )

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _list_changed(self, what: str) -> None:
        """A list changed: refresh it shortly (once per burst)."""
        if self._client is None or (
            self._refresh_task is not None and not self._refresh_task.done()
        ):
            return
        self._refresh_task = asyncio.ensure_future(self._refresh(what))

    async def _refresh(self, what: str) -> None:
        await asyncio.sleep(LIST_CHANGED_DEBOUNCE_S)
        client = self._client
        if client is None:
            return
        if what == "tools":
            await self._quietly("tools/list", self._load_tools_again(client))
        elif not self.catalog:
            return
        elif what == "resources":
            self.resources = (
                await self._quietly("resources/list", self._list_resources(client)) or []
            )
        elif what == "prompts":
            self.prompts = await self._quietly("prompts/list", self._list_prompts(client)) or []
        self.revision += 1

    async def _load_tools_again(self, client: Any) -> None:
        detail = self.status.detail
        await self._load_tools(client, cache_mode="refresh")
        await self._load_ui_resources(client)
        if self.status.detail != detail:
            self.server_log.add("notice", f"tools reloaded: {self.status.detail}")

    # --- resources, prompts, roots -------------------------------------------------------------

    async def read_resource(self, uri: str) -> ResourceRead:
        """Read one resource (text kept and capped, blobs described); errors are in the result."""
        from workbench.sources.mcp_catalog import read_result

        client = self._client
        if client is None:
            return ResourceRead(uri=uri, parts=(), error=f"{self.name} is not connected")
        try:
            result = await asyncio.wait_for(
                client.read_resource(uri, cache_mode="bypass"), timeout=HANDSHAKE_TIMEOUT_S * 3
            )
        except Exception as error:  # noqa: BLE001 - every failure becomes a readable error
            return ResourceRead(uri=uri, parts=(), error=self._request_error("read", uri, error))
        return read_result(uri, result)

    async def get_prompt(self, name: str, arguments: dict[str, str]) -> PromptRender:
        """Render a prompt with ``arguments``; errors are in the result."""
        from workbench.sources.mcp_catalog import prompt_result

        client = self._client
        if client is None:
            return PromptRender(name, arguments, error=f"{self.name} is not connected")
        try:
            result = await asyncio.wait_for(
                client.get_prompt(name, arguments), timeout=HANDSHAKE_TIMEOUT_S * 3
            )
        except Exception as error:  # noqa: BLE001 - every failure becomes a readable error
            return PromptRender(
                name, arguments, error=self._request_error("render prompt", name, error)
            )
        return prompt_result(name, arguments, result)

    async def subscribe(self, uri: str) -> str | None:
        """Ask for ``notifications/resources/updated`` about ``uri``; returns why not, or None."""
        from mcp.shared.exceptions import MCPDeprecationWarning

        client = self._client
        if client is None:
            return f"{self.name} is not connected"
        resources = client.server_capabilities.resources
        if resources is None or not resources.subscribe:
            return f"{self.name} does not offer resource subscriptions"
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                await asyncio.wait_for(client.subscribe_resource(uri), HANDSHAKE_TIMEOUT_S)
        except Exception as error:  # noqa: BLE001 - every failure becomes a readable error
            return self._request_error("subscribe to", uri, error)
        self.server_log.add("notice", f"subscribed to updates of {clean(uri)[:200]}")
        return None

    async def set_roots(self, roots: list[Path]) -> None:
        """Change the client's roots and tell the server (``notifications/roots/list_changed``)."""
        from mcp.shared.exceptions import MCPDeprecationWarning

        self.roots[:] = roots
        client = self._client
        if client is None:
            return
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            await client.send_roots_list_changed()
        shown = ", ".join(str(path) for path in roots) or "none"
        self.server_log.add("notice", f"told the server the roots changed: {shown}")

    def _request_error(self, verb: str, what: str, error: BaseException) -> str:
        from mcp import MCPError

        if isinstance(error, MCPError):
            return f"{self.name} could not {verb} {clean(what)[:200]}: {clean(error.message)[:300]}"
        if isinstance(error, TimeoutError):
            return f"{self.name} did not answer in time"
        why = f"{type(error).__name__}: {clean(error)[:300]}"
        return f"{self.name} could not {verb} {clean(what)[:200]}: {why}"

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
            if isinstance(leaf, MCPError) and _server_sent(leaf) is not None:
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

        client = self._client
        if client is None or self.status.state is not SourceState.READY:
            return failure(
                ErrorType.SOURCE_UNAVAILABLE,
                f"{self.name} is not connected ({self.status.detail or self.status.state.value})",
            )

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            ctx.progress(progress, total, message)

        hits_before = len(self._guard.stats.limit_hits) if self._guard is not None else 0
        conversation = self.conversation
        try:
            with conversation.in_call(ctx):
                result = await self._call_visiting_urls(client, api, args, ctx, on_progress)
        except _UrlsDeclined as declined:
            return failure(
                ErrorType.REQUEST_REFUSED,
                f"{self.name} needs the user to visit {declined.urls} before {api} can run, "
                "and that was declined; nothing ran.",
                state={"urls": declined.url_list},
            )
        except MCPError as error:
            if _server_sent(error) is not None:
                # The server's own -32000/-32001: its code and message, not the SDK's signal.
                return self._protocol_failure(api, error)
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
                how = self._how_it_closed(await self._wait_exit_code())
                detail = f"{self.name} {how} while {api} was running"
                self.status = SourceStatus(SourceState.FAILED, f"{detail}{self._stderr_suffix()}")
                return failure(
                    ErrorType.CONNECTION_CLOSED,
                    f"{detail}; no result arrived.",
                    body={"stderr": tail} if (tail := self._stderr_tail()) else None,
                )
            return self._protocol_failure(api, error)
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

    async def _call_visiting_urls(
        self,
        client: Any,
        api: str,
        args: dict[str, Any],
        ctx: CallContext,
        on_progress: Any,
    ) -> Any:
        """``tools/call``; when the server first needs URLs visited (-32042), each URL is shown
        as an Intervention and, once all are accepted, the call is made again (bounded)."""
        from mcp import MCPError
        from mcp.shared.exceptions import UrlElicitationRequiredError
        from mcp_types import URL_ELICITATION_REQUIRED

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
                self.conversation.notice(
                    f"{api} needs {len(wanted)} URL(s) visited first (error -32042)"
                )
                for item in wanted[:5]:
                    request = elicitation_request(
                        item.message,
                        mode="url",
                        url=item.url,
                        elicitation_id=item.elicitation_id,
                        server=self.name,
                    )
                    answer = await ctx.ask(request)
                    if answer.action != "accept":
                        raise _UrlsDeclined(urls) from None
        raise AssertionError("unreachable")  # pragma: no cover

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
        from workbench.net.mcp_wire import MISMATCHED_ID
        from workbench.sources.mcp_guard import GUARD_ERROR

        sent = _server_sent(error)
        if sent is not None:
            return failure(
                ErrorType.PROTOCOL_ERROR,
                f"{self.name} answered {api} with error {error.code}: {clean(error.message)}",
                body={"code": error.code, "data": sent.get("data")},
            )
        data = error.data.get(GUARD_ERROR) if isinstance(error.data, dict) else None
        if isinstance(data, dict) and data.get("kind") == MISMATCHED_ID:
            return failure(
                ErrorType.MISMATCHED_ID,
                f"{self.name} sent an unusable answer to {api}: {clean(error.message)}",
                body={"received_id": data.get("received_id")},
            )
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


def _server_sent(error: Any) -> dict[str, Any] | None:
    """What the guard kept of a -32000/-32001 the server itself sent (``None``: the SDK's)."""
    from workbench.sources.mcp_guard import SERVER_SENT

    data = error.data.get(SERVER_SENT) if isinstance(error.data, dict) else None
    return data if isinstance(data, dict) else None


def _with_ui_resources(manifest: ToolManifest, found: dict[str, UiResource]) -> ToolManifest:
    """``manifest`` with each API's UI resource filled in from ``found`` (by URI)."""
    apis = []
    for api in manifest.api:
        if api.ui is not None and api.ui.resource_uri in found:
            ui = api.ui.model_copy(update={"resource": found[api.ui.resource_uri]})
            api = api.model_copy(update={"ui": ui})
        apis.append(api)
    return manifest.model_copy(update={"api": apis})


def _keep_ui_resources(manifest: ToolManifest, previous: ToolManifest) -> ToolManifest:
    """A re-listed manifest keeps the UI resources already read (until they are read again)."""
    found = {
        api.ui.resource_uri: api.ui.resource
        for api in previous.api
        if api.ui is not None and api.ui.resource is not None
    }
    return _with_ui_resources(manifest, found)


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
