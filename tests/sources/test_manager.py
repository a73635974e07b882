"""ToolManager: aggregation, conflicts, resolution, allow-lists and OpenAI function names."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest

from workbench.core.manifest import ToolApi, ToolManifest, ToolMeta
from workbench.core.result import ToolResult, to_result
from workbench.core.runtime import BaseRuntime, CallContext
from workbench.sources.base import SourceState
from workbench.sources.demo_server import build_server
from workbench.sources.manager import ResolutionError, SourceFilter, ToolManager
from workbench.sources.mcp_source import McpServerSpec, McpSource
from workbench.sources.python_source import PythonToolSource
from workbench.tools.calculator import PACKAGE as CALCULATOR
from workbench.tools.package import ToolPackage

OPENAI_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class Notes(BaseRuntime):
    api_names = ("add", "list", "calculate")

    def __init__(self, label: str) -> None:
        self.label = label

    async def add(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        return to_result(success=True, content=f"{self.label}: added")

    async def list(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        return to_result(success=True, content=f"{self.label}: listed")

    async def calculate(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        return to_result(success=True, content=f"{self.label}: not a calculator")


def notes_package(identifier: str = "notes", label: str = "notes") -> ToolPackage:
    manifest = ToolManifest(
        identifier=identifier,
        meta=ToolMeta(title="Notes", description="Take notes"),
        api=[ToolApi(name=name, description=f"{name} notes") for name in Notes.api_names],
        type="python",
    )
    return ToolPackage(manifest=manifest, create_runtime=lambda services: Notes(label))


async def started(manager: ToolManager) -> ToolManager:
    await manager.start()
    return manager


@pytest.fixture
async def twins() -> AsyncIterator[ToolManager]:
    """Two sources that both offer the calculator; a third offers notes."""
    manager = ToolManager(
        [
            PythonToolSource("left", [CALCULATOR]),
            PythonToolSource("right", [CALCULATOR]),
            PythonToolSource("extra", [notes_package()]),
        ]
    )
    await manager.start()
    yield manager
    await manager.stop()


async def test_entries_aggregate_every_source(twins: ToolManager) -> None:
    assert [entry.address for entry in twins.entries()] == [
        "left/calculator",
        "right/calculator",
        "extra/notes",
    ]
    assert [(source.name, state) for source, state, _detail in twins.statuses()] == [
        ("left", "ready"),
        ("right", "ready"),
        ("extra", "ready"),
    ]


async def test_a_tool_offered_twice_is_a_conflict(twins: ToolManager) -> None:
    assert twins.conflicts() == {"calculator": ["left", "right"]}


async def test_a_bare_conflicting_name_is_ambiguous_and_names_every_candidate(
    twins: ToolManager,
) -> None:
    with pytest.raises(ResolutionError) as raised:
        twins.resolve("calculator.calculate")
    message = str(raised.value)
    assert "'calculator.calculate' is ambiguous" in message
    assert "left/calculator.calculate" in message and "right/calculator.calculate" in message


async def test_source_prefixed_names_resolve(twins: ToolManager) -> None:
    left = twins.resolve("left/calculator.calculate")
    right = twins.resolve("right/calculator.calculate")
    assert (left.entry.source.name, left.label) == ("left", "calculator.calculate")
    assert (right.entry.source.name, right.label) == ("right", "calculator.calculate")
    # A single-API tool can be named without its API after a source prefix.
    assert twins.resolve("left/calculator").api.name == "calculate"
    assert twins.resolve("extra/notes.add").api.name == "add"


async def test_bare_api_names_resolve_when_unique(twins: ToolManager) -> None:
    add = twins.resolve("add")
    assert (add.entry.address, add.api.name) == ("extra/notes", "add")
    # "calculate" names calculator.calculate twice and notes.calculate once: ambiguous.
    with pytest.raises(ResolutionError, match="ambiguous"):
        twins.resolve("calculate")
    # An exact tool.api beats a bare API name that also matches.
    assert twins.resolve("notes.calculate").entry.tool == "notes"


async def test_unknown_names_list_what_exists(twins: ToolManager) -> None:
    with pytest.raises(ResolutionError) as raised:
        twins.resolve("nope.nothing")
    assert (
        str(raised.value)
        == "no tool API 'nope.nothing' (available: calculator.calculate, calculator.calculate, "
        "notes.add, notes.calculate, notes.list)"
    )
    with pytest.raises(
        ResolutionError, match=re.escape("no tool API 'ghost/calculator.calculate'")
    ):
        twins.resolve("ghost/calculator.calculate")


async def test_openai_names_are_valid_unique_and_prefixed_for_conflicts(twins: ToolManager) -> None:
    functions = twins.openai_tools()
    names = [function["function"]["name"] for function in functions]
    assert names == [
        "left__calculator__calculate",
        "right__calculator__calculate",
        "notes__add",
        "notes__list",
        "notes__calculate",
    ]
    assert len(set(names)) == len(names)
    assert all(OPENAI_NAME.match(name) for name in names)
    assert all(
        function["type"] == "function" and function["function"]["parameters"]["type"] == "object"
        for function in functions
    )
    assert functions[2]["function"]["description"] == "add notes"


async def test_source_filter_allows_tools_by_glob() -> None:
    manager = await started(
        ToolManager(
            [
                PythonToolSource("left", [CALCULATOR, notes_package()]),
                PythonToolSource("right", [CALCULATOR]),
            ],
            filters={"left": SourceFilter(tools=["not*"])},
        )
    )
    try:
        assert [entry.address for entry in manager.entries()] == ["left/notes", "right/calculator"]
        assert manager.conflicts() == {}
        assert manager.resolve("calculator.calculate").entry.source.name == "right"
    finally:
        await manager.stop()


async def test_source_filter_allows_apis_per_tool() -> None:
    manager = ToolManager()
    manager.add(
        PythonToolSource("py", [notes_package(), CALCULATOR]),
        SourceFilter(apis={"notes": ["add", "l*"], "calculator": []}),
    )
    await manager.start()
    try:
        [notes] = manager.entries()  # No API of the calculator is allowed: the tool is gone.
        assert notes.manifest.api_names() == ["add", "list"]
        with pytest.raises(ResolutionError):
            manager.resolve("notes.calculate")
        assert [function["function"]["name"] for function in manager.openai_tools()] == [
            "notes__add",
            "notes__list",
        ]
        assert manager.sources[0].list_tools()[0].api_names() == [
            "add",
            "list",
            "calculate",
        ]  # The source itself is untouched.
    finally:
        await manager.stop()


def test_filter_globs() -> None:
    everything = SourceFilter()
    assert everything.allows_tool("x") and everything.allows_api("x", "y")
    narrow = SourceFilter(tools=["calc*", "notes"], apis={"notes": ["add"]})
    assert (
        narrow.allows_tool("calculator")
        and narrow.allows_tool("notes")
        and not narrow.allows_tool("notes-2")
    )
    assert (
        narrow.allows_api("notes", "add")
        and not narrow.allows_api("notes", "list")
        and narrow.allows_api("calculator", "anything")
    )


async def test_two_mcp_servers_with_the_same_name_conflict_and_get_unique_source_names() -> None:
    manager = ToolManager()
    manager.add(McpSource(McpServerSpec(name="", server=build_server())))
    manager.add(McpSource(McpServerSpec(name="", server=build_server())))
    assert [source.name for source in manager.sources] == ["mcp", "mcp-2"]
    await manager.start()
    try:
        assert [source.name for source in manager.sources] == ["workbench-demo", "workbench-demo-2"]
        assert manager.conflicts() == {"workbench-demo": ["workbench-demo", "workbench-demo-2"]}
        with pytest.raises(ResolutionError) as raised:
            manager.resolve("workbench-demo.echo")
        assert (
            str(raised.value) == "'workbench-demo.echo' is ambiguous; "
            "name one of: workbench-demo-2/workbench-demo.echo, "
            "workbench-demo/workbench-demo.echo"
        )
        second = manager.resolve("workbench-demo-2/workbench-demo.echo")
        result = await second.entry.source.invoke(
            second.entry.tool, second.api.name, {"text": "from the second"}, CallContext()
        )
        assert result.content == "from the second"
        names = [function["function"]["name"] for function in manager.openai_tools()]
        assert (
            "workbench-demo__workbench-demo__echo" in names
            and "workbench-demo-2__workbench-demo__echo" in names
        )
        assert all(OPENAI_NAME.match(name) for name in names) and len(set(names)) == len(names)
    finally:
        await manager.stop()
    assert all(source.status.state is SourceState.STOPPED for source in manager.sources)


async def test_a_filter_follows_a_source_that_names_itself_after_its_handshake() -> None:
    manager = ToolManager()
    manager.add(
        McpSource(McpServerSpec(name="", server=build_server())),
        SourceFilter(apis={"workbench-demo": ["echo", "weather"]}),
    )
    assert set(manager.filters) == {"mcp"}
    await manager.start()
    try:
        [entry] = manager.entries()
        assert entry.address == "workbench-demo/workbench-demo"
        assert entry.manifest.api_names() == ["echo", "weather"]
        with pytest.raises(ResolutionError):
            manager.resolve("workbench-demo.delete_file")
    finally:
        await manager.stop()


async def test_a_failing_source_never_stops_the_others(tmp_path: Any) -> None:
    manager = ToolManager(
        [
            McpSource(McpServerSpec(name="ghost", command=str(tmp_path / "missing"))),
            PythonToolSource("py", [CALCULATOR]),
        ]
    )
    await manager.start()
    try:
        states = {source.name: (state, detail) for source, state, detail in manager.statuses()}
        assert states["ghost"] == ("failed", f"command not found: {tmp_path / 'missing'}")
        assert states["py"][0] == "ready"
        assert [entry.address for entry in manager.entries()] == ["py/calculator"]
    finally:
        await manager.stop()


async def test_a_source_whose_start_raises_is_marked_failed() -> None:
    class Exploding(PythonToolSource):
        async def start(self) -> None:
            raise RuntimeError("cannot load plugins")

    manager = ToolManager([Exploding("boom", []), PythonToolSource("py", [CALCULATOR])])
    await manager.start()
    try:
        boom = manager.sources[0]
        assert (
            boom.status.state is SourceState.FAILED
            and boom.status.detail == "RuntimeError: cannot load plugins"
        )
        assert manager.resolve("calculate").entry.source.name == "py"
    finally:
        await manager.stop()


def test_added_sources_with_taken_names_are_renamed() -> None:
    manager = ToolManager()
    for _ in range(3):
        manager.add(PythonToolSource("python", []))
    assert [source.name for source in manager.sources] == ["python", "python-2", "python-3"]
