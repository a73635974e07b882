"""Placeholders and Streaming surfaces: each has its Render's layout, so nothing jumps.

A Placeholder draws the Render's header with what the args already say, then a skeleton bar
where each row of the result will be; a Streaming surface fills the same frame as it goes.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from workbench.api import SurfaceContext, kit, pending_line
from workbench.tools.local_system.surfaces.components import language_of, path_of
from workbench.tools.local_system.surfaces.renders import (
    DIFF_LINES,
    FILE_LINES,
    LIST_ROWS,
    OUTPUT_LINES,
    command_header,
)

SHARES = (6, 8, 5, 7, 4, 6, 9, 5, 7, 8, 6, 4)


def _bars(ctx: SurfaceContext, rows: int) -> list[RenderableType]:
    width = ctx.inner_width
    return kit.skeleton_lines(
        [width * SHARES[i % len(SHARES)] // 10 for i in range(rows)], ctx.palette
    )


def _requested_lines(ctx: SurfaceContext, cap: int) -> int:
    """Rows the Render will fill: the asked-for line range when the args give one."""
    start, end = ctx.args.get("startLine"), ctx.args.get("endLine")
    if isinstance(start, int) and isinstance(end, int) and end >= start:
        return min(cap, end - start + 1)
    return cap


def list_files_placeholder(ctx: SurfaceContext) -> RenderableType:
    return Group(
        pending_line(ctx, "listing", path_of(ctx, default=".")), *_bars(ctx, LIST_ROWS // 2)
    )


def glob_files_placeholder(ctx: SurfaceContext) -> RenderableType:
    return Group(
        pending_line(ctx, "finding files matching", path_of(ctx, "pattern")),
        *_bars(ctx, LIST_ROWS // 4),
    )


def grep_content_placeholder(ctx: SurfaceContext) -> RenderableType:
    subject = path_of(ctx, "pattern")
    where = path_of(ctx, default=".")
    return Group(pending_line(ctx, "searching for", f"{subject} in {where}"), *_bars(ctx, 6))


def read_file_placeholder(ctx: SurfaceContext) -> RenderableType:
    return Group(
        pending_line(ctx, "reading", path_of(ctx)), *_bars(ctx, _requested_lines(ctx, FILE_LINES))
    )


def write_file_placeholder(ctx: SurfaceContext) -> RenderableType:
    """The Render's frame: the file line, then the first lines of what is being written."""
    content = str(ctx.args.get("content", ""))
    lines = min(10, kit.line_count(content)) or 1
    return Group(pending_line(ctx, "writing", path_of(ctx)), *_bars(ctx, lines))


def edit_file_placeholder(ctx: SurfaceContext) -> RenderableType:
    """The diff's frame: one skeleton row per line the edit replaces and adds, plus its hunk."""
    old = str(ctx.args.get("oldString", ""))
    new = str(ctx.args.get("newString", ""))
    rows = min(DIFF_LINES, 3 + kit.line_count(old) + kit.line_count(new) + 4)
    return Group(pending_line(ctx, "editing", path_of(ctx)), *_bars(ctx, rows))


def run_command_placeholder(ctx: SurfaceContext) -> RenderableType:
    waiting = Text(
        f"{kit.spinner(ctx.frame)} started, no output yet", style=f"italic {ctx.palette.muted}"
    )
    return Group(command_header(ctx), waiting)


def run_command_streaming(ctx: SurfaceContext) -> RenderableType:
    """Live stdout/stderr, the last lines only, with an explicit count of what is hidden."""
    palette = ctx.palette
    rows: list[RenderableType] = [command_header(ctx)]
    rows.extend(kit.output_tail(ctx.output, OUTPUT_LINES, palette))
    so_far = kit.plural(ctx.output.line_count, "line")
    rows.append(
        Text(f"{kit.spinner(ctx.frame)} running · {so_far} so far", style=f"italic {palette.muted}")
    )
    return Group(*rows)


def write_file_streaming(ctx: SurfaceContext) -> RenderableType:
    """The content as it is written: a progress bar and the last lines that reached the disk."""
    palette = ctx.palette
    path = path_of(ctx)
    content = str(ctx.args.get("content", ""))
    progress = ctx.state.progress
    fraction = progress.fraction if progress is not None else None
    written = (
        content[: int(len(content.encode("utf-8")) * fraction)] if fraction is not None else ""
    )
    top = kit.join((f"{kit.spinner(ctx.frame)} writing ", palette.muted), kit.text(path, "bold"))
    bar = kit.progress_bar(fraction, min(40, ctx.inner_width - 12), palette)
    if fraction is not None:
        bar.append(f" {fraction:.0%}", style=palette.muted)
    top.append("  ")
    top.append_text(bar)
    top.no_wrap = True
    top.overflow = "ellipsis"
    rows: list[RenderableType] = [top]
    if written:
        lines = written.split("\n")
        start = max(1, len(lines) - 9)
        rows.append(
            kit.code_block(
                "\n".join(lines[start - 1 :]),
                language_of(path, {}),
                palette,
                max_lines=10,
                start_line=start,
            )
        )
    return Group(*rows)
