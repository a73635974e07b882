"""The task tool's Renders, and the task table, status badge and error view they share with
the Portal."""

from __future__ import annotations

from functools import partial
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from workbench.api import Palette, SurfaceContext, kit, result_render, result_state
from workbench.tools.task.store import PRIORITIES

TABLE_ROWS = 12
OUTPUT_LINES = 12
INSTRUCTION_LINES = 4


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


def task_error(ctx: SurfaceContext, what: str) -> RenderableType | None:
    if ctx.error is None:
        return None
    hints = {
        "TaskNotFound": "List the tasks with listTasks to find the identifier.",
        "DependenciesNotMet": "Run or complete the blocking tasks first.",
        "UseRunTask": "To start a task, call runTask.",
        "InvalidIdentifier": "Identifiers look like TASK-3.",
    }
    details: list[RenderableType] = []
    blocked = result_state(ctx).get("blockedBy")
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


# --- Renders --------------------------------------------------------------------------------


@result_render(
    "the task", needs="identifier", error_view=partial(task_error, what="Creating the task")
)
def create_task_render(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
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


@result_render("the batch")
def create_tasks_render(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    if "results" not in state:
        return task_error(ctx, "Creating the tasks")
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


@result_render("the listing", needs="tasks", error_view=partial(task_error, what="Listing tasks"))
def list_tasks_render(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
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


@result_render(
    "the status change", needs="status", error_view=partial(task_error, what="Setting the status")
)
def update_status_render(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
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
    state = result_state(ctx)
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
        return task_error(ctx, "Running the task")
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
