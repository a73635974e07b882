"""The tool manager: many sources, one list of tools, routing by name, conflicts reported.

Unlike a router that silently lets the first source win a name, a tool identifier offered by
two sources is a *conflict*: both stay listed, the bare name becomes ambiguous, and each is
still reachable unambiguously as ``source/tool``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any

from workbench.core.manifest import ToolApi, ToolManifest, openai_function
from workbench.sources.base import SourceState, ToolSource


class ResolutionError(LookupError):
    """A name that matches no tool, or more than one; the message lists the candidates."""


def not_callable_reason(manifest: ToolManifest, api: str) -> str:
    """Why a UI-only tool's API cannot be called, in the user's words."""
    owner = manifest.meta.title
    return (
        f"{manifest.identifier}.{api} cannot be called from Workbench: it is {owner}'s own "
        f"tool and runs only inside {owner}. Workbench draws its calls (from fixtures or an "
        "imported session) but has no runtime for it."
    )


@dataclass(frozen=True)
class SourceTool:
    """One tool as one source offers it (after that source's allow-lists)."""

    source: ToolSource
    manifest: ToolManifest

    @property
    def tool(self) -> str:
        return self.manifest.identifier

    @property
    def address(self) -> str:
        return f"{self.source.name}/{self.tool}"


@dataclass(frozen=True)
class ResolvedCall:
    entry: SourceTool
    api: ToolApi

    @property
    def label(self) -> str:
        return f"{self.entry.tool}.{self.api.name}"


@dataclass
class SourceFilter:
    """Allow-lists: which tools of a source, and which APIs of a tool (globs; ``None``: all)."""

    tools: list[str] | None = None
    apis: dict[str, list[str]] = field(default_factory=dict)

    def allows_tool(self, tool: str) -> bool:
        return self.tools is None or any(fnmatchcase(tool, pattern) for pattern in self.tools)

    def allows_api(self, tool: str, api: str) -> bool:
        patterns = self.apis.get(tool)
        return patterns is None or any(fnmatchcase(api, pattern) for pattern in patterns)


class ToolManager:
    """Aggregates sources; starts and stops them together; resolves and routes calls."""

    def __init__(
        self, sources: Sequence[ToolSource] = (), filters: dict[str, SourceFilter] | None = None
    ) -> None:
        self.sources: list[ToolSource] = list(sources)
        self.filters = filters or {}

    def add(self, source: ToolSource, source_filter: SourceFilter | None = None) -> None:
        names = {existing.name for existing in self.sources}
        base, number = source.name, 2
        while source.name in names:  # Two sources may not share a name: addresses must be unique.
            source.name = f"{base}-{number}"
            number += 1
        self.sources.append(source)
        if source_filter is not None:
            self.filters[source.name] = source_filter

    async def start(self) -> None:
        """Start every source concurrently; one failing never stops the others."""

        async def start_one(source: ToolSource) -> None:
            try:
                await source.start()
            except Exception as error:  # noqa: BLE001 - a source's bug is its own failure
                from workbench.sources.base import SourceStatus

                source.status = SourceStatus(SourceState.FAILED, f"{type(error).__name__}: {error}")

        before = [source.name for source in self.sources]
        await asyncio.gather(*(start_one(source) for source in self.sources))
        # MCP sources name themselves after their server's handshake: keep names unique.
        seen: set[str] = set()
        for source in self.sources:
            base, number = source.name, 2
            while source.name in seen:
                source.name = f"{base}-{number}"
                number += 1
            seen.add(source.name)
        # A source's filter follows it to its new name (filters are keyed by source name).
        moved = {
            old: self.filters.pop(old)
            for old, source in zip(before, self.sources, strict=True)
            if old != source.name and old in self.filters
        }
        for old, source in zip(before, self.sources, strict=True):
            if old in moved:
                self.filters[source.name] = moved[old]

    async def stop(self) -> None:
        await asyncio.gather(*(source.stop() for source in self.sources), return_exceptions=True)

    def _filtered(self, source: ToolSource, manifest: ToolManifest) -> ToolManifest | None:
        source_filter = self.filters.get(source.name)
        if source_filter is None:
            return manifest
        if not source_filter.allows_tool(manifest.identifier):
            return None
        apis = [
            api for api in manifest.api if source_filter.allows_api(manifest.identifier, api.name)
        ]
        if not apis:
            return None
        return manifest.model_copy(update={"api": apis})

    def entries(self) -> list[SourceTool]:
        entries = []
        for source in self.sources:
            for manifest in source.list_tools():
                filtered = self._filtered(source, manifest)
                if filtered is not None:
                    entries.append(SourceTool(source, filtered))
        return entries

    def ui_only(self) -> list[SourceTool]:
        """The tools sources know but cannot call (UI-only packages), after allow-lists."""
        entries = []
        for source in self.sources:
            for manifest in source.ui_only_tools():
                filtered = self._filtered(source, manifest)
                if filtered is not None:
                    entries.append(SourceTool(source, filtered))
        return entries

    def not_callable(self, source_name: str, tool: str, api: str) -> str | None:
        """Why ``source/tool.api`` cannot be called when it is a UI-only tool's, else ``None``."""
        for entry in self.ui_only():
            if (
                entry.source.name == source_name
                and entry.tool == tool
                and any(item.name == api for item in entry.manifest.api)
            ):
                return not_callable_reason(entry.manifest, api)
        return None

    def _ui_only_reason(self, source_name: str | None, rest: str) -> str | None:
        """The reason a name that matched no callable tool names a UI-only one."""
        matches = [
            (entry, api.name)
            for entry in self.ui_only()
            if source_name is None or entry.source.name == source_name
            for api in entry.manifest.api
            if rest in (f"{entry.tool}.{api.name}", api.name)
        ]
        exact = [match for match in matches if rest == f"{match[0].tool}.{match[1]}"]
        chosen = exact or matches
        if len(chosen) != 1:
            return None
        entry, api = chosen[0]
        return not_callable_reason(entry.manifest, api)

    def conflicts(self) -> dict[str, list[str]]:
        """Tool identifier -> the sources that all offer it (only names offered twice or more)."""
        seen: dict[str, list[str]] = {}
        for entry in self.entries():
            seen.setdefault(entry.tool, []).append(entry.source.name)
        return {tool: sources for tool, sources in seen.items() if len(sources) > 1}

    def resolve(self, name: str) -> ResolvedCall:
        """``tool.api``, ``source/tool.api``, or a bare ``api`` when it is unambiguous."""
        entries = self.entries()
        source_name: str | None = None
        rest = name
        if "/" in name:
            source_name, _, rest = name.partition("/")
        candidates: list[ResolvedCall] = []
        for entry in entries:
            if source_name is not None and entry.source.name != source_name:
                continue
            for api in entry.manifest.api:
                if rest in (f"{entry.tool}.{api.name}", api.name) or (
                    source_name is not None and rest == entry.tool and len(entry.manifest.api) == 1
                ):
                    candidates.append(ResolvedCall(entry, api))
        # An exact tool.api beats a bare API name that happens to match too.
        exact = [call for call in candidates if rest == f"{call.entry.tool}.{call.api.name}"]
        if exact:
            candidates = exact
        if len(candidates) == 1:
            return candidates[0]
        if not candidates:
            reason = self._ui_only_reason(source_name, rest)
            if reason is not None:
                raise ResolutionError(reason)
            known = sorted(
                f"{entry.tool}.{api.name}" for entry in entries for api in entry.manifest.api
            )
            shown = ", ".join(known[:30]) + (
                f" (+{len(known) - 30} more)" if len(known) > 30 else ""
            )
            raise ResolutionError(f"no tool API {name!r} (available: {shown or 'none'})")
        options = ", ".join(
            sorted(
                f"{call.entry.source.name}/{call.entry.tool}.{call.api.name}" for call in candidates
            )
        )
        raise ResolutionError(f"{name!r} is ambiguous; name one of: {options}")

    def openai_tools(self) -> list[dict[str, Any]]:
        """Every API as an OpenAI function; conflicting tools are prefixed with their source."""
        conflicted = self.conflicts()
        functions = []
        for entry in self.entries():
            for api in entry.manifest.api:
                if api.ui is not None and not api.ui.model_visible:
                    continue  # MCP Apps: an app-only tool is never offered to the model.
                function = openai_function(entry.manifest, api)
                if entry.tool in conflicted:
                    function = openai_function(
                        entry.manifest.model_copy(
                            update={"identifier": f"{entry.source.name}__{entry.tool}"}
                        ),
                        api,
                    )
                functions.append(function)
        return functions

    def statuses(self) -> Iterable[tuple[ToolSource, str, str]]:
        for source in self.sources:
            yield source, source.status.state.value, source.status.detail
