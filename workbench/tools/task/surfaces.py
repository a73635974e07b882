"""The task tool's surfaces: Inspectors, a task table, status changes, runs, and a Portal."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from workbench.core.call_state import Phase
from workbench.surfaces import kit
from workbench.surfaces.context import Palette, SurfaceContext
from workbench.surfaces.registry import SurfaceSet, editable
from workbench.tools.task.store import PRIORITIES

TABLE_ROWS = 12
PORTAL_ROWS = 500
OUTPUT_LINES = 12


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
    if "succeeded" in state:
        suffix = Text(
            f"({state['succeeded']} created"
            + (f", {state['failed']} failed)" if state.get("failed") else ")"),
            style=ctx.palette.error if state.get("failed") else ctx.palette.muted,
        )
    return kit.status_line(
        ctx,
        "Creating tasks",
        "Created tasks",
        kit.text(f"{count} task{'s' if count != 1 else ''}" if count else ""),
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
            "(no tasks)" if state["total"] == 0 else f"({state['total']})", style=ctx.palette.muted
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
    verb = "Awaiting approval to set" if ctx.phase is Phase.AWAITING_APPROVAL else "Setting status"
    return kit.status_line(
        ctx, verb, "Set status", subject, None, verb_failed="Could not set status"
    )


def run_task_inspector(ctx: SurfaceContext) -> RenderableType:
    state = _state(ctx)
    suffix = (
        status_badge(str(state["status"]), ctx.palette)
        if "status" in state and ctx.error is None
        else None
    )
    verb = "Awaiting approval to run" if ctx.phase is Phase.AWAITING_APPROVAL else "Running task"
    return kit.status_line(
        ctx,
        verb,
        "Ran task",
        kit.text(ctx.args.get("identifier", "")),
        suffix,
        verb_failed="Task run failed",
    )


# --- Renders --------------------------------------------------------------------------------


def create_task_render(ctx: SurfaceContext) -> RenderableType | None:
    failed = _error(ctx, "Creating the task")
    if failed is not None:
        return failed
    state = _state(ctx)
    if "identifier" not in state:
        return None
    palette = ctx.palette
    rows: list[RenderableType] = [kit.rows_table(task_rows([state], palette), palette)]
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
        rows.append(kit.capped_text(instruction, palette, max_lines=4, style=palette.muted))
    return Group(*rows)


def create_tasks_render(ctx: SurfaceContext) -> RenderableType | None:
    state = _state(ctx)
    if "results" not in state:
        return _error(ctx, "Creating the tasks")
    palette = ctx.palette
    results: list[dict[str, Any]] = state["results"]
    summary = Text.assemble((f"✓ {state.get('succeeded', 0)} created", palette.success))
    if state.get("failed"):
        summary.append(f"  ✗ {state['failed']} failed", style=f"bold {palette.error}")
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
            kit.more_note(len(results) - TABLE_ROWS, TABLE_ROWS, len(results), "tasks", palette)
        )
    return Group(*rows)


def list_tasks_render(ctx: SurfaceContext) -> RenderableType | None:
    failed = _error(ctx, "Listing tasks")
    if failed is not None:
        return failed
    state = _state(ctx)
    if "tasks" not in state:
        return None
    palette = ctx.palette
    tasks: list[dict[str, Any]] = state["tasks"]
    total = int(state.get("total", len(tasks)))
    if not tasks:
        return Text("∅ no tasks match these filters", style=palette.muted)
    shown = tasks[:TABLE_ROWS]
    rows: list[RenderableType] = [
        Text(f"{total:,} task{'s' if total != 1 else ''}", style=f"bold {palette.muted}")
    ]
    rows.append(
        kit.rows_table(
            task_rows(shown, palette), palette, headers=("id", "status", "priority", "name")
        )
    )
    if total > len(shown):
        rows.append(kit.more_note(total - len(shown), len(shown), total, "tasks", palette))
    return Group(*rows)


def update_status_render(ctx: SurfaceContext) -> RenderableType | None:
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


def run_task_render(ctx: SurfaceContext) -> RenderableType | None:
    state = _state(ctx)
    palette = ctx.palette
    if ctx.error is not None and "command" not in state:
        return _error(ctx, "Running the task")
    if "status" not in state:
        return None
    head = kit.join(
        kit.text(state.get("identifier", ""), f"bold {palette.primary}"),
        " ",
        kit.text(state.get("name", "")),
        "  ",
    )
    head.append_text(status_badge(str(state.get("previousStatus", "")), palette))
    head.append(" → ", style=palette.muted)
    head.append_text(status_badge(str(state["status"]), palette))
    rows: list[RenderableType] = [head]
    if state.get("command"):
        rows.append(kit.join(("$ ", f"bold {palette.accent}"), kit.text(state["command"], "bold")))
        output = str(state.get("output", ""))
        lines = output.split("\n") if output else []
        rows.extend(kit.ansi_text(line) for line in lines[-OUTPUT_LINES:])
        code = state.get("exitCode")
        seconds = int(state.get("durationMs", 0)) / 1000
        rows.append(
            Text(
                f"{'✓' if code == 0 else '✗'} exit {code} · {seconds:.1f} s",
                style=f"bold {palette.success if code == 0 else palette.error}",
            )
        )
    else:
        rows.append(Text("no command: marked completed", style=f"italic {palette.muted}"))
    return Group(*rows)


# --- Placeholder, Streaming, Intervention ----------------------------------------------------


def run_task_placeholder(ctx: SurfaceContext) -> RenderableType:
    return Group(
        kit.join(
            (f"{kit.spinner(ctx.frame)} starting ", ctx.palette.muted),
            kit.text(ctx.args.get("identifier", ""), "bold"),
        ),
        kit.skeleton_bar(ctx.inner_width // 2, ctx.palette),
    )


def run_task_streaming(ctx: SurfaceContext) -> RenderableType:
    rows: list[RenderableType] = [
        kit.join(
            (f"{kit.spinner(ctx.frame)} running ", ctx.palette.muted),
            kit.text(ctx.args.get("identifier", ""), "bold"),
        )
    ]
    rows.extend(kit.output_tail(ctx.output, OUTPUT_LINES, ctx.palette))
    return Group(*rows)


def create_tasks_streaming(ctx: SurfaceContext) -> RenderableType:
    progress = ctx.state.progress
    bar = kit.progress_bar(
        progress.fraction if progress else None, min(40, ctx.inner_width - 10), ctx.palette
    )
    message = progress.message if progress and progress.message else ""
    return Group(bar, kit.text(message, ctx.palette.muted))


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
    if ctx.api_name == "listTasks" and "tasks" in state:
        tasks = state["tasks"]
        rows: list[RenderableType] = [
            Text(f"📋 {state.get('total', len(tasks))} tasks", style="bold")
        ]
        rows.append(
            kit.rows_table(
                task_rows(tasks[:PORTAL_ROWS], palette),
                palette,
                headers=("id", "status", "priority", "name"),
            )
        )
        if int(state.get("total", 0)) > min(len(tasks), PORTAL_ROWS):
            rows.append(
                kit.showing(min(len(tasks), PORTAL_ROWS), int(state["total"]), "tasks", palette)
            )
        return Group(*rows)
    if ctx.api_name == "createTasks" and "results" in state:
        rows = [Text("📋 Created tasks", style="bold")]
        requested = ctx.args.get("tasks")
        specs = requested if isinstance(requested, list) else []
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
    if ctx.api_name == "runTask":
        rows = [kit.text(f"📋 Run of {ctx.args.get('identifier', '')}", "bold")]
        if not ctx.output.is_empty():
            rows.extend(kit.output_tail(ctx.output, 500, palette))
        elif state.get("output"):
            rows.extend(kit.ansi_text(line) for line in str(state["output"]).split("\n"))
        summary = run_task_render(ctx)
        if summary is not None:
            rows.append(summary)
        return Group(*rows)
    return None


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
    placeholders={"runTask": run_task_placeholder},
    streamings={"runTask": run_task_streaming, "createTasks": create_tasks_streaming},
    interventions={
        "updateTaskStatus": update_status_intervention,
        "runTask": run_task_intervention,
    },
    portal=portal,
)
