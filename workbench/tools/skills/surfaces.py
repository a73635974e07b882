"""The skills surfaces: which skill was loaded, what it says, and what else exists."""

from __future__ import annotations

from functools import partial
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from workbench.api import SurfaceContext, SurfaceSet, kit, result_render, result_state

BODY_LINES = 14
REFERENCE_LINES = 20
TRUNCATION_MARKS = ("\n\n[the skill was longer", "\n\n[truncated:")
"""What the runtime appends to a cut text for the model; the surfaces say it in their own
words instead."""


def _text(ctx: SurfaceContext) -> str:
    """The text the model was given, without the runtime's truncation marker."""
    text = ctx.content
    for mark in TRUNCATION_MARKS:
        head, found, _ = text.rpartition(mark)
        if found:
            return head
    return text


def _lines_suffix(ctx: SurfaceContext, state: dict[str, Any]) -> Text | None:
    if ctx.error is not None or "lines" not in state:
        return None
    lines = int(state["lines"])
    total = int(state.get("totalLines", lines))
    if total == 0:
        return Text("(empty)", style=ctx.palette.muted)
    words = (
        f"{lines:,} of {kit.plural(total, 'line')}" if total > lines else kit.plural(total, "line")
    )
    return Text(f"({words})", style=ctx.palette.muted)


def activate_inspector(ctx: SurfaceContext) -> RenderableType:
    state = result_state(ctx)
    suffix = None
    if ctx.error is None and isinstance(state.get("references"), list):
        count = len(state["references"])
        suffix = Text(
            f"({kit.plural(count, 'reference')})" if count else "(no references)",
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
    return kit.status_line(
        ctx,
        "Reading reference",
        "Read reference",
        subject,
        _lines_suffix(ctx, result_state(ctx)),
        verb_failed="Could not read reference",
        cut="middle",
    )


def _not_found(ctx: SurfaceContext, noun: str) -> RenderableType | None:
    if ctx.error is None:
        return None
    palette = ctx.palette
    available = result_state(ctx).get("available") or []
    details: list[RenderableType] = []
    if available:
        details.append(Text(f"available {kit.noun(len(available), noun)}:", style=palette.muted))
        details.extend(kit.text(f"  · {item}", palette.primary) for item in available[:12])
        if len(available) > 12:
            details.append(kit.showing(12, len(available), noun, palette))
    else:
        details.append(
            Text(f"no {kit.noun(2, noun)} are installed", style=f"italic {palette.muted}")
        )
    return kit.error_box(f"{ctx.error.type}", ctx.error.message, palette, details=details)


def _model_got(ctx: SurfaceContext, state: dict[str, Any], what: str) -> Text | None:
    """The cut the tool made for the model, with its numbers."""
    if not state.get("truncated"):
        return None
    lines = int(state.get("lines", 0))
    total = int(state.get("totalLines", lines))
    return Text(
        f"the model got only the first {lines:,} of {kit.plural(total, 'line')} of {what}",
        style=f"italic {ctx.palette.warning}",
    )


@result_render("the skill", needs="name", error_view=partial(_not_found, noun="skill"))
def activate_render(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    palette = ctx.palette
    rows: list[RenderableType] = [_skill_title(ctx, state)]
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
    body = _text(ctx)
    if not int(state.get("totalLines", state.get("lines", 0))) or not body.strip():
        rows.append(
            Text("∅ the skill has no instructions: its SKILL.md is empty", style=palette.muted)
        )
        return Group(*rows)
    rows.append(
        kit.code_block(
            body,
            "markdown",
            palette,
            max_lines=BODY_LINES,
            line_numbers=False,
            total_lines=int(state.get("totalLines", 0)),
            width=ctx.inner_width,
        )
    )
    note = _model_got(ctx, state, "the skill")
    if note is not None:
        rows.append(note)
    return Group(*rows)


def _skill_title(ctx: SurfaceContext, state: dict[str, Any]) -> Text:
    title = kit.join(
        ("🧠 ", ""),
        kit.text(state.get("name", ctx.args.get("name", "")), "bold"),
        (" · ", ctx.palette.muted),
        kit.text(state.get("description", ""), ctx.palette.muted),
    )
    title.no_wrap = True
    title.overflow = "ellipsis"
    return title


def _reference_not_found(ctx: SurfaceContext) -> RenderableType | None:
    """A missing reference lists the skill's references; a missing skill, the skills."""
    missing_skill = ctx.error is not None and ctx.error.type == "SkillNotFound"
    return _not_found(ctx, "skill" if missing_skill else "reference")


@result_render("the read", needs="path", error_view=_reference_not_found)
def read_reference_render(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    palette = ctx.palette
    total = int(state.get("totalLines", state.get("lines", 0)))
    head = kit.join(
        kit.text(f"{state.get('skill', '')}/", palette.muted),
        kit.text(state["path"], "bold"),
        (
            f" · {kit.plural(total, 'line')} · {kit.human_size(int(state.get('size', 0)))}",
            palette.muted,
        ),
    )
    head.no_wrap = True
    head.overflow = "ellipsis"
    text = _text(ctx)
    if int(state.get("size", 0)) == 0 or not text.strip():
        return Group(head, Text("∅ the reference file is empty", style=palette.muted))
    language = "markdown" if str(state["path"]).endswith(".md") else "text"
    rows: list[RenderableType] = [
        head,
        kit.code_block(
            text,
            language,
            palette,
            max_lines=REFERENCE_LINES,
            line_numbers=False,
            total_lines=total,
            width=ctx.inner_width,
        ),
    ]
    note = _model_got(ctx, state, "the file")
    if note is not None:
        rows.append(note)
    return Group(*rows)


def _skeleton(ctx: SurfaceContext, rows: int) -> list[RenderableType]:
    width = ctx.inner_width
    shares = (7, 9, 5, 8, 10, 6, 9, 4)
    return kit.skeleton_lines(
        [width * shares[index % len(shares)] // 10 for index in range(rows)], ctx.palette
    )


def activate_placeholder(ctx: SurfaceContext) -> RenderableType:
    """The Render's frame: the skill's line, its references, then its instructions to come."""
    title = kit.join(
        (f"{kit.spinner(ctx.frame)} 🧠 ", ctx.palette.muted),
        kit.text(ctx.args.get("name", ""), "bold"),
    )
    return Group(title, *_skeleton(ctx, 1 + BODY_LINES))


def read_reference_placeholder(ctx: SurfaceContext) -> RenderableType:
    subject = "/".join(str(part) for part in (ctx.args.get("skill"), ctx.args.get("path")) if part)
    title = kit.join(
        (f"{kit.spinner(ctx.frame)} reading ", ctx.palette.muted), kit.text(subject, "bold")
    )
    # References are usually short: a typical one fills about three quarters of the preview.
    return Group(title, *_skeleton(ctx, REFERENCE_LINES * 3 // 4))


SURFACES = SurfaceSet(
    inspectors={"activateSkill": activate_inspector, "readReference": read_reference_inspector},
    renders={"activateSkill": activate_render, "readReference": read_reference_render},
    placeholders={
        "activateSkill": activate_placeholder,
        "readReference": read_reference_placeholder,
    },
)
