"""The source contract: list, has, invoke, start, stop."""

from __future__ import annotations

import abc
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from workbench.core.manifest import ToolManifest
from workbench.core.result import ToolResult
from workbench.core.runtime import CallContext
from workbench.core.sanitize import clean


class SourceState(StrEnum):
    STOPPED = "stopped"
    STARTING = "starting"
    READY = "ready"
    FAILED = "failed"


@dataclass(frozen=True)
class SourceStatus:
    state: SourceState = SourceState.STOPPED
    detail: str = ""
    """Why a source failed (command not found, exit code and stderr tail, HTTP 401, ...)."""

    def __post_init__(self) -> None:
        # The detail quotes a server's stderr: it is shown in the TUI and printed by the CLI.
        object.__setattr__(self, "detail", clean(self.detail))


class ToolSource(abc.ABC):
    """Something that offers tools and runs their calls.

    ``invoke`` never raises for a tool's own failure: it returns a failed result. It may raise
    ``asyncio.CancelledError`` when the caller cancels; the call runner turns that (and
    timeouts) into the call's one result.
    """

    kind: str = "source"

    def __init__(self, name: str) -> None:
        self.name = name
        self.status = SourceStatus()
        self.revision = 0
        """Grows whenever the tools (or what else the source publishes) change after start:
        a UI polls it to know when to reload its tree."""

    @abc.abstractmethod
    async def start(self) -> None:
        """Connect or load; on failure set ``status`` to FAILED with a reason (do not raise)."""

    @abc.abstractmethod
    async def stop(self) -> None:
        """Release everything (processes, connections); safe to call twice."""

    @abc.abstractmethod
    def list_tools(self) -> list[ToolManifest]:
        """The tools this source offers (empty unless READY)."""

    def ui_only_tools(self) -> list[ToolManifest]:
        """Tools this source knows but cannot call: UI-only packages (an agent's own tools)
        that only draw calls made elsewhere. Listed so that picking one says why."""
        return []

    @property
    def problems(self) -> list[str]:
        """What is wrong with this source that does not stop it (tools it had to leave out)."""
        return []

    def has_tool(self, tool: str) -> bool:
        return any(manifest.identifier == tool for manifest in self.list_tools())

    def get_tool(self, tool: str) -> ToolManifest | None:
        return next(
            (manifest for manifest in self.list_tools() if manifest.identifier == tool), None
        )

    @abc.abstractmethod
    async def invoke(
        self, tool: str, api: str, args: dict[str, Any], ctx: CallContext
    ) -> ToolResult:
        """Run one call; output and progress go to ``ctx``."""
