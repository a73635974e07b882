"""Placeholders and Streaming surfaces: they share the Render's layout so nothing jumps."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from workbench.surfaces import kit
from workbench.surfaces.context import SurfaceContext
from workbench.tools.local_system.surfaces.components import language_of, path_of
from workbench.tools.local_system.surfaces.renders import OUTPUT_LINES, command_header

SKELETON_ROWS = 4


def _skeleton(ctx: SurfaceContext, first: Text, rows: int = SKELETON_ROWS) -> RenderableType:
    width = ctx.inner_width
    bars = [
        kit.skeleton_bar(width * share // 10, ctx.palette) for share in (6, 8, 5, 7, 4, 6)[:rows]
    ]
    return Group(first, *bars)


def _pending(ctx: SurfaceContext, verb: str, subject: str) -> Text:
    return kit.join(
        (f"{kit.spinner(ctx.frame)} {verb} ", ctx.palette.muted), kit.text(subject, "bold")
    )


def list_files_placeholder(ctx: SurfaceContext) -> RenderableType:
    return _skeleton(ctx, _pending(ctx, "listing", path_of(ctx, default=".")))


def glob_files_placeholder(ctx: SurfaceContext) -> RenderableType:
    return _skeleton(ctx, _pending(ctx, "finding files matching", path_of(ctx, "pattern")))


def grep_content_placeholder(ctx: SurfaceContext) -> RenderableType:
    subject = path_of(ctx, "pattern")
    where = path_of(ctx, default=".")
    return _skeleton(ctx, _pending(ctx, "searching for", f"{subject} in {where}"))


def read_file_placeholder(ctx: SurfaceContext) -> RenderableType:
    return _skeleton(ctx, _pending(ctx, "reading", path_of(ctx)), rows=3)


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
    rows.append(
        Text(
            f"{kit.spinner(ctx.frame)} running · {ctx.output.line_count:,} lines so far",
            style=f"italic {palette.muted}",
        )
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
    rows: list[RenderableType] = [top, bar]
    if written:
        lines = written.split("\n")
        start = max(1, len(lines) - 7)
        rows.append(
            kit.code_block(
                "\n".join(lines[start - 1 :]),
                language_of(path, {}),
                palette,
                max_lines=8,
                start_line=start,
            )
        )
    return Group(*rows)
