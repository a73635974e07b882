"""Commands: Bash, shell, exec_command, run_shell_command, and reading a background shell.

The Inspector names the command and its exit code; the Render shows what it printed (stdout
then stderr when the transcript kept them apart, else the content the model read), capped at
:data:`OUTPUT_LINES` with "showing N of M".
"""

from __future__ import annotations

from workbench.agents.surfaces.common import (
    after_ending,
    arg_text,
    bars,
    exit_code_of,
    header,
    model_text,
    muted,
    pending,
    state_of,
    with_silence,
)
from workbench.api import Group, RenderableType, SurfaceContext, Text, kit

OUTPUT_LINES = 8
COMMAND_ARGS = ("command", "cmd")


def command_of(ctx: SurfaceContext) -> str:
    return arg_text(ctx, *COMMAND_ARGS)


def _exit_suffix(ctx: SurfaceContext) -> Text | None:
    if ctx.result is None:
        return None
    code = exit_code_of(ctx)
    if code is None:
        return None
    palette = ctx.palette
    return Text(f"→ exit {code}", style=palette.success if code == 0 else palette.error)


def inspector(ctx: SurfaceContext) -> RenderableType:
    suffix = _exit_suffix(ctx)
    if ctx.args.get("run_in_background") or ctx.args.get("is_background"):
        suffix = suffix or muted(ctx, "(in the background)")
    return kit.status_line(ctx, "Running", "Ran", kit.text(command_of(ctx)), suffix)


def printed_text(ctx: SurfaceContext) -> str:
    """What the command printed: stdout and stderr from the state, else the content."""
    state = state_of(ctx)
    stdout, stderr = state.get("stdout"), state.get("stderr")
    if isinstance(stdout, str) or isinstance(stderr, str):
        parts = [part for part in (stdout, stderr) if isinstance(part, str) and part.strip()]
        return "\n".join(parts)
    for key in ("aggregated_output", "formatted_output", "output"):
        value = state.get(key)
        if isinstance(value, str):
            return value
    return model_text(ctx)


def _command_row(ctx: SurfaceContext) -> Text:
    row = header(("$ ", ctx.palette.muted), kit.text(command_of(ctx), "bold"))
    description = arg_text(ctx, "description")
    if description:
        row.append(f"  # {description}", style=ctx.palette.muted)
    return row


def render(ctx: SurfaceContext) -> RenderableType | None:
    notice = kit.ending_notice(ctx, what="the command")
    if notice is not None:
        return notice
    if ctx.result is None:
        return None
    printed = printed_text(ctx)
    rows: list[RenderableType] = [_command_row(ctx)]
    if ctx.error is not None and not printed.strip():
        printed = ctx.error.message
    if not printed.strip():
        code = exit_code_of(ctx)
        rows.append(
            muted(ctx, "∅ printed nothing" + (f" · exit {code}" if code is not None else ""))
        )
        return Group(*rows)
    rows.append(
        kit.capped_text(
            printed, ctx.palette, max_lines=OUTPUT_LINES, ansi=True, width=ctx.inner_width
        )
    )
    if ctx.error is not None:
        rows.append(Text(f"✗ {kit.error_label(ctx.error)}", style=ctx.palette.error))
    return Group(*rows)


def placeholder(ctx: SurfaceContext) -> RenderableType:
    return Group(pending(ctx, "running", command_of(ctx)), *bars(ctx, OUTPUT_LINES // 2))


def streaming(ctx: SurfaceContext) -> RenderableType:
    rows: list[RenderableType] = [_command_row(ctx)]
    rows.extend(kit.output_tail(ctx.output, OUTPUT_LINES, ctx.palette))
    return Group(*rows)


# --- a background shell: Claude Code's BashOutput and KillShell (TaskOutput, TaskStop) ------


def shell_id(ctx: SurfaceContext) -> str:
    return arg_text(ctx, "bash_id", "shell_id", "task_id")


def output_inspector(ctx: SurfaceContext) -> RenderableType:
    status = state_of(ctx).get("status")
    suffix = muted(ctx, f"({status})") if isinstance(status, str) and ctx.error is None else None
    return kit.status_line(
        ctx,
        "Reading output of",
        "Read output of",
        kit.text(f"shell {shell_id(ctx)}"),
        suffix,
        verb_failed="Could not read output of",
    )


@after_ending("the read", "Reading the shell's output")
def output_render(ctx: SurfaceContext) -> RenderableType | None:
    printed = printed_text(ctx)
    if not printed.strip():
        return muted(ctx, f"∅ shell {shell_id(ctx)} printed nothing new")
    return kit.capped_text(
        printed, ctx.palette, max_lines=OUTPUT_LINES, ansi=True, width=ctx.inner_width
    )


def kill_inspector(ctx: SurfaceContext) -> RenderableType:
    return kit.status_line(
        ctx, "Stopping", "Stopped", kit.text(f"shell {shell_id(ctx)}"), verb_failed="Could not stop"
    )


@after_ending("the stop", "Stopping the shell")
def kill_render(ctx: SurfaceContext) -> RenderableType | None:
    said = model_text(ctx).strip()
    if said:
        return kit.text(said)
    return with_silence(ctx, kit.text(f"Shell {shell_id(ctx)} was stopped."))
