"""The skills surfaces: which skill was loaded, what it says, and what else exists."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from workbench.surfaces import kit
from workbench.surfaces.context import SurfaceContext
from workbench.surfaces.registry import SurfaceSet

BODY_LINES = 14


def _state(ctx: SurfaceContext) -> dict[str, Any]:
    return ctx.result_state if isinstance(ctx.result_state, dict) else {}


def activate_inspector(ctx: SurfaceContext) -> RenderableType:
    state = _state(ctx)
    suffix = None
    if ctx.error is None and isinstance(state.get("references"), list):
        count = len(state["references"])
        suffix = Text(
            f"({count} reference{'s' if count != 1 else ''})" if count else "(no references)",
            style=ctx.palette.muted,
        )
    return kit.status_line(
        ctx,
        "Activating skill",
        "Activated skill",
        kit.text(ctx.args.get("name", "")),
        suffix,
        verb_failed="Could not activate skill",
    )


def read_reference_inspector(ctx: SurfaceContext) -> RenderableType:
    subject = kit.text(
        "/".join(str(part) for part in (ctx.args.get("skill"), ctx.args.get("path")) if part)
    )
    state = _state(ctx)
    suffix = (
        Text(f"({state['lines']:,} lines)", style=ctx.palette.muted)
        if ctx.error is None and "lines" in state
        else None
    )
    return kit.status_line(
        ctx,
        "Reading reference",
        "Read reference",
        subject,
        suffix,
        verb_failed="Could not read reference",
    )


def _not_found(ctx: SurfaceContext, noun: str) -> RenderableType | None:
    if ctx.error is None:
        return None
    palette = ctx.palette
    available = _state(ctx).get("available") or []
    details: list[RenderableType] = []
    if available:
        details.append(Text(f"available {noun}:", style=palette.muted))
        details.extend(kit.text(f"  · {item}", palette.primary) for item in available[:12])
        if len(available) > 12:
            details.append(kit.showing(12, len(available), noun, palette))
    else:
        details.append(Text(f"no {noun} are installed", style=f"italic {palette.muted}"))
    return kit.error_box(f"{ctx.error.type}", ctx.error.message, palette, details=details)


def activate_render(ctx: SurfaceContext) -> RenderableType | None:
    failed = _not_found(ctx, "skills")
    if failed is not None:
        return failed
    state = _state(ctx)
    if "name" not in state:
        return None
    palette = ctx.palette
    rows: list[RenderableType] = [
        kit.join(
            (f"🧠 {''}", ""),
            kit.text(state["name"], "bold"),
            (" · ", palette.muted),
            kit.text(state.get("description", ""), palette.muted),
        )
    ]
    references = state.get("references") or []
    if references:
        rows.append(
            kit.join(
                ("references: ", palette.muted),
                kit.text(
                    ", ".join(references[:6])
                    + (f" +{len(references) - 6} more" if len(references) > 6 else "")
                ),
            )
        )
    rows.append(
        kit.code_block(ctx.content, "markdown", palette, max_lines=BODY_LINES, line_numbers=False)
    )
    if state.get("truncated"):
        rows.append(
            Text(
                "the skill is longer than the model is given; it received the first part",
                style=f"italic {palette.warning}",
            )
        )
    return Group(*rows)


def read_reference_render(ctx: SurfaceContext) -> RenderableType | None:
    failed = _not_found(
        ctx,
        "references" if ctx.error is not None and ctx.error.type != "SkillNotFound" else "skills",
    )
    if failed is not None:
        return failed
    state = _state(ctx)
    if "path" not in state:
        return None
    palette = ctx.palette
    head = kit.join(
        kit.text(f"{state.get('skill', '')}/", palette.muted),
        kit.text(state["path"], "bold"),
        (
            f" · {state.get('lines', 0):,} lines · {kit.human_size(int(state.get('size', 0)))}",
            palette.muted,
        ),
    )
    if int(state.get("size", 0)) == 0 or not ctx.content.strip():
        return Group(head, Text("∅ the reference file is empty", style=palette.muted))
    language = "markdown" if str(state["path"]).endswith(".md") else "text"
    rows: list[RenderableType] = [
        head,
        kit.code_block(
            ctx.content, language, palette, max_lines=BODY_LINES + 6, line_numbers=False
        ),
    ]
    if state.get("truncated"):
        rows.append(
            Text("the file is longer than the model is given", style=f"italic {palette.warning}")
        )
    return Group(*rows)


SURFACES = SurfaceSet(
    inspectors={"activateSkill": activate_inspector, "readReference": read_reference_inspector},
    renders={"activateSkill": activate_render, "readReference": read_reference_render},
)
