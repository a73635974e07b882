"""The task tool's surfaces: Inspectors, a task table, status changes, runs, and a Portal."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from workbench.api import Palette, SurfaceContext, SurfaceSet, editable, kit
from workbench.tools.task.store import PRIORITIES

TABLE_ROWS = 12
PORTAL_ROWS = 200
PORTAL_LINES = 400
OUTPUT_LINES = 12
INSTRUCTION_LINES = 4


def _state(ctx: SurfaceContext) -> dict[str, Any]:
    return ctx.result_state if isinstance(ctx.result_state, dict) else {}


def status_badge(status: str, palette: Palette) -> Text:
    color = {
        "completed": palette.success,
        "failed": palette.error,
        "running": palette.accent,
        "cancelled": palette.muted,
        "paused": palette.warning,
    }.get(status, palette.primary)
    symbol = {"completed": "✓", "failed": "✗", "running": "▶", "cancelled": "⊘", "paused": "‖"}.get(
        status, "○"
    )
    return kit.text(f"{symbol} {status}", color)


def task_table(
    tasks: list[dict[str, Any]], palette: Palette, width: int, *, headers: bool = True
) -> Table:
    """Tasks as rows: id, status and priority keep their width; the name gives way."""
    return kit.rows_table(
        task_rows(tasks, palette),
        palette,
        headers=("id", "status", "priority", "name") if headers else None,
        keep=(0, 1, 2),
        width=width,
    )


def task_rows(tasks: list[dict[str, Any]], palette: Palette) -> list[list[Text]]:
    rows = []
    for task in tasks:
        rows.append(
            [
                kit.text(task.get("identifier", ""), f"bold {palette.primary}"),
                status_badge(str(task.get("status", "")), palette),
                kit.text(PRIORITIES.get(int(task.get("priority", 0)), "?"), palette.muted),
                kit.text(task.get("name", "")),
            ]
        )
    return rows


def _error(ctx: SurfaceContext, what: str) -> RenderableType | None:
    if ctx.error is None:
        return None
    hints = {
        "TaskNotFound": "List the tasks with listTasks to find the identifier.",
        "DependenciesNotMet": "Run or complete the blocking tasks first.",
        "UseRunTask": "To start a task, call runTask.",
        "InvalidIdentifier": "Identifiers look like TASK-3.",
    }
    details: list[RenderableType] = []
    blocked = _state(ctx).get("blockedBy")
    if isinstance(blocked, list) and blocked:
        details.append(
            kit.join(
                ("blocked by ", ctx.palette.muted), kit.text(", ".join(map(str, blocked)), "bold")
            )
        )
    hint = hints.get(ctx.error.type)
    if hint:
        details.append(Text(f"hint: {hint}", style=f"italic {ctx.palette.muted}"))
    return kit.error_box(
        f"{what} failed · {ctx.error.type}", ctx.error.message, ctx.palette, details=details
    )


# --- Inspectors -----------------------------------------------------------------------------


def create_task_inspector(ctx: SurfaceContext) -> RenderableType:
    state = _state(ctx)
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
    state = _state(ctx)
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
    state = _state(ctx)
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
    state = _state(ctx)
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


# --- Renders --------------------------------------------------------------------------------


def create_task_render(ctx: SurfaceContext) -> RenderableType | None:
    notice = kit.ending_notice(ctx, what="the task")
    if notice is not None:
        return notice
    failed = _error(ctx, "Creating the task")
    if failed is not None:
        return failed
    state = _state(ctx)
    if "identifier" not in state:
        return None
    palette = ctx.palette
    rows: list[RenderableType] = [task_table([state], palette, ctx.inner_width, headers=False)]
    details = []
    if state.get("parent"):
        details.append(("subtask of", state["parent"]))
    if state.get("dependsOn"):
        details.append(("after", ", ".join(state["dependsOn"])))
    if state.get("command"):
        details.append(("runs", state["command"]))
    if details:
        rows.append(kit.key_values(details, palette))
    instruction = ctx.args.get("instruction")
    if isinstance(instruction, str) and instruction:
        rows.append(
            kit.capped_text(instruction, palette, max_lines=INSTRUCTION_LINES, style=palette.muted)
        )
    return Group(*rows)


def create_tasks_render(ctx: SurfaceContext) -> RenderableType | None:
    notice = kit.ending_notice(ctx, what="the batch")
    if notice is not None:
        return notice
    state = _state(ctx)
    if "results" not in state:
        return _error(ctx, "Creating the tasks")
    palette = ctx.palette
    results: list[dict[str, Any]] = state["results"]
    summary = Text()
    if state.get("succeeded") or not state.get("failed"):
        # No "✓ 0 created" over a batch where nothing was: a tick says something went well.
        summary.append(f"✓ {state.get('succeeded', 0)} created", style=palette.success)
    if state.get("failed"):
        summary.append("  " if summary.plain else "")
        summary.append(f"✗ {state['failed']} failed", style=f"bold {palette.error}")
    rows: list[RenderableType] = [summary]
    for item in results[:TABLE_ROWS]:
        if item.get("success"):
            rows.append(
                kit.join(
                    (f"  {item.get('identifier', '')} ", f"bold {palette.primary}"),
                    kit.text(item.get("name", "")),
                )
            )
        else:
            line = kit.join(
                ("  ✗ ", palette.error),
                kit.text(item.get("name", ""), "bold"),
                (" — ", palette.muted),
                kit.text(item.get("error", ""), palette.error),
            )
            rows.append(line)
    if len(results) > TABLE_ROWS:
        rows.append(
            kit.more_note(len(results) - TABLE_ROWS, TABLE_ROWS, len(results), "task", palette)
        )
    return Group(*rows)


def list_tasks_render(ctx: SurfaceContext) -> RenderableType | None:
    notice = kit.ending_notice(ctx, what="the listing")
    if notice is not None:
        return notice
    failed = _error(ctx, "Listing tasks")
    if failed is not None:
        return failed
    state = _state(ctx)
    if "tasks" not in state:
        return None
    return task_list(ctx, state, TABLE_ROWS)


def task_list(ctx: SurfaceContext, state: dict[str, Any], limit: int) -> RenderableType:
    palette = ctx.palette
    tasks: list[dict[str, Any]] = state["tasks"]
    if not tasks:
        return Group(
            Text("∅ no tasks match these filters", style=palette.muted),
            Text("try fewer filters, or list every task", style=f"italic {palette.muted}"),
        )
    total = max(int(state.get("total", len(tasks))), len(tasks))
    shown = tasks[:limit]
    rows: list[RenderableType] = [
        Text(kit.plural(total, "task"), style=f"bold {palette.muted}"),
        task_table(shown, palette, ctx.inner_width),
    ]
    note = kit.returned_note(
        len(shown), len(tasks), total, "task", palette, more_hint="raise limit to see more"
    )
    if note.plain:
        rows.append(note)
    return Group(*rows)


def update_status_render(ctx: SurfaceContext) -> RenderableType | None:
    notice = kit.ending_notice(ctx, what="the status change")
    if notice is not None:
        return notice
    failed = _error(ctx, "Setting the status")
    if failed is not None:
        return failed
    state = _state(ctx)
    if "status" not in state:
        return None
    palette = ctx.palette
    line = kit.join(
        kit.text(state.get("identifier", ""), f"bold {palette.primary}"),
        " ",
        kit.text(state.get("name", "")),
        "  ",
    )
    line.append_text(status_badge(str(state.get("previousStatus", "")), palette))
    line.append(" → ", style=palette.muted)
    line.append_text(status_badge(str(state["status"]), palette))
    rows: list[RenderableType] = [line]
    if ctx.args.get("error"):
        rows.append(kit.join(("reason ", palette.muted), kit.text(ctx.args["error"])))
    return Group(*rows)


def run_header(ctx: SurfaceContext, state: dict[str, Any]) -> Text:
    palette = ctx.palette
    head = kit.join(
        kit.text(state.get("identifier", ""), f"bold {palette.primary}"),
        " ",
        kit.text(state.get("name", "")),
        "  ",
    )
    head.append_text(status_badge(str(state.get("previousStatus", "")), palette))
    head.append(" → ", style=palette.muted)
    head.append_text(status_badge(str(state["status"]), palette))
    head.no_wrap = True
    head.overflow = "ellipsis"
    return head


def run_output(ctx: SurfaceContext, state: dict[str, Any], limit: int) -> list[RenderableType]:
    """The command's last lines, saying how many came before them."""
    palette = ctx.palette
    output = str(state.get("output", ""))
    lines = output.split("\n") if output else []
    shown = lines[-limit:]
    total = max(int(state.get("outputLines", 0)), ctx.output.line_count, len(lines))
    rows: list[RenderableType] = []
    if total > len(shown):
        rows.append(kit.hidden_lines_note(len(shown), total, palette))
    rows.extend(kit.output_text(line, palette) for line in shown)
    if not lines:
        rows.append(Text("∅ the command printed nothing", style=f"italic {palette.muted}"))
    return rows


def run_task_render(ctx: SurfaceContext) -> RenderableType | None:
    state = _state(ctx)
    palette = ctx.palette
    notice = kit.ending_notice(ctx, what="the task's run")
    if notice is not None:
        rows: list[RenderableType] = [
            kit.join(("run ", palette.muted), kit.text(ctx.args.get("identifier", ""), "bold"))
        ]
        rows.extend(kit.output_tail(ctx.output, OUTPUT_LINES, palette))
        rows.append(notice)
        return Group(*rows)
    if ctx.error is not None and "command" not in state:
        return _error(ctx, "Running the task")
    if "status" not in state:
        return None
    rows = [run_header(ctx, state)]
    if state.get("command"):
        rows.append(kit.join(("$ ", f"bold {palette.accent}"), kit.text(state["command"], "bold")))
        rows.extend(run_output(ctx, state, OUTPUT_LINES))
        code = state.get("exitCode")
        seconds = kit.seconds(int(state.get("durationMs", 0)))
        rows.append(
            Text(
                f"{'✓' if code == 0 else '✗'} exit {code} · {seconds}",
                style=f"bold {palette.success if code == 0 else palette.error}",
            )
        )
    else:
        rows.append(Text("no command to run: marked completed", style=f"italic {palette.muted}"))
    return Group(*rows)


# --- Placeholder, Streaming, Intervention ----------------------------------------------------


def _skeleton(ctx: SurfaceContext, rows: int) -> list[RenderableType]:
    width = ctx.inner_width
    shares = (6, 8, 5, 7, 4, 6, 9, 5)
    return kit.skeleton_lines(
        [width * shares[i % len(shares)] // 10 for i in range(rows)], ctx.palette
    )


def _pending(ctx: SurfaceContext, verb: str, subject: str) -> Text:
    line = kit.join(
        (f"{kit.spinner(ctx.frame)} {verb} ", ctx.palette.muted), kit.text(subject, "bold")
    )
    line.no_wrap = True
    line.overflow = "ellipsis"
    return line


def run_task_placeholder(ctx: SurfaceContext) -> RenderableType:
    """The run's frame: the task line, the command line, output to come, the exit line."""
    return Group(
        _pending(ctx, "starting", str(ctx.args.get("identifier", ""))),
        *_skeleton(ctx, 3),
        Text(f"{kit.spinner(ctx.frame)} no output yet", style=f"italic {ctx.palette.muted}"),
    )


def run_task_streaming(ctx: SurfaceContext) -> RenderableType:
    """The Render's frame, filling in: the task line, then the output's last lines."""
    palette = ctx.palette
    rows: list[RenderableType] = [
        _pending(ctx, "running", str(ctx.args.get("identifier", ""))),
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
        _pending(ctx, "creating", str(ctx.args.get("name", ""))),
        *_skeleton(ctx, details + lines),
    )


def create_tasks_placeholder(ctx: SurfaceContext) -> RenderableType:
    tasks = ctx.list_arg("tasks")
    return Group(
        _pending(ctx, "creating", kit.plural(len(tasks), "task")),
        *_skeleton(ctx, min(len(tasks), TABLE_ROWS)),
    )


def list_tasks_placeholder(ctx: SurfaceContext) -> RenderableType:
    """The table's frame: the count line, the header, a skeleton row per task to come."""
    limit = ctx.args.get("limit")
    rows = min(int(limit), TABLE_ROWS) if isinstance(limit, int) and limit > 0 else 5
    return Group(_pending(ctx, "listing", "tasks"), *_skeleton(ctx, rows + 1))


def update_status_placeholder(ctx: SurfaceContext) -> RenderableType:
    subject = f"{ctx.args.get('identifier', '')} → {ctx.args.get('status', '')}"
    return _pending(ctx, "setting", subject)


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


# --- Portal ---------------------------------------------------------------------------------


def portal(ctx: SurfaceContext) -> RenderableType | None:
    state = _state(ctx)
    palette = ctx.palette
    notice = kit.portal_ending(ctx)
    if notice is not None and ctx.api_name != "runTask":
        return Group(Text(f"📋 {ctx.api_name}", style="bold"), notice)
    if ctx.api_name == "listTasks" and "tasks" in state:
        return Group(Text("📋 Tasks", style="bold"), task_list(ctx, state, PORTAL_ROWS))
    if ctx.api_name == "createTasks" and "results" in state:
        created = sum(1 for item in state["results"] if item.get("success"))
        title = (
            f"📋 Created {kit.part_of(created, len(state['results']), 'task')}"
            if created
            else f"📋 No tasks created: {kit.plural(len(state['results']), 'task')} failed"
        )
        rows: list[RenderableType] = [Text(title, style="bold")]
        specs = ctx.list_arg("tasks")
        for index, item in enumerate(state["results"][:PORTAL_ROWS]):
            head = kit.join(
                (
                    f"{item.get('identifier', '✗')} ",
                    f"bold {palette.primary if item.get('success') else palette.error}",
                ),
                kit.text(item.get("name", "")),
            )
            rows.append(head)
            spec = specs[index] if index < len(specs) and isinstance(specs[index], dict) else {}
            if spec.get("instruction"):
                rows.append(
                    kit.capped_text(
                        str(spec["instruction"]), palette, max_lines=6, style=palette.muted
                    )
                )
            if not item.get("success"):
                rows.append(kit.text(f"error: {item.get('error', '')}", palette.error))
        return Group(*rows)
    if ctx.api_name == "createTask":
        return _task_portal(ctx, state)
    if ctx.api_name == "updateTaskStatus":
        return _status_portal(ctx, state)
    if ctx.api_name == "runTask":
        rows = [kit.text(f"📋 Run of {ctx.args.get('identifier', '')}", "bold")]
        if "status" in state and notice is None:
            rows.append(run_header(ctx, state))
        if state.get("command"):
            rows.append(
                kit.join(("$ ", f"bold {palette.accent}"), kit.text(state["command"], "bold"))
            )
        if not ctx.output.is_empty():
            rows.extend(kit.output_tail(ctx.output, PORTAL_LINES, palette))
        elif "output" in state:
            rows.extend(run_output(ctx, state, PORTAL_LINES))
        if notice is not None:
            rows.append(notice)
        elif ctx.error is not None and "command" not in state:
            failed = _error(ctx, "Running the task")
            if failed is not None:
                rows.append(failed)
        elif "status" in state:
            code = state.get("exitCode")
            rows.append(
                Text(
                    "no command to run: marked completed"
                    if not state.get("command")
                    else f"{'✓' if code == 0 else '✗'} exit {code} · "
                    f"{kit.seconds(int(state.get('durationMs', 0)))}",
                    style=f"bold {palette.success if code in (0, None) else palette.error}",
                )
            )
        return Group(*rows)
    return None


def _task_portal(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType:
    """A task as a person reads it: what it is, where it sits, and the whole instruction."""
    palette = ctx.palette
    args = ctx.args
    rows: list[RenderableType] = [kit.text(f"📋 {args.get('name', 'New task')}", "bold")]
    if "identifier" in state:
        rows.append(task_table([state], palette, ctx.inner_width, headers=False))
    failed = _error(ctx, "Creating the task")
    if failed is not None:
        rows.append(failed)
    details: list[tuple[str, object]] = []
    if args.get("parentIdentifier"):
        details.append(("subtask of", args["parentIdentifier"]))
    if args.get("dependsOn"):
        details.append(("after", ", ".join(map(str, args["dependsOn"]))))
    if args.get("command"):
        details.append(("runs", args["command"]))
    if "priority" in args:
        details.append(("priority", PRIORITIES.get(int(args.get("priority", 0)), "?")))
    if details:
        rows.append(kit.key_values(details, palette))
    instruction = args.get("instruction")
    if isinstance(instruction, str) and instruction:
        rows.append(Text("instruction", style=f"bold {palette.muted}"))
        rows.append(kit.capped_text(instruction, palette, max_lines=PORTAL_LINES))
    return Group(*rows)


def _status_portal(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType:
    palette = ctx.palette
    rows: list[RenderableType] = [
        kit.text(f"📋 {ctx.args.get('identifier', '')}: status change", "bold")
    ]
    if "status" in state:
        rendered = update_status_render(ctx)
        if rendered is not None:
            rows.append(rendered)
    else:
        failed = _error(ctx, "Setting the status")
        change = kit.join(
            ("asked: set to ", palette.muted),
            status_badge(str(ctx.args.get("status", "")), palette),
        )
        rows.append(change)
        if failed is not None:
            rows.append(failed)
    return Group(*rows)


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
