"""Renders: lists with a header and "+N more", highlighted files, diffs, command and exit code."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from workbench.surfaces import kit
from workbench.surfaces.context import SurfaceContext
from workbench.tools.local_system.surfaces.components import (
    entry_row,
    error_view,
    language_of,
    path_of,
    state_of,
)

LIST_ROWS = 12
FILE_LINES = 24
GREP_ROWS = 14
OUTPUT_LINES = 15


def header(ctx: SurfaceContext, *parts: Text | str | tuple[object, str]) -> Text:
    return kit.join(*parts)


def list_files(ctx: SurfaceContext) -> RenderableType | None:
    failed = error_view(ctx, "Listing")
    if failed is not None:
        return failed
    state = state_of(ctx)
    if "entries" not in state:
        return None
    palette = ctx.palette
    path = path_of(ctx, default=".")
    entries: list[dict[str, Any]] = state["entries"]
    if not entries:
        return Text.assemble(
            ("∅ ", palette.muted),
            kit.text(path),
            (" is empty — no files or directories", palette.muted),
        )
    total = int(state.get("total", len(entries)))
    shown = entries[:LIST_ROWS]
    rows: list[RenderableType] = [
        header(ctx, (f"{total:,} entries in ", palette.muted), kit.text(path, "bold"))
    ]
    rows.append(kit.rows_table((entry_row(entry, palette) for entry in shown), palette))
    if total > len(shown):
        rows.append(kit.more_note(total - len(shown), len(shown), total, "entries", palette))
    return Group(*rows)


def read_file(ctx: SurfaceContext) -> RenderableType | None:
    failed = error_view(ctx, "Reading")
    if failed is not None:
        return failed
    state = state_of(ctx)
    if "content" not in state:
        return None
    palette = ctx.palette
    path = path_of(ctx)
    total = int(state.get("totalLines", 0))
    if total == 0:
        return Text.assemble(
            ("∅ ", palette.muted), kit.text(path), (" is empty (0 lines)", palette.muted)
        )
    start, end = int(state["startLine"]), int(state["endLine"])
    language = language_of(path, state)
    top = header(
        ctx,
        kit.text(path, "bold"),
        (
            f" · lines {start}-{end} of {total:,} "
            f"· {language} · {kit.human_size(int(state.get('size', 0)))}",
            palette.muted,
        ),
    )
    rows: list[RenderableType] = [
        top,
        kit.code_block(state["content"], language, palette, max_lines=FILE_LINES, start_line=start),
    ]
    if state.get("truncated"):
        rows.append(
            Text(
                f"the tool returned lines {start}-{end}; the file has {total:,}",
                style=f"italic {palette.muted}",
            )
        )
    return Group(*rows)


def write_file(ctx: SurfaceContext) -> RenderableType | None:
    failed = error_view(ctx, "Writing")
    if failed is not None:
        return failed
    state = state_of(ctx)
    if "bytesWritten" not in state:
        return None
    palette = ctx.palette
    path = path_of(ctx)
    content = str(ctx.args.get("content", ""))
    verb = "created" if state.get("created") else "overwritten"
    top = header(
        ctx,
        ("✓ ", palette.success),
        kit.text(path, "bold"),
        (
            f" {verb} · {kit.human_size(int(state['bytesWritten']))} "
            f"· {int(state.get('lines', 0)):,} "
            "lines",
            palette.muted,
        ),
    )
    if not content:
        return Group(top, Text("the file is now empty", style=f"italic {palette.muted}"))
    return Group(top, kit.code_block(content, language_of(path, {}), palette, max_lines=10))


def edit_file(ctx: SurfaceContext) -> RenderableType | None:
    failed = error_view(ctx, "Editing")
    if failed is not None:
        return failed
    state = state_of(ctx)
    if "diff" not in state:
        return None
    palette = ctx.palette
    top = header(
        ctx,
        kit.text(path_of(ctx), "bold"),
        (f" · {state.get('replacements', 1)} replacement(s) · ", palette.muted),
        (f"+{state.get('linesAdded', 0)}", palette.success),
        " ",
        (f"-{state.get('linesRemoved', 0)}", palette.error),
    )
    return Group(top, kit.diff_block(str(state["diff"]), palette, max_lines=24))


def glob_files(ctx: SurfaceContext) -> RenderableType | None:
    failed = error_view(ctx, "Finding files")
    if failed is not None:
        return failed
    state = state_of(ctx)
    if "matches" not in state:
        return None
    palette = ctx.palette
    pattern = path_of(ctx, "pattern")
    matches: list[str] = state["matches"]
    if not matches:
        return Text.assemble(
            ("∅ no files match ", palette.muted),
            kit.text(pattern, "bold"),
            (f" under {path_of(ctx, default='.')}", palette.muted),
        )
    total = int(state.get("total", len(matches)))
    rows: list[RenderableType] = [
        header(ctx, (f"{total:,} files match ", palette.muted), kit.text(pattern, "bold"))
    ]
    rows.extend(kit.text(f"· {match}") for match in matches[:LIST_ROWS])
    if total > min(len(matches), LIST_ROWS):
        shown = min(len(matches), LIST_ROWS)
        rows.append(kit.more_note(total - shown, shown, total, "files", palette))
    return Group(*rows)


def grep_content(ctx: SurfaceContext) -> RenderableType | None:
    failed = error_view(ctx, "Searching")
    if failed is not None:
        return failed
    state = state_of(ctx)
    if "matches" not in state:
        return None
    return grep_view(ctx, state, GREP_ROWS)


def grep_view(ctx: SurfaceContext, state: dict[str, Any], limit: int) -> RenderableType:
    palette = ctx.palette
    pattern = path_of(ctx, "pattern")
    matches: list[dict[str, Any]] = state["matches"]
    if not matches:
        return Text.assemble(("∅ no lines match ", palette.muted), kit.text(pattern, "bold"))
    total = int(state.get("total", len(matches)))
    rows: list[RenderableType] = [
        header(
            ctx,
            (f"{total:,} matches in {state.get('files', '?')} files for ", palette.muted),
            kit.text(pattern, "bold"),
        )
    ]
    by_file: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for match in matches[:limit]:
        by_file[str(match.get("path", ""))].append(match)
    for path, file_matches in by_file.items():
        rows.append(kit.text(path, f"bold {palette.primary}"))
        for match in file_matches:
            line = Text(f"{int(match.get('line', 0)):>5}  ", style=palette.muted)
            line.append_text(kit.text(str(match.get("text", "")).strip()))
            line.no_wrap = True
            line.overflow = "ellipsis"
            rows.append(line)
    shown = min(len(matches), limit)
    if total > shown:
        rows.append(kit.more_note(total - shown, shown, total, "matches", palette))
    return Group(*rows)


def command_header(ctx: SurfaceContext) -> Text:
    palette = ctx.palette
    line = Text("$ ", style=f"bold {palette.accent}")
    line.append_text(kit.text(path_of(ctx, "command"), "bold"))
    cwd = path_of(ctx, "cwd")
    if cwd:
        line.append_text(kit.text(f"  (in {cwd})", palette.muted))
    return line


def run_command(ctx: SurfaceContext) -> RenderableType | None:
    state = state_of(ctx)
    palette = ctx.palette
    if not state:
        return error_view(ctx, "Running the command")
    rows: list[RenderableType] = [command_header(ctx)]
    output = str(state.get("output", ""))
    lines = output.split("\n") if output else []
    total = int(state.get("stdoutLines", 0)) + int(state.get("stderrLines", 0))
    if not lines:
        rows.append(Text("(no output)", style=f"italic {palette.muted}"))
    else:
        shown = lines[-OUTPUT_LINES:]
        if total > len(shown):
            rows.append(
                Text(
                    f"… {total - len(shown):,} earlier lines hidden · showing the last "
                    f"{len(shown)} of {total:,}",
                    style=f"italic {palette.muted}",
                )
            )
        rows.extend(kit.ansi_text(line) for line in shown)
    seconds = int(state.get("durationMs", 0)) / 1000
    if state.get("timedOut"):
        status = Text(f"✗ killed after {seconds:.1f} s: timeout", style=f"bold {palette.error}")
    elif state.get("exitCode") == 0:
        status = Text(f"✓ exit 0 · {seconds:.1f} s", style=f"bold {palette.success}")
    elif state.get("signal"):
        status = Text(
            f"✗ killed by signal {state['signal']} · {seconds:.1f} s", style=f"bold {palette.error}"
        )
    else:
        status = Text(
            f"✗ exit {state.get('exitCode')} · {seconds:.1f} s", style=f"bold {palette.error}"
        )
    rows.append(status)
    if ctx.error is not None and ctx.error.type == "CommandTimeout":
        rows.append(
            Text(
                "hint: raise the timeout argument, or run a narrower command",
                style=f"italic {palette.muted}",
            )
        )
    return Group(*rows)
