"""Interventions: say what will happen and its scope before anything runs."""

from __future__ import annotations

import difflib

from rich.console import Group, RenderableType
from rich.text import Text

from workbench.api import SurfaceContext, editable, extract_paths, kit
from workbench.tools.local_system.surfaces.components import language_of, path_of
from workbench.tools.local_system.surfaces.renders import command_header


def _why(ctx: SurfaceContext) -> Text:
    approval = ctx.state.approval
    reason = (
        approval.reason
        if approval is not None and approval.reason
        else "this API asks before it acts"
    )
    policy = approval.policy if approval is not None else "required"
    line = Text("Approval needed", style=f"bold {ctx.palette.warning}")
    line.append_text(kit.text(f" · {reason}", ctx.palette.muted))
    if policy == "always":
        line.append(" · cannot be auto-approved", style=ctx.palette.error)
    return line


@editable("command")
def run_command(ctx: SurfaceContext) -> RenderableType:
    palette = ctx.palette
    rows: list[RenderableType] = [_why(ctx)]
    description = ctx.args.get("description")
    if isinstance(description, str) and description:
        rows.append(kit.text(description, "italic"))
    rows.append(command_header(ctx))
    scope = [("runs in", path_of(ctx, "cwd") or "the workspace")]
    timeout = ctx.args.get("timeout")
    scope.append(
        (
            "killed after",
            f"{int(timeout) / 1000:g} s"
            if isinstance(timeout, (int, float))
            else "120 s (default)",
        )
    )
    rows.append(kit.key_values(scope, palette))
    return Group(*rows)


@editable("content")
def write_file(ctx: SurfaceContext) -> RenderableType:
    palette = ctx.palette
    path = path_of(ctx)
    content = str(ctx.args.get("content", ""))
    lines = kit.line_count(content)
    size = kit.human_size(len(content.encode("utf-8")))
    rows: list[RenderableType] = [_why(ctx)]
    rows.append(
        kit.join(
            ("write ", palette.muted),
            kit.text(path, "bold"),
            (
                f" · {kit.plural(lines, 'line')} · {size} · replaces the whole file if it exists",
                palette.muted,
            ),
        )
    )
    rows.append(
        kit.code_block(content, language_of(path, {}), palette, max_lines=14)
        if content
        else Text(
            "(empty content: the file will be truncated to 0 bytes)",
            style=f"italic {palette.warning}",
        )
    )
    return Group(*rows)


@editable("newString")
def edit_file(ctx: SurfaceContext) -> RenderableType:
    palette = ctx.palette
    path = path_of(ctx)
    old = str(ctx.args.get("oldString", ""))
    new = str(ctx.args.get("newString", ""))
    rows: list[RenderableType] = [_why(ctx)]
    scope = "every occurrence" if ctx.args.get("replaceAll") else "one exact occurrence"
    rows.append(
        kit.join(
            ("edit ", palette.muted),
            kit.text(path, "bold"),
            (f" · replaces {scope}", palette.muted),
        )
    )
    diff = "\n".join(
        difflib.unified_diff(
            old.splitlines(),
            new.splitlines(),
            fromfile="oldString",
            tofile="newString",
            lineterm="",
            n=3,
        )
    )
    rows.append(kit.diff_block(diff, palette, max_lines=20))
    return Group(*rows)


def path_scope(ctx: SurfaceContext) -> RenderableType:
    """For the read APIs: which paths lie outside the workspace."""
    palette = ctx.palette
    schema = ctx.api.parameters if ctx.api is not None else {}
    paths = list(extract_paths(ctx.args, schema))
    rows: list[RenderableType] = [_why(ctx)]
    rows.append(Text(f"{ctx.api_name} will read outside the workspace:", style=palette.muted))
    rows.extend(kit.text(f"  {path}", f"bold {palette.warning}") for path in paths[:6])
    if len(paths) > 6:
        rows.append(kit.showing(6, len(paths), "path", palette))
    others = {key: value for key, value in ctx.args.items() if value not in paths}
    if others:
        rows.append(kit.args_table(others, palette, ctx.inner_width))
    return Group(*rows)
