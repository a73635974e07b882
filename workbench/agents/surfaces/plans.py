"""Plans and questions: a todo list with its states (TodoWrite, update_plan), a plan handed
to the user (ExitPlanMode), questions asked (AskUserQuestion), a fact remembered
(save_memory)."""

from __future__ import annotations

from typing import Any

from workbench.agents.surfaces.common import (
    after_ending,
    arg_text,
    bars,
    header,
    listed,
    model_text,
    muted,
    pending,
    with_silence,
)
from workbench.api import Group, RenderableType, SurfaceContext, Text, kit

ITEM_ROWS = 10
PLAN_LINES = 10
MARKS = {"completed": "☑", "in_progress": "◐", "pending": "☐"}


def _items(ctx: SurfaceContext) -> list[tuple[str, str]]:
    """(text, status) of each item: TodoWrite's ``todos`` or update_plan's ``plan``."""
    items: list[tuple[str, str]] = []
    for item in ctx.list_arg("todos") or ctx.list_arg("plan"):
        if isinstance(item, dict):
            text = item.get("content", item.get("step", item.get("description", "")))
            items.append((str(text), str(item.get("status", "pending"))))
    return items


def _tally(items: list[tuple[str, str]]) -> str:
    done = sum(1 for _, status in items if status == "completed")
    return f"{done} of {kit.plural(len(items), 'item')} done"


def todo_inspector(ctx: SurfaceContext) -> RenderableType:
    items = _items(ctx)
    current = next((text for text, status in items if status == "in_progress"), "")
    subject = kit.text(current) if current else kit.text(kit.plural(len(items), "item"))
    suffix = muted(ctx, f"({_tally(items)})") if items and current else None
    return kit.status_line(
        ctx,
        "Updating the plan",
        "Updated the plan",
        subject,
        suffix,
        verb_failed="Could not update the plan",
    )


@after_ending("the update", "Updating the plan")
def todo_render(ctx: SurfaceContext) -> RenderableType | None:
    rows: list[RenderableType] = []
    explanation = arg_text(ctx, "explanation")
    if explanation:
        rows.append(header(kit.text(explanation, "italic")))
    rows.extend(item_rows(ctx, ITEM_ROWS))
    if not _items(ctx):
        return Group(*rows)
    return with_silence(ctx, *rows)


def item_rows(ctx: SurfaceContext, limit: int) -> list[RenderableType]:
    """The tally, then each item with its state's mark, the first ``limit`` of them."""
    items = _items(ctx)
    if not items:
        return [muted(ctx, "∅ the plan is empty: every item was cleared")]
    palette = ctx.palette
    rows: list[RenderableType] = [header((_tally(items), palette.muted))]
    shown, _ = kit.cap_items(items, limit)
    for text, status in shown:
        mark = MARKS.get(status, "·")
        style = {"completed": palette.muted, "in_progress": f"bold {palette.warning}"}.get(
            status, ""
        )
        line = Text(f"{mark} ", style=palette.success if status == "completed" else style)
        line.append_text(
            kit.text(text, f"strike {palette.muted}" if status == "completed" else style)
        )
        line.no_wrap = True
        line.overflow = "ellipsis"
        rows.append(line)
    if len(items) > len(shown):
        rows.append(kit.showing(len(shown), len(items), "item", palette))
    return rows


def todo_placeholder(ctx: SurfaceContext) -> RenderableType:
    return Group(
        pending(ctx, "updating", "the plan"), *bars(ctx, min(ITEM_ROWS, len(_items(ctx))) or 1)
    )


def plan_inspector(ctx: SurfaceContext) -> RenderableType:
    plan = arg_text(ctx, "plan")
    first_line = next((line.strip("# ").strip() for line in plan.splitlines() if line.strip()), "")
    return kit.status_line(
        ctx,
        "Presenting the plan",
        "Presented the plan",
        kit.text(first_line),
        verb_failed="Could not present the plan",
    )


@after_ending("the plan", "Presenting the plan")
def plan_render(ctx: SurfaceContext) -> RenderableType | None:
    plan = arg_text(ctx, "plan")
    rows: list[RenderableType] = [
        kit.capped_text(
            plan or "(no plan text)", ctx.palette, max_lines=PLAN_LINES, width=ctx.inner_width
        )
    ]
    if model_text(ctx).strip():
        rows.append(
            header(("→ ", ctx.palette.muted), kit.text(model_text(ctx).strip().splitlines()[0]))
        )
    return with_silence(ctx, *rows)


def plan_placeholder(ctx: SurfaceContext) -> RenderableType:
    return Group(pending(ctx, "presenting", "the plan"), *bars(ctx, PLAN_LINES // 2))


def questions_of(ctx: SurfaceContext) -> list[dict[str, Any]]:
    return [item for item in ctx.list_arg("questions") if isinstance(item, dict)]


def ask_inspector(ctx: SurfaceContext) -> RenderableType:
    questions = questions_of(ctx)
    subject = (
        str(questions[0].get("question", ""))
        if len(questions) == 1
        else kit.plural(len(questions), "question")
    )
    return kit.status_line(ctx, "Asking", "Asked", kit.text(subject), verb_failed="Could not ask")


@after_ending("the question", "Asking")
def ask_render(ctx: SurfaceContext) -> RenderableType | None:
    rows: list[RenderableType] = []
    for question in questions_of(ctx)[:4]:
        rows.append(
            header(("? ", ctx.palette.accent), kit.text(str(question.get("question", "")), "bold"))
        )
        options = [item for item in listed(question.get("options")) if isinstance(item, dict)]
        labels = " · ".join(str(option.get("label", "")) for option in options)
        if labels:
            rows.append(header(("  ", ""), muted(ctx, labels)))
    answer = model_text(ctx).strip()
    rows.append(
        header(
            ("→ ", ctx.palette.success), kit.text(answer.splitlines()[0] if answer else "no answer")
        )
    )
    return Group(*rows)


def ask_placeholder(ctx: SurfaceContext) -> RenderableType:
    return Group(
        pending(ctx, "waiting for", "the user's answer"),
        *bars(ctx, 2 * max(1, len(questions_of(ctx)))),
    )


def memory_inspector(ctx: SurfaceContext) -> RenderableType:
    return kit.status_line(
        ctx,
        "Remembering",
        "Remembered",
        kit.text(arg_text(ctx, "fact")),
        verb_failed="Could not remember",
    )


@after_ending("the save", "Saving the memory")
def memory_render(ctx: SurfaceContext) -> RenderableType | None:
    return with_silence(
        ctx,
        header(("✓ ", ctx.palette.success), ("saved to memory", ctx.palette.muted)),
        kit.capped_text(arg_text(ctx, "fact"), ctx.palette, max_lines=4, width=ctx.inner_width),
    )
