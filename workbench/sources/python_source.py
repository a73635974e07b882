"""In-process Python tools: tool packages whose runtimes run in this process."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from workbench.core.manifest import ToolManifest
from workbench.core.result import ErrorType, ToolResult, failure
from workbench.core.runtime import BaseRuntime, CallContext, RuntimeServices
from workbench.sources.base import SourceState, SourceStatus, ToolSource


class InProcessTool(Protocol):
    """What this source needs of a tool: a ``ToolPackage`` is one (sources sit below tools)."""

    @property
    def identifier(self) -> str: ...

    @property
    def manifest(self) -> ToolManifest: ...

    @property
    def create_runtime(self) -> Callable[[RuntimeServices], BaseRuntime] | None: ...


class PythonToolSource(ToolSource):
    """Runs tool packages' runtimes in-process, with services injected."""

    kind = "python"

    def __init__(
        self,
        name: str,
        packages: Sequence[InProcessTool],
        services: RuntimeServices | None = None,
    ) -> None:
        super().__init__(name)
        self.packages = {package.identifier: package for package in packages}
        self.services = services or RuntimeServices()
        self._runtimes: dict[str, BaseRuntime] = {}

    async def start(self) -> None:
        self.status = SourceStatus(SourceState.STARTING)
        problems = []
        for identifier, package in self.packages.items():
            if package.create_runtime is None:
                continue
            try:
                self._runtimes[identifier] = package.create_runtime(self.services)
            except Exception as error:  # noqa: BLE001 - one broken tool must not stop the rest
                problems.append(f"{identifier}: {type(error).__name__}: {error}")
        detail = "; ".join(problems)
        self.status = SourceStatus(SourceState.READY, detail)

    async def stop(self) -> None:
        for runtime in self._runtimes.values():
            close = getattr(runtime, "close", None)
            if close is not None:
                result = close()
                if hasattr(result, "__await__"):
                    await result
        self._runtimes.clear()
        self.status = SourceStatus(SourceState.STOPPED)

    def list_tools(self) -> list[ToolManifest]:
        return [self.packages[identifier].manifest for identifier in self._runtimes]

    def ui_only_tools(self) -> list[ToolManifest]:
        return [
            package.manifest for package in self.packages.values() if package.create_runtime is None
        ]

    async def invoke(
        self, tool: str, api: str, args: dict[str, Any], ctx: CallContext
    ) -> ToolResult:
        runtime = self._runtimes.get(tool)
        if runtime is None:
            return failure(ErrorType.TOOL_NOT_FOUND, f"{self.name} has no tool {tool!r}")
        return await runtime.invoke(api, args, ctx)
