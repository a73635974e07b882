"""The Render prologue every tool shares (``result_render``): the ending first, then the
error, then nothing until the state has the key the drawing needs."""

from __future__ import annotations

from typing import Any

from rich.console import Console, RenderableType

from workbench.api import (
    CallState,
    Phase,
    SurfaceContext,
    Text,
    ToolError,
    ToolResult,
    pending_line,
    result_render,
    result_state,
)

drawn: list[dict[str, Any]] = []


def _error_view(ctx: SurfaceContext) -> RenderableType | None:
    return Text(f"error view: {ctx.error.type}") if ctx.error is not None else None


@result_render("the lookup", needs="items", error_view=_error_view)
def lookup_render(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    """Draws the items."""
    drawn.append(state)
    return Text(f"{len(state['items'])} items")


def _ctx(phase: Phase, state: object = None, error: ToolError | None = None) -> SurfaceContext:
    result = ToolResult(success=error is None, content="c", state=state, error=error)
    call = CallState(tool="demo", api="lookup", phase=phase, args={}, result=result)
    return SurfaceContext(state=call, width=60)


def _plain(renderable: RenderableType | None) -> str:
    assert renderable is not None
    console = Console(width=60, record=True, color_system=None)
    console.print(renderable)
    return console.export_text().strip()


def test_the_drawing_gets_the_state_once_the_key_is_there() -> None:
    drawn.clear()
    assert _plain(lookup_render(_ctx(Phase.DONE, {"items": [1, 2]}))) == "2 items"
    assert drawn == [{"items": [1, 2]}]
    assert lookup_render.__name__ == "lookup_render" and lookup_render.__doc__ == "Draws the items."


def test_nothing_is_drawn_without_the_key_or_with_a_state_of_another_shape() -> None:
    drawn.clear()
    assert lookup_render(_ctx(Phase.DONE, {"other": 1})) is None
    assert lookup_render(_ctx(Phase.DONE, ["items"])) is None
    assert drawn == []


def test_an_error_comes_before_the_state() -> None:
    error = ToolError(type="NotFound", message="no such thing")
    shown = lookup_render(_ctx(Phase.FAILED, {"items": []}, error))
    assert _plain(shown) == "error view: NotFound"


def test_a_cancelled_call_shows_its_ending_not_its_error() -> None:
    error = ToolError(type="Cancelled", message="stopped by the user")
    shown = _plain(lookup_render(_ctx(Phase.CANCELLED, {"items": [1]}, error)))
    assert "The lookup was stopped" in shown and "error view" not in shown


def test_result_state_is_an_object_or_empty() -> None:
    assert result_state(_ctx(Phase.DONE, {"a": 1})) == {"a": 1}
    assert result_state(_ctx(Phase.DONE, "text")) == {}


def test_pending_line_keeps_one_line_and_the_subject_literal() -> None:
    line = pending_line(_ctx(Phase.EXECUTING), "reading", "[bold]notes.md" * 20)
    assert line.no_wrap and line.overflow == "ellipsis"
    assert "reading [bold]notes.md" in line.plain
