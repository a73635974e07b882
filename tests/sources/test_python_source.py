"""PythonToolSource runs tool packages in-process: broken factories, unknown tools, closing
runtimes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from workbench.core.manifest import ToolApi, ToolManifest, ToolMeta
from workbench.core.result import ErrorType, ToolResult, to_result
from workbench.core.runtime import BaseRuntime, CallContext, RuntimeServices
from workbench.sources.base import SourceState
from workbench.sources.python_source import PythonToolSource
from workbench.tools import bundled_packages
from workbench.tools.package import ToolPackage


def manifest(identifier: str, *apis: str) -> ToolManifest:
    return ToolManifest(
        identifier=identifier,
        meta=ToolMeta(title=identifier),
        api=[ToolApi(name=name) for name in apis],
        type="python",
    )


class Closable(BaseRuntime):
    api_names = ("where",)

    def __init__(
        self, services: RuntimeServices, closed: list[str], name: str, *, asynchronous: bool
    ) -> None:
        self.services = services
        self.closed = closed
        self.name = name
        self.asynchronous = asynchronous

    async def where(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        return to_result(success=True, content=f"{self.services.workspace} {ctx.workspace}")

    def close(self) -> Any:
        if not self.asynchronous:
            self.closed.append(self.name)
            return None

        async def later() -> None:
            self.closed.append(self.name)

        return later()


def broken_factory(services: RuntimeServices) -> BaseRuntime:
    raise OSError("database is locked")


async def test_a_broken_runtime_factory_does_not_stop_the_others(tmp_path: Path) -> None:
    closed: list[str] = []
    services = RuntimeServices(workspace=tmp_path)
    packages = [
        ToolPackage(
            manifest=manifest("sync-tool", "where"),
            create_runtime=lambda s: Closable(s, closed, "sync", asynchronous=False),
        ),
        ToolPackage(manifest=manifest("broken", "where"), create_runtime=broken_factory),
        ToolPackage(
            manifest=manifest("async-tool", "where"),
            create_runtime=lambda s: Closable(s, closed, "async", asynchronous=True),
        ),
        ToolPackage(manifest=manifest("manifest-only", "where")),
    ]
    source = PythonToolSource("py", packages, services)
    assert source.list_tools() == []
    await source.start()
    assert source.status.state is SourceState.READY
    assert source.status.detail == "broken: OSError: database is locked"
    assert [tool.identifier for tool in source.list_tools()] == ["sync-tool", "async-tool"]
    assert (
        source.has_tool("sync-tool")
        and not source.has_tool("broken")
        and not source.has_tool("manifest-only")
    )

    result = await source.invoke("sync-tool", "where", {}, CallContext(workspace=tmp_path / "ws"))
    assert result.content == f"{tmp_path} {tmp_path / 'ws'}"
    missing = await source.invoke("broken", "where", {}, CallContext())
    assert missing.error is not None and missing.error.type == ErrorType.TOOL_NOT_FOUND
    assert missing.content == "py has no tool 'broken'"
    no_api = await source.invoke("sync-tool", "nope", {}, CallContext())
    assert no_api.error is not None and no_api.error.type == ErrorType.API_NOT_FOUND

    await source.stop()
    assert sorted(closed) == ["async", "sync"]
    assert source.status.state is SourceState.STOPPED and source.list_tools() == []
    await source.stop()
    assert sorted(closed) == ["async", "sync"]


async def test_the_bundled_calculator_runs_through_the_source(tmp_path: Path) -> None:
    source = PythonToolSource("python", bundled_packages(), RuntimeServices(workspace=tmp_path))
    await source.start()
    try:
        assert {"calculator", "local-system", "task", "web-browsing", "skills"} <= {
            tool.identifier for tool in source.list_tools()
        }
        ok = await source.invoke(
            "calculator", "calculate", {"expression": "6*7"}, CallContext(workspace=tmp_path)
        )
        assert ok.success is True and "42" in ok.content
        failed = await source.invoke(
            "calculator", "calculate", {"expression": "1/0"}, CallContext(workspace=tmp_path)
        )
        assert (
            failed.success is False
            and failed.error is not None
            and failed.error.type == "DivisionByZero"
        )
    finally:
        await source.stop()
