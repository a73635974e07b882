"""One-line Inspectors for every local-system API: "-ing" while running, past tense after.

``kit.status_line`` keeps each one on one line at any width (the path or command gives way,
the status stays) and words the endings that are not a result: skipped, cancelled, blocked.
"""

from __future__ import annotations

from dataclasses import replace

from rich.console import RenderableType
from rich.text import Text

from workbench.api import Phase, SurfaceContext, kit, result_state
from workbench.tools.local_system.surfaces.components import path_of


def _count(ctx: SurfaceContext, total: object, noun: str, empty: str) -> Text | None:
    if ctx.error is not None or not isinstance(total, int):
        return None
    if total == 0:
        return Text(f"({empty})", style=ctx.palette.muted)
    return Text(f"({kit.plural(total, noun)})", style=ctx.palette.muted)


def list_files(ctx: SurfaceContext) -> RenderableType:
    state = result_state(ctx)
    # While the arguments stream, a missing path may still arrive: showing the default then
    # would put words in the model's mouth. Once they are complete, the tool lists ".".
    default = "" if ctx.state.is_args_streaming else "."
    return kit.status_line(
        ctx,
        "Listing",
        "Listed",
        kit.text(path_of(ctx, default=default)),
        _count(ctx, state.get("total"), "entry", "empty"),
        verb_failed="Could not list",
        cut="middle",
    )


def read_file(ctx: SurfaceContext) -> RenderableType:
    state = result_state(ctx)
    suffix = None
    if ctx.error is None and "totalLines" in state:
        total = int(state["totalLines"])
        suffix = Text(
            "(empty)"
            if total == 0
            else f"(lines {state['startLine']:,}-{state['endLine']:,} of {total:,})",
            style=ctx.palette.muted,
        )
    return kit.status_line(
        ctx,
        "Reading",
        "Read",
        kit.text(path_of(ctx)),
        suffix,
        verb_failed="Could not read",
        cut="middle",
    )


def write_file(ctx: SurfaceContext) -> RenderableType:
    state = result_state(ctx)
    suffix = None
    if ctx.error is None and "bytesWritten" in state:
        size = kit.human_size(int(state["bytesWritten"]))
        suffix = Text(f"({'new, ' if state.get('created') else ''}{size})", style=ctx.palette.muted)
    return kit.status_line(
        ctx,
        "Writing",
        "Wrote",
        kit.text(path_of(ctx)),
        suffix,
        verb_failed="Could not write",
        cut="middle",
    )


def edit_file(ctx: SurfaceContext) -> RenderableType:
    state = result_state(ctx)
    suffix = None
    if ctx.error is None and "linesAdded" in state:
        if not state.get("linesAdded") and not state.get("linesRemoved"):
            suffix = Text("(no change)", style=ctx.palette.muted)
        else:
            suffix = Text.assemble(
                (f"+{state['linesAdded']}", ctx.palette.success),
                " ",
                (f"-{state['linesRemoved']}", ctx.palette.error),
            )
    return kit.status_line(
        ctx,
        "Editing",
        "Edited",
        kit.text(path_of(ctx)),
        suffix,
        verb_failed="Could not edit",
        cut="middle",
    )


def glob_files(ctx: SurfaceContext) -> RenderableType:
    state = result_state(ctx)
    return kit.status_line(
        ctx,
        "Finding",
        "Found",
        kit.text(path_of(ctx, "pattern")),
        _count(ctx, state.get("total"), "file", "no matches"),
        verb_failed="Could not search",
    )


def grep_content(ctx: SurfaceContext) -> RenderableType:
    state = result_state(ctx)
    subject = kit.text(path_of(ctx, "pattern"))
    where = path_of(ctx, default="")
    if where and where != ".":
        subject.append_text(kit.text(f" in {where}"))
    suffix = None
    if ctx.error is None and isinstance(state.get("total"), int):
        total = state["total"]
        suffix = Text(
            "(no matches)"
            if total == 0
            else f"({total:,} in {kit.plural(int(state.get('files', 0)), 'file')})",
            style=ctx.palette.muted,
        )
    return kit.status_line(
        ctx, "Searching", "Searched", subject, suffix, verb_failed="Could not search"
    )


def run_command(ctx: SurfaceContext) -> RenderableType:
    state = result_state(ctx)
    suffix = None
    palette = ctx.palette
    if state.get("timedOut") and ctx.error is not None:
        # Killed on its own timeout: word it as the call's timed-out ending ("✗ Timed out:
        # cmd after 1.5 s"), so the command keeps the room a "Ran: … (killed after …)
        # ✗ CommandTimeout" tail would take, and "Ran" is not said of a command that did not.
        timed_out = replace(ctx, state=replace(ctx.state, phase=Phase.TIMED_OUT))
        return kit.status_line(timed_out, "Running", "Ran", kit.text(path_of(ctx, "command")))
    if "exitCode" in state or "signal" in state:
        if state.get("exitCode") == 0:
            suffix = Text("→ exit 0", style=palette.success)
        elif state.get("signal"):
            suffix = Text(f"→ signal {state['signal']}", style=palette.error)
        else:
            suffix = Text(f"→ exit {state.get('exitCode')}", style=palette.error)
    return kit.status_line(ctx, "Running", "Ran", kit.text(path_of(ctx, "command")), suffix)
