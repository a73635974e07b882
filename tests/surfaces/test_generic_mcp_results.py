"""The generic Render draws an MCP server's result once: its text, then its structured content
as a readable outline (never escaped JSON, never base64), and skips what only repeats the text."""

from __future__ import annotations

import json

from mcp_types import Annotations, CallToolResult, ImageContent, TextContent
from rich.console import Console

from workbench.core import events as ev
from workbench.core.call_state import CallState
from workbench.core.reducer import reduce_all
from workbench.core.result import ToolResult
from workbench.sources.mcp_results import to_tool_result
from workbench.surfaces import generic
from workbench.surfaces.context import SurfaceContext


def drawn(result: ToolResult, width: int = 80) -> str:
    state = reduce_all(
        CallState(tool="files", api="read"),
        [ev.ArgsComplete(args={}), ev.Started(), ev.Completed(result)],
    )
    console = Console(width=width, record=True, color_system=None)
    console.print(generic.render(SurfaceContext(state=state, width=width)))
    return console.export_text()


def test_structured_content_that_wraps_the_text_is_not_drawn_again() -> None:
    # server-filesystem: the text, and {"content": the same text} as structured content.
    text = "Allowed directories:\n/srv/data\n/srv/logs"
    result = to_tool_result(
        CallToolResult(
            content=[TextContent(type="text", text=text)], structured_content={"content": text}
        ),
        tool="files",
        api="list_allowed_directories",
    )
    shown = drawn(result)
    assert shown.count("/srv/logs") == 1 and "\\n" not in shown and "state" not in shown


def test_text_that_is_the_structures_json_is_drawn_once_as_an_outline() -> None:
    # server-memory: the graph as JSON text, and the same graph as structured content.
    graph = {"entities": [{"name": "Ada", "observations": ["wrote\nthe first program"]}]}
    result = to_tool_result(
        CallToolResult(
            content=[TextContent(type="text", text=json.dumps(graph, indent=2))],
            structured_content=graph,
        ),
        tool="memory",
        api="read_graph",
    )
    shown = drawn(result)
    assert shown.count("Ada") == 1 and "{" not in shown and "\\n" not in shown
    assert "· name: Ada" in shown and "wrote" in shown and "the first program" in shown


def test_structured_content_beside_an_image_is_readable_and_base64_is_a_size() -> None:
    png = "iVBORw0KGgo" + "A" * 600
    result = to_tool_result(
        CallToolResult(
            content=[ImageContent(type="image", data=png, mime_type="image/png")],
            structured_content={"thumbnail": png, "caption": "a chart"},
        ),
        tool="charts",
        api="draw",
    )
    shown = drawn(result)
    assert "caption: a chart" in shown and "thumbnail: (base64 data," in shown
    assert "AAAA" not in shown


def test_a_long_structure_says_how_much_it_shows() -> None:
    result = to_tool_result(
        CallToolResult(
            content=[TextContent(type="text", text="40 rows")],
            structured_content={"rows": [{"id": n} for n in range(40)]},
        ),
        tool="db",
        api="query",
    )
    shown = drawn(result)
    assert "+28 more · showing 12 of 40 items" in shown


def test_annotations_say_who_a_block_is_for_and_its_priority() -> None:
    result = to_tool_result(
        CallToolResult(
            content=[
                TextContent(
                    type="text",
                    text="Your report is ready.",
                    annotations=Annotations(audience=["user"], priority=0.9),
                ),
                TextContent(
                    type="text",
                    text="Raw rows follow.",
                    annotations=Annotations(audience=["assistant"]),
                ),
                ImageContent(
                    type="image",
                    data="iVBORw0KGgo",
                    mime_type="image/png",
                    annotations=Annotations(audience=["user", "assistant"], priority=0.2),
                ),
                TextContent(type="text", text="No annotations here."),
            ]
        ),
        tool="reports",
        api="build",
    )
    assert result.state["blocks"][0]["annotations"] == {"audience": ["user"], "priority": 0.9}
    lines = drawn(result).splitlines()
    assert lines.index("for the user · priority 0.9") + 1 == lines.index("Your report is ready.")
    assert lines.index("for the assistant") + 1 == lines.index("Raw rows follow.")
    # Everyone is the default audience: only the priority is said.
    assert "priority 0.2" in lines and sum("for the" in line for line in lines) == 2
    # A block with no annotations gets no note.
    assert lines[-1] == "No annotations here." and "image" in lines[-2]
