"""What an MCP server publishes besides running calls: its catalogue, kept up to date.

Tools (paged, allow-listed, made into a manifest), resources, resource templates, prompts,
the ``ui://`` resources of MCP Apps, and the list changes that make any of them stale. A
failure here is a problem line on the source, never a failed source: the tools still work.
:class:`PublishedCatalog` is the part of :class:`~workbench.sources.mcp_source.McpSource`
that reads them, over the connection the source holds.
"""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from workbench.core.identifiers import slug
from workbench.core.manifest import ToolManifest, UiResource
from workbench.core.mcp_catalog import (
    PromptInfo,
    PromptRender,
    ResourceInfo,
    ResourceRead,
    ResourceTemplateInfo,
)
from workbench.core.sanitize import clean
from workbench.sources.base import SourceState, SourceStatus
from workbench.sources.mcp_guard_stats import MAX_TOOLS
from workbench.sources.mcp_results import manifest_from_tools
from workbench.sources.server_log import ServerLog

if TYPE_CHECKING:
    import mcp_types as types
    from mcp import Client
    from mcp.client.caching import CacheMode
    from mcp_types import LoggingLevel

    from workbench.sources.mcp_connect import McpServerSpec
    from workbench.sources.mcp_conversation import McpConversation
    from workbench.sources.mcp_guard import MessageGuard

HANDSHAKE_TIMEOUT_S = 20.0
MAX_TOOL_PAGES = 50
MAX_CATALOG_PAGES = 20
MAX_CATALOG_ITEMS = 500
"""Resources, templates and prompts listed per server (a server that pages forever stops)."""
MAX_UI_RESOURCES = 20
LIST_CHANGED_DEBOUNCE_S = 0.25
"""Servers announce list changes in bursts (server-everything sends five at connect)."""
T = TypeVar("T")


class PublishedCatalog:
    """Tools, resources, templates, prompts and UI resources of one connected server."""

    # Set by the source (see McpSource.__init__).
    name: str
    status: SourceStatus
    revision: int
    spec: McpServerSpec
    handshake_timeout_s: float
    log_level: str | None
    catalog: bool
    server_log: ServerLog
    server_name: str | None
    manifest: ToolManifest | None
    skipped: list[str]
    notes: list[str]
    resources: list[ResourceInfo]
    templates: list[ResourceTemplateInfo]
    prompts: list[PromptInfo]
    roots: list[Path]
    conversation: McpConversation | None
    _client: Client | None
    _guard: MessageGuard | None
    task_tools: set[str]
    """The tools called as tasks (``taskSupport: required``, 2025-11-25 connections)."""
    _refresh_task: asyncio.Task[None] | None
    _background: set[asyncio.Task[None]]

    async def _load_tools(self, client: Client, *, cache_mode: CacheMode = "use") -> None:
        info = client.server_info
        self.server_name = (
            (info.name if info is not None else None) or self.spec.name or "mcp-server"
        )
        identifier = self.spec.name or slug(self.server_name, fallback="mcp-server")
        if not self.spec.name:
            self.name = identifier
        tools: list[types.Tool] = []
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
        from workbench.sources.mcp_tasks import runs_as_task

        self.task_tools = {
            tool.name for tool in tools if runs_as_task(tool, client.protocol_version)
        }
        for tool in tools:
            execution = tool.execution
            required = execution is not None and execution.task_support == "required"
            if required and tool.name not in self.task_tools:
                self.notes.append(
                    f"{clean(tool.name)[:80]} runs only as an MCP task (taskSupport: required), "
                    "which this client does not support on a 2026-07-28 connection: "
                    "task-augmented calls fail"
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

    async def _after_connect(self, client: Client) -> None:
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

    async def _set_level(self, client: Client, level: str) -> None:
        from mcp.shared.exceptions import MCPDeprecationWarning

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            await client.set_logging_level(cast("LoggingLevel", level))
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

    async def _list_resources(self, client: Client) -> list[ResourceInfo]:
        from workbench.sources.mcp_catalog import resource_info

        return [
            resource_info(item) for item in await self._pages(client.list_resources, "resources")
        ]

    async def _list_templates(self, client: Client) -> list[ResourceTemplateInfo]:
        from workbench.sources.mcp_catalog import template_info

        items = await self._pages(client.list_resource_templates, "resource_templates")
        return [template_info(item) for item in items]

    async def _list_prompts(self, client: Client) -> list[PromptInfo]:
        from workbench.sources.mcp_catalog import prompt_info

        return [prompt_info(item) for item in await self._pages(client.list_prompts, "prompts")]

    async def _load_ui_resources(self, client: Client) -> None:
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

    async def _listen(self, client: Client) -> None:
        """On a 2026-07-28 connection, list changes come over ``subscriptions/listen``."""
        from mcp.shared.subscriptions import (
            PromptsListChanged,
            ResourcesListChanged,
            ResourceUpdated,
            ServerEvent,
            ToolsListChanged,
        )

        conversation = self.conversation
        if conversation is None:
            return  # Set before the connection opens: only a stopped source lacks it.
        changed: dict[type[ServerEvent], str] = {
            ToolsListChanged: "notifications/tools/list_changed",
            PromptsListChanged: "notifications/prompts/list_changed",
            ResourcesListChanged: "notifications/resources/list_changed",
        }
        try:
            async with client.listen(
                tools_list_changed=True, prompts_list_changed=True, resources_list_changed=True
            ) as subscription:
                async for event in subscription:
                    if isinstance(event, ResourceUpdated):
                        await conversation.updated(event.uri)
                        continue
                    method = changed.get(type(event))
                    if method is not None:
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

    async def _load_tools_again(self, client: Client) -> None:
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
