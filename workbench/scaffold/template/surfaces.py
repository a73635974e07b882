"""Example tool's surfaces: what a person sees of each call.

The Inspector is the one line always shown; the Placeholder stands in for the Render
while the call runs, with the same rows, so nothing jumps when the result arrives; the
Render shows the result, and says so when it is empty, failed or cut. Build them with
``kit``: tool text stays literal (never markup) and every cut says "showing N of M".
A surface an API lacks falls back to a generic one; ``workbench audit`` checks them all
against the render principles, and ``workbench dev`` redraws them as you save.
"""

from __future__ import annotations

from typing import Any

from workbench.api import (
    Group,
    RenderableType,
    SurfaceContext,
    SurfaceSet,
    kit,
    result_render,
    result_state,
)

ITEM_ROWS = 8
"""Items the Render lists before its "showing N of M" note."""
PLACEHOLDER_ROWS = 3
"""Skeleton rows while the call runs: a typical answer's, so the card barely moves."""


# >>> per api
def find_items_inspector(ctx: SurfaceContext) -> RenderableType:
    """One line in every phase: what is looked up, then how many items matched."""
    query = ctx.args.get("query")
    total = result_state(ctx).get("total")
    suffix = None
    if ctx.error is None and isinstance(total, int):
        suffix = kit.text(f"({kit.plural(total, 'item')})", ctx.palette.muted)
    return kit.status_line(
        ctx,
        "Looking up",
        "Looked up",
        kit.text(f"“{query}”") if isinstance(query, str) else None,
        suffix,
        verb_failed="Lookup failed",
    )


def find_items_placeholder(ctx: SurfaceContext) -> RenderableType:
    """The Render's rows to come: a skeleton per item, and what is under way."""
    palette = ctx.palette
    bar = kit.skeleton_bar(ctx.inner_width // 3, palette)
    rows: list[RenderableType] = [
        kit.join(("• ", palette.muted), bar) for _ in range(PLACEHOLDER_ROWS)
    ]
    working = f"{kit.spinner(ctx.frame)} looking up"
    rows.append(kit.text(working, f"italic {palette.muted}"))
    return Group(*rows)


def find_items_error(ctx: SurfaceContext) -> RenderableType | None:
    """A failed lookup: the error, and the step it stopped at."""
    if ctx.error is None:
        return None
    stage = result_state(ctx).get("stage", "look up the items")
    return kit.error_box(
        f"Lookup failed · {ctx.error.type}",
        ctx.error.message,
        ctx.palette,
        details=[kit.text(f"while trying to {stage}", ctx.palette.muted)],
    )


# How the call ended (skipped, cancelled...) and its error come first; then the result.
@result_render("the lookup", error_view=find_items_error)
def find_items_render(
    ctx: SurfaceContext,
    state: dict[str, Any],
) -> RenderableType | None:
    """The items found, one a line; an empty or cut result says so in words."""
    palette = ctx.palette
    items = state.get("items")
    if not isinstance(items, list):
        return None
    if not items:
        query = state.get("query", "")
        return Group(
            kit.join(("Nothing matches ", ""), (f"“{query}”", "bold")),
            kit.text("try a shorter word, or another one", f"italic {palette.muted}"),
        )
    shown = items[:ITEM_ROWS]
    rows: list[RenderableType] = []
    for item in shown:
        line = kit.join(
            ("• ", palette.muted),
            (item.get("title", ""), "bold"),
            ("  ", ""),
            (item.get("detail", ""), palette.muted),
        )
        line.no_wrap = True
        line.overflow = "ellipsis"
        rows.append(line)
    total = int(state.get("total", len(items)))
    if len(shown) < total:
        rows.append(
            kit.showing(len(shown), total, "item", palette)
            if len(shown) == len(items)
            else kit.returned_note(len(shown), len(items), total, "item", palette)
        )
    return Group(*rows)


# <<< per api
SURFACES = SurfaceSet(
    inspectors={
        # >>> per api
        "findItems": find_items_inspector,
        # <<< per api
    },
    placeholders={
        # >>> per api
        "findItems": find_items_placeholder,
        # <<< per api
    },
    renders={
        # >>> per api
        "findItems": find_items_render,
        # <<< per api
    },
)
