"""The calculator's surfaces: a one-line Inspector and a Render that points at errors."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from workbench.api import SurfaceContext, SurfaceSet, kit, result_render, result_state

VALUE_LINES = 4


def calculate_inspector(ctx: SurfaceContext) -> RenderableType:
    expression = str(ctx.args.get("expression", ""))
    state = result_state(ctx)
    suffix = None
    if ctx.error is None and "value" in state:
        suffix = kit.text(f"= {kit.truncate_line(str(state['value']), 24)}", ctx.palette.success)
    return kit.status_line(
        ctx,
        "Calculating",
        "Calculated",
        kit.text(expression),
        suffix,
        verb_failed="Calculation failed",
    )


def _calculation_error(ctx: SurfaceContext) -> RenderableType | None:
    """The error, with a caret under the column where parsing or evaluating stopped."""
    if ctx.error is None:
        return None
    palette = ctx.palette
    expression = str(ctx.args.get("expression", ""))
    state = result_state(ctx)
    column = state.get("column")
    pointer: list[RenderableType] = [kit.text(expression)]
    if isinstance(column, int) and 0 < column <= len(expression) + 1:
        pointer.append(Text(" " * (column - 1) + "^", style=f"bold {palette.error}"))
    stage = state.get("stage", "evaluate")
    return kit.error_box(
        f"{ctx.error.type} while {'parsing' if stage == 'parse' else 'evaluating'}",
        ctx.error.message,
        palette,
        details=pointer,
    )


@result_render("the calculation", needs="value", error_view=_calculation_error)
def calculate_render(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    palette = ctx.palette
    expression = str(ctx.args.get("expression", ""))
    value = str(state["value"])
    width = max(10, ctx.inner_width - 2)
    limit = width * VALUE_LINES
    rows: list[RenderableType] = [kit.text(expression, palette.muted)]
    shown = value if len(value) <= limit else value[:limit]
    # Digits wrap as a block under "= " rather than as one over-long word.
    first, rest = shown[: width - 2], shown[width - 2 :]
    rows.append(kit.join(("= ", f"bold {palette.muted}"), (first, f"bold {palette.success}")))
    for start in range(0, len(rest), width):
        rows.append(kit.text(rest[start : start + width], f"bold {palette.success}"))
    if len(value) > limit:
        rows.append(kit.showing(len(shown), len(value), "digit", palette))
    digits = int(state.get("digits", len(value)))
    details = f"{state.get('type', 'number')} · {kit.plural(digits, 'digit')}"
    rows.append(Text(details, style=palette.muted))
    return Group(*rows)


def calculate_placeholder(ctx: SurfaceContext) -> RenderableType:
    """The Render's three lines: the expression, ``=`` and the value to come, its kind."""
    palette = ctx.palette
    value = kit.join(
        ("= ", f"bold {palette.muted}"), kit.skeleton_bar(ctx.inner_width // 4, palette)
    )
    return Group(
        kit.text(str(ctx.args.get("expression", "")), palette.muted),
        value,
        Text(f"{kit.spinner(ctx.frame)} calculating", style=f"italic {palette.muted}"),
    )


SURFACES = SurfaceSet(
    inspectors={"calculate": calculate_inspector},
    renders={"calculate": calculate_render},
    placeholders={"calculate": calculate_placeholder},
)
