"""The tree marks an MCP App tool only the app may call, beside the tools the model is offered."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from textual.app import App, ComposeResult

from tests.sources.servers.conversation import build_server
from workbench.app.widgets.source_tree import SourceTree
from workbench.sources.base import SourceState
from workbench.sources.manager import ToolManager
from workbench.sources.mcp_source import McpServerSpec, McpSource

pytestmark = pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[McpSource]:
    source = McpSource(McpServerSpec(name="conv", server=build_server(), mode="legacy"))
    await asyncio.wait_for(source.start(), 20)
    assert source.status.state is SourceState.READY, source.status
    yield source
    await source.stop()


class Harness(App[None]):
    def compose(self) -> ComposeResult:
        yield SourceTree()


async def test_an_app_only_tool_is_marked_in_the_tree(server: McpSource) -> None:
    app = Harness()
    async with app.run_test(size=(100, 40)):
        tree = app.query_one(SourceTree)
        tree.load(ToolManager([server]))
        labels: dict[str, str] = {}
        stack = list(tree.root.children)
        while stack:
            node = stack.pop()
            stack.extend(node.children)
            if isinstance(node.data, tuple):
                labels[node.data[-1]] = node.label.plain
        assert "app UI · app only" in labels["refresh"]
        assert "app UI" in labels["clock"] and "app only" not in labels["clock"]
        assert "app" not in labels["roots"]
