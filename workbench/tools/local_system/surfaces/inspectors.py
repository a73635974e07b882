"""One-line Inspectors for every local-system API: "-ing" while running, past tense after."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text

from workbench.core.call_state import Phase
from workbench.surfaces import kit
from workbench.surfaces.context import SurfaceContext
from workbench.tools.local_system.surfaces.components import path_of, state_of


def _count(ctx: SurfaceContext, total: object, noun: str, empty: str) -> Text | None:
    if ctx.error is not None or not isinstance(total, int):
        return None
    if total == 0:
        return Text(f"({empty})", style=ctx.palette.muted)
    return Text(f"({total:,} {noun})", style=ctx.palette.muted)


def list_files(ctx: SurfaceContext) -> RenderableType:
    state = state_of(ctx)
    return kit.status_line(
        ctx,
        "Listing",
        "Listed",
        kit.text(path_of(ctx, default=".")),
        _count(ctx, state.get("total"), "entries", "empty"),
        verb_failed="Could not list",
    )


def read_file(ctx: SurfaceContext) -> RenderableType:
    state = state_of(ctx)
    suffix = None
    if ctx.error is None and "totalLines" in state:
        suffix = Text(
            f"(lines {state['startLine']}-{state['endLine']} of {state['totalLines']:,})",
            style=ctx.palette.muted,
        )
    return kit.status_line(
        ctx, "Reading", "Read", kit.text(path_of(ctx)), suffix, verb_failed="Could not read"
    )


def write_file(ctx: SurfaceContext) -> RenderableType:
    state = state_of(ctx)
    suffix = None
    if ctx.error is None and "bytesWritten" in state:
        suffix = Text(
            f"({'new, ' if state.get('created') else ''}"
            f"{kit.human_size(int(state['bytesWritten']))})",
            style=ctx.palette.muted,
        )
    verb_active = (
        "Awaiting approval to write" if ctx.phase is Phase.AWAITING_APPROVAL else "Writing"
    )
    return kit.status_line(
        ctx, verb_active, "Wrote", kit.text(path_of(ctx)), suffix, verb_failed="Could not write"
    )


def edit_file(ctx: SurfaceContext) -> RenderableType:
    state = state_of(ctx)
    suffix = None
    if ctx.error is None and "linesAdded" in state:
        suffix = Text.assemble(
            (f"+{state['linesAdded']}", ctx.palette.success),
            " ",
            (f"-{state['linesRemoved']}", ctx.palette.error),
        )
    verb_active = "Awaiting approval to edit" if ctx.phase is Phase.AWAITING_APPROVAL else "Editing"
    return kit.status_line(
        ctx, verb_active, "Edited", kit.text(path_of(ctx)), suffix, verb_failed="Could not edit"
    )


def glob_files(ctx: SurfaceContext) -> RenderableType:
    state = state_of(ctx)
    return kit.status_line(
        ctx,
        "Finding",
        "Found",
        kit.text(path_of(ctx, "pattern")),
        _count(ctx, state.get("total"), "files", "no matches"),
        verb_failed="Could not search",
    )


def grep_content(ctx: SurfaceContext) -> RenderableType:
    state = state_of(ctx)
    subject = kit.text(path_of(ctx, "pattern"))
    where = path_of(ctx, default="")
    if where and where != ".":
        subject.append_text(kit.text(f" in {where}"))
    suffix = None
    if ctx.error is None and isinstance(state.get("total"), int):
        total = state["total"]
        suffix = Text(
            "(no matches)" if total == 0 else f"({total:,} in {state.get('files', 0)} files)",
            style=ctx.palette.muted,
        )
    return kit.status_line(
        ctx, "Searching", "Searched", subject, suffix, verb_failed="Could not search"
    )


def run_command(ctx: SurfaceContext) -> RenderableType:
    state = state_of(ctx)
    suffix = None
    palette = ctx.palette
    if "exitCode" in state or "signal" in state:
        if state.get("timedOut"):
            suffix = Text("(killed: timeout)", style=palette.error)
        elif state.get("exitCode") == 0:
            suffix = Text("→ exit 0", style=palette.success)
        elif state.get("signal"):
            suffix = Text(f"→ signal {state['signal']}", style=palette.error)
        else:
            suffix = Text(f"→ exit {state.get('exitCode')}", style=palette.error)
    verb_active = "Awaiting approval to run" if ctx.phase is Phase.AWAITING_APPROVAL else "Running"
    line = kit.status_line(ctx, verb_active, "Ran", kit.text(path_of(ctx, "command")), suffix)
    return line
