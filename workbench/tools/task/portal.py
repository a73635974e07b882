"""The task tool's Portal: a whole task, a whole listing or a whole run, as a person reads it."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from workbench.api import SurfaceContext, kit, result_state
from workbench.tools.task.renders import (
    run_header,
    run_output,
    status_badge,
    task_error,
    task_list,
    task_table,
    update_status_render,
)
from workbench.tools.task.store import PRIORITIES

PORTAL_ROWS = 200
PORTAL_LINES = 400


def portal(ctx: SurfaceContext) -> RenderableType | None:
    state = result_state(ctx)
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
            failed = task_error(ctx, "Running the task")
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
    failed = task_error(ctx, "Creating the task")
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
        failed = task_error(ctx, "Setting the status")
        change = kit.join(
            ("asked: set to ", palette.muted),
            status_badge(str(ctx.args.get("status", "")), palette),
        )
        rows.append(change)
        if failed is not None:
            rows.append(failed)
    return Group(*rows)
