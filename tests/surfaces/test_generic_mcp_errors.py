"""A failed MCP call says whose failure it was (the tool's own, or the protocol's), draws what
came as text and an outline, never JSON, and keeps the failing argument in a 60-column
Inspector."""

from __future__ import annotations

from typing import Any

from mcp_types import CallToolResult, TextContent
from rich.console import Console

from workbench.core import events as ev
from workbench.core.call_state import CallState
from workbench.core.reducer import reduce_all
from workbench.core.result import ErrorType, ToolResult, failure
from workbench.sources.mcp_results import to_tool_result
from workbench.surfaces import generic
from workbench.surfaces.context import SurfaceContext

PATH = "/srv/data/reports/2026/q3-summary-final.csv"
ARGS = {"path": PATH, "encoding": "utf-8", "tail": 40}


def drawn(result: ToolResult, *, width: int = 60, args: dict[str, Any] = ARGS) -> list[str]:
    """The Inspector line, then the Render, as the card draws them."""
    state = reduce_all(
        CallState(tool="files", api="read_text_file"),
        [ev.ArgsComplete(args=args), ev.Started(), ev.Completed(result)],
    )
    ctx = SurfaceContext(state=state, width=width)
    console = Console(width=width, record=True, color_system=None)
    console.print(generic.inspector(ctx))
    console.print(generic.render(ctx))
    return console.export_text().splitlines()


def tool_error(text: str, structured: Any = None) -> ToolResult:
    return to_tool_result(
        CallToolResult(
            content=[TextContent(type="text", text=text)],
            structured_content=structured,
            is_error=True,
        ),
        tool="files",
        api="read_text_file",
    )


def protocol_error() -> ToolResult:
    # What McpSource makes of a JSON-RPC error answer (see its _protocol_failure).
    return failure(
        ErrorType.PROTOCOL_ERROR,
        "files answered read_text_file with error -32601: Method not found",
        body={"code": -32601, "data": None},
    )


def test_a_tools_own_error_and_a_protocol_error_carry_different_labels() -> None:
    own = "\n".join(drawn(tool_error(f"ENOENT: no such file or directory, open '{PATH}'")))
    protocol = "\n".join(drawn(protocol_error()))
    assert "the tool reported an error" in own and "protocol" not in own
    assert "protocol error -32601: the server did not run the tool" in protocol
    assert "the tool reported an error" not in protocol


def test_an_error_ends_in_text_and_an_outline_never_in_json() -> None:
    for result in (
        tool_error("quota exceeded", structured={"retry_after": 30, "limit": {"per_day": 100}}),
        protocol_error(),
        failure(ErrorType.PROTOCOL_ERROR, "unusable answer", body={"preview": "<html>"}),
    ):
        text = "\n".join(drawn(result))
        assert "{" not in text and '"' not in text and "null" not in text, text
    text = "\n".join(drawn(tool_error("quota exceeded", structured={"retry_after": 30})))
    assert "retry_after: 30" in text
    assert "preview: <html>" in "\n".join(
        drawn(failure(ErrorType.PROTOCOL_ERROR, "unusable answer", body={"preview": "<html>"}))
    )


def test_the_argument_an_error_names_stays_in_view_at_60_columns() -> None:
    inspector = drawn(tool_error(f"ENOENT: no such file or directory, open '{PATH}'"))[0]
    # The path's file name and whose failure it was, on one line of 60 cells.
    assert len(inspector) <= 60
    assert "path: /" in inspector and "final.csv" in inspector
    assert inspector.rstrip().endswith("✗ tool error")
    # A protocol error names no argument: the arguments keep their order, the code is short.
    inspector = drawn(protocol_error())[0]
    assert "path: /srv/data/" in inspector and inspector.rstrip().endswith("✗ -32601")


def test_the_longest_argument_named_wins() -> None:
    args = {"dir": "/srv", "path": PATH}
    inspector = drawn(tool_error(f"cannot open {PATH}"), args=args)[0]
    assert "path:" in inspector and "dir:" not in inspector and "final.csv" in inspector
