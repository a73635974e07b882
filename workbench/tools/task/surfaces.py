"""The task tool's surfaces: Inspectors, Placeholders, Streamings and Interventions here;
the Renders in :mod:`.renders`, the Portal in :mod:`.portal`."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from workbench.api import (
    SurfaceContext,
    SurfaceSet,
    editable,
    kit,
    pending_line,
    result_state,
)
from workbench.tools.task.portal import portal
from workbench.tools.task.renders import (
    INSTRUCTION_LINES,
    OUTPUT_LINES,
    TABLE_ROWS,
    create_task_render,
    create_tasks_render,
    list_tasks_render,
    run_task_render,
    status_badge,
    update_status_render,
)

# --- Inspectors -----------------------------------------------------------------------------


def create_task_inspector(ctx: SurfaceContext) -> RenderableType:
    state = result_state(ctx)
    suffix = (
        kit.text(f"→ {state['identifier']}", ctx.palette.success) if "identifier" in state else None
    )
    return kit.status_line(
        ctx,
        "Creating task",
        "Created task",
        kit.text(ctx.args.get("name", "")),
        suffix,
        verb_failed="Could not create task",
    )


def create_tasks_inspector(ctx: SurfaceContext) -> RenderableType:
    tasks = ctx.args.get("tasks")
    count = len(tasks) if isinstance(tasks, list) else 0
    state = result_state(ctx)
    suffix = None
    subject = kit.plural(count, "task") if count else ""
    if "succeeded" in state and ctx.error is None:
        # "Created" is true of the tasks that were created: "Created: 2 of 3 tasks (1 failed)".
        subject = kit.part_of(int(state["succeeded"]), count, "task")
        if state.get("failed"):
            suffix = Text(f"({state['failed']:,} failed)", style=ctx.palette.error)
    return kit.status_line(
        ctx,
        "Creating",
        "Created",
        kit.text(subject),
        suffix,
        verb_failed="Could not create tasks",
    )


def list_tasks_inspector(ctx: SurfaceContext) -> RenderableType:
    filters = []
    if ctx.args.get("status"):
        filters.append("status " + ", ".join(map(str, ctx.args["status"])))
    if ctx.args.get("parentIdentifier"):
        filters.append(f"under {ctx.args['parentIdentifier']}")
    if ctx.args.get("query"):
        filters.append(f"“{ctx.args['query']}”")
    state = result_state(ctx)
    suffix = None
    if isinstance(state.get("total"), int) and ctx.error is None:
        suffix = Text(
            "(no tasks)" if state["total"] == 0 else f"({kit.plural(state['total'], 'task')})",
            style=ctx.palette.muted,
        )
    return kit.status_line(
        ctx,
        "Listing tasks",
        "Listed tasks",
        kit.text(", ".join(filters)),
        suffix,
        verb_failed="Could not list tasks",
    )


def update_status_inspector(ctx: SurfaceContext) -> RenderableType:
    subject = kit.text(
        f"{ctx.args.get('identifier', '')} → {ctx.args.get('status', '')}".strip(" →")
    )
    return kit.status_line(
        ctx, "Setting status", "Set status", subject, None, verb_failed="Could not set status"
    )


def run_task_inspector(ctx: SurfaceContext) -> RenderableType:
    state = result_state(ctx)
    suffix = (
        status_badge(str(state["status"]), ctx.palette)
        if "status" in state and ctx.error is None
        else None
    )
    return kit.status_line(
        ctx,
        "Running task",
        "Ran task",
        kit.text(ctx.args.get("identifier", "")),
        suffix,
        verb_failed="Task run failed",
    )


# --- Placeholder, Streaming, Intervention ----------------------------------------------------


def _skeleton(ctx: SurfaceContext, rows: int) -> list[RenderableType]:
    width = ctx.inner_width
    shares = (6, 8, 5, 7, 4, 6, 9, 5)
    return kit.skeleton_lines(
        [width * shares[i % len(shares)] // 10 for i in range(rows)], ctx.palette
    )


def run_task_placeholder(ctx: SurfaceContext) -> RenderableType:
    """The run's frame: the task line, the command line, output to come, the exit line."""
    return Group(
        pending_line(ctx, "starting", str(ctx.args.get("identifier", ""))),
        *_skeleton(ctx, 3),
        Text(f"{kit.spinner(ctx.frame)} no output yet", style=f"italic {ctx.palette.muted}"),
    )


def run_task_streaming(ctx: SurfaceContext) -> RenderableType:
    """The Render's frame, filling in: the task line, then the output's last lines."""
    palette = ctx.palette
    rows: list[RenderableType] = [
        pending_line(ctx, "running", str(ctx.args.get("identifier", ""))),
        Text(f"{kit.plural(ctx.output.line_count, 'line')} of output so far", style=palette.muted),
    ]
    rows.extend(kit.output_tail(ctx.output, OUTPUT_LINES, palette))
    return Group(*rows)


def create_task_placeholder(ctx: SurfaceContext) -> RenderableType:
    """The new task's row and its details, before the store has given it an id."""
    instruction = ctx.args.get("instruction")
    lines = (
        min(INSTRUCTION_LINES, kit.line_count(instruction)) if isinstance(instruction, str) else 0
    )
    details = sum(1 for key in ("parentIdentifier", "dependsOn", "command") if ctx.args.get(key))
    return Group(
        pending_line(ctx, "creating", str(ctx.args.get("name", ""))),
        *_skeleton(ctx, details + lines),
    )


def create_tasks_placeholder(ctx: SurfaceContext) -> RenderableType:
    tasks = ctx.list_arg("tasks")
    return Group(
        pending_line(ctx, "creating", kit.plural(len(tasks), "task")),
        *_skeleton(ctx, min(len(tasks), TABLE_ROWS)),
    )


def list_tasks_placeholder(ctx: SurfaceContext) -> RenderableType:
    """The table's frame: the count line, the header, a skeleton row per task to come."""
    limit = ctx.args.get("limit")
    rows = min(int(limit), TABLE_ROWS) if isinstance(limit, int) and limit > 0 else 5
    return Group(pending_line(ctx, "listing", "tasks"), *_skeleton(ctx, rows + 1))


def update_status_placeholder(ctx: SurfaceContext) -> RenderableType:
    subject = f"{ctx.args.get('identifier', '')} → {ctx.args.get('status', '')}"
    return pending_line(ctx, "setting", subject)


def create_tasks_streaming(ctx: SurfaceContext) -> RenderableType:
    """The batch's list, filling in as each task is created."""
    palette = ctx.palette
    progress = ctx.state.progress
    bar = kit.progress_bar(
        progress.fraction if progress else None, min(40, ctx.inner_width - 10), palette
    )
    message = progress.message if progress and progress.message else ""
    tasks = ctx.list_arg("tasks")
    head = kit.join((f"{kit.spinner(ctx.frame)} ", palette.muted), bar)
    head.append_text(kit.text(f"  {message}", palette.muted))
    head.no_wrap = True
    head.overflow = "ellipsis"
    rows: list[RenderableType] = [head]
    for spec in tasks[:TABLE_ROWS]:
        name = spec.get("name", "") if isinstance(spec, dict) else ""
        line = kit.join(("  · ", palette.muted), kit.text(name))
        line.no_wrap = True
        line.overflow = "ellipsis"
        rows.append(line)
    if len(tasks) > TABLE_ROWS:
        rows.append(kit.more_note(len(tasks) - TABLE_ROWS, TABLE_ROWS, len(tasks), "task", palette))
    return Group(*rows)


def _approval_line(ctx: SurfaceContext) -> Text:
    approval = ctx.state.approval
    reason = (
        approval.reason
        if approval is not None and approval.reason
        else "this API asks before it acts"
    )
    return kit.join(
        ("Approval needed", f"bold {ctx.palette.warning}"), (f" · {reason}", ctx.palette.muted)
    )


@editable("status", "error")
def update_status_intervention(ctx: SurfaceContext) -> RenderableType:
    palette = ctx.palette
    change = kit.join(
        ("set ", palette.muted),
        kit.text(ctx.args.get("identifier", ""), f"bold {palette.primary}"),
        (" to ", palette.muted),
    )
    change.append_text(status_badge(str(ctx.args.get("status", "")), palette))
    rows: list[RenderableType] = [
        _approval_line(ctx),
        change,
        Text("This only records the status; nothing is executed.", style=f"italic {palette.muted}"),
    ]
    if ctx.args.get("error"):
        rows.append(kit.join(("reason ", palette.muted), kit.text(ctx.args["error"])))
    return Group(*rows)


@editable("identifier")
def run_task_intervention(ctx: SurfaceContext) -> RenderableType:
    palette = ctx.palette
    return Group(
        _approval_line(ctx),
        kit.join(
            ("run ", palette.muted),
            kit.text(ctx.args.get("identifier", ""), f"bold {palette.primary}"),
            (
                ": executes the task's command in the workspace and records the outcome",
                palette.muted,
            ),
        ),
    )


SURFACES = SurfaceSet(
    inspectors={
        "createTask": create_task_inspector,
        "createTasks": create_tasks_inspector,
        "listTasks": list_tasks_inspector,
        "updateTaskStatus": update_status_inspector,
        "runTask": run_task_inspector,
    },
    renders={
        "createTask": create_task_render,
        "createTasks": create_tasks_render,
        "listTasks": list_tasks_render,
        "updateTaskStatus": update_status_render,
        "runTask": run_task_render,
    },
    placeholders={
        "createTask": create_task_placeholder,
        "createTasks": create_tasks_placeholder,
        "listTasks": list_tasks_placeholder,
        "updateTaskStatus": update_status_placeholder,
        "runTask": run_task_placeholder,
    },
    streamings={"runTask": run_task_streaming, "createTasks": create_tasks_streaming},
    interventions={
        "updateTaskStatus": update_status_intervention,
        "runTask": run_task_intervention,
    },
    portal=portal,
)
