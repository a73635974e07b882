"""Renders: lists with a header and "+N more", highlighted files, diffs, command and exit code."""

from __future__ import annotations

import re
from collections import defaultdict
from functools import partial
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from workbench.api import SurfaceContext, kit, result_render, result_state
from workbench.tools.local_system.surfaces.components import (
    empty_line,
    entry_table,
    error_view,
    language_of,
    path_of,
)

LIST_ROWS = 12
FILE_LINES = 20
GREP_ROWS = 14
OUTPUT_LINES = 15
DIFF_LINES = 24
_MODEL_CUT = re.compile(r"^\[showing the last ([\d,]+) of ([\d,]+) output lines\]", re.MULTILINE)
"""The runtime's note, at the top of what the model reads, when it passed on only a tail."""


def header(ctx: SurfaceContext, *parts: Text | str | tuple[object, str]) -> Text:
    line = kit.join(*parts)
    line.no_wrap = True
    line.overflow = "ellipsis"
    return line


@result_render("the listing", needs="entries", error_view=partial(error_view, what="Listing"))
def list_files(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    palette = ctx.palette
    path = path_of(ctx, default=".")
    entries: list[dict[str, Any]] = state["entries"]
    if not entries:
        return empty_line(ctx, kit.text(path, "bold"), " is empty: no files or folders")
    total = max(int(state.get("total", len(entries))), len(entries))
    shown = entries[:LIST_ROWS]
    rows: list[RenderableType] = [
        header(ctx, (f"{kit.plural(total, 'entry')} in ", palette.muted), kit.text(path, "bold")),
        entry_table(shown, palette, ctx.inner_width),
    ]
    note = kit.returned_note(len(shown), len(entries), total, "entry", palette)
    if note.plain:
        rows.append(note)
    return Group(*rows)


@result_render("the read", needs="content", error_view=partial(error_view, what="Reading"))
def read_file(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    palette = ctx.palette
    path = path_of(ctx)
    total = int(state.get("totalLines", 0))
    if total == 0:
        return empty_line(ctx, kit.text(path, "bold"), " is empty: it has no lines")
    start, end = int(state["startLine"]), int(state["endLine"])
    language = language_of(path, state)
    top = header(
        ctx,
        kit.text(path, "bold"),
        (
            f" · lines {start:,}-{end:,} of {total:,} · {language} · "
            f"{kit.human_size(int(state.get('size', 0)))}",
            palette.muted,
        ),
    )
    return Group(top, *file_lines(ctx, state, language, FILE_LINES, width=ctx.inner_width))


def file_lines(
    ctx: SurfaceContext,
    state: dict[str, Any],
    language: str,
    max_lines: int,
    *,
    width: int | None = None,
) -> list[RenderableType]:
    """The lines ``readFile`` returned, numbered as in the file, and when the tool returned only
    part of the file, which part."""
    start, end = int(state["startLine"]), int(state["endLine"])
    rows: list[RenderableType] = [
        kit.code_block(
            str(state["content"]),
            language,
            ctx.palette,
            max_lines=max_lines,
            start_line=start,
            total_lines=end - start + 1,
            width=width,
        )
    ]
    if state.get("truncated"):
        total = int(state.get("totalLines", 0))
        rows.append(
            Text(
                f"the tool returned lines {start:,}-{end:,}; the file has {total:,}",
                style=f"italic {ctx.palette.muted}",
            )
        )
    return rows


@result_render("the write", needs="bytesWritten", error_view=partial(error_view, what="Writing"))
def write_file(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    palette = ctx.palette
    path = path_of(ctx)
    content = str(ctx.args.get("content", ""))
    verb = "created" if state.get("created") else "overwritten"
    lines = int(state.get("lines", 0))
    top = header(
        ctx,
        ("✓ ", palette.success),
        kit.text(path, "bold"),
        (
            f" {verb} · {kit.human_size(int(state['bytesWritten']))} · {kit.plural(lines, 'line')}",
            palette.muted,
        ),
    )
    if not content:
        return Group(
            top,
            Text(
                "∅ the file is now empty: nothing was written to it",
                style=f"italic {palette.muted}",
            ),
        )
    return Group(
        top,
        kit.code_block(
            content,
            language_of(path, {}),
            palette,
            max_lines=10,
            total_lines=lines,
            width=ctx.inner_width,
        ),
    )


def edit_summary(ctx: SurfaceContext, state: dict[str, Any]) -> Text:
    palette = ctx.palette
    return header(
        ctx,
        kit.text(path_of(ctx), "bold"),
        (f" · {kit.plural(int(state.get('replacements', 1)), 'replacement')} · ", palette.muted),
        (f"+{state.get('linesAdded', 0)}", palette.success),
        " ",
        (f"-{state.get('linesRemoved', 0)}", palette.error),
    )


def no_change(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    """An edit that changed nothing says so, instead of an empty diff."""
    if str(state.get("diff", "")).strip():
        return None
    return empty_line(
        ctx,
        kit.text(path_of(ctx), "bold"),
        " is unchanged: the new text is the same as the old",
    )


@result_render("the edit", needs="diff", error_view=partial(error_view, what="Editing"))
def edit_file(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    unchanged = no_change(ctx, state)
    if unchanged is not None:
        return unchanged
    return Group(
        edit_summary(ctx, state),
        kit.diff_block(str(state["diff"]), ctx.palette, max_lines=DIFF_LINES, wrap=False),
    )


@result_render("the search", needs="matches", error_view=partial(error_view, what="Finding files"))
def glob_files(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    return glob_view(ctx, state, LIST_ROWS)


def glob_view(ctx: SurfaceContext, state: dict[str, Any], limit: int) -> RenderableType:
    palette = ctx.palette
    pattern = path_of(ctx, "pattern")
    matches: list[str] = state["matches"]
    if not matches:
        return empty_line(
            ctx,
            Text("no files match "),
            kit.text(pattern, "bold"),
            f" under {path_of(ctx, default='.')}",
        )
    total = max(int(state.get("total", len(matches))), len(matches))
    rows: list[RenderableType] = [
        header(
            ctx,
            (f"{kit.plural(total, 'file')} {'matches' if total == 1 else 'match'} ", palette.muted),
            kit.text(pattern, "bold"),
        )
    ]
    for match in matches[:limit]:
        line = kit.text(f"· {match}")
        line.no_wrap = True
        line.overflow = "ellipsis"
        rows.append(line)
    note = kit.returned_note(min(len(matches), limit), len(matches), total, "file", palette)
    if note.plain:
        rows.append(note)
    return Group(*rows)


@result_render("the search", needs="matches", error_view=partial(error_view, what="Searching"))
def grep_content(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    return grep_view(ctx, state, GREP_ROWS)


def grep_view(ctx: SurfaceContext, state: dict[str, Any], limit: int) -> RenderableType:
    palette = ctx.palette
    pattern = path_of(ctx, "pattern")
    matches: list[dict[str, Any]] = state["matches"]
    if not matches:
        return empty_line(ctx, Text("no lines match "), kit.text(pattern, "bold"))
    total = max(int(state.get("total", len(matches))), len(matches))
    files = int(state.get("files", 0))
    rows: list[RenderableType] = [
        header(
            ctx,
            (
                f"{kit.plural(total, 'match')} in {kit.plural(files, 'file')} for ",
                palette.muted,
            ),
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
    note = kit.returned_note(min(len(matches), limit), len(matches), total, "match", palette)
    if note.plain:
        rows.append(note)
    return Group(*rows)


def command_header(ctx: SurfaceContext) -> Text:
    palette = ctx.palette
    line = Text("$ ", style=f"bold {palette.accent}")
    line.append_text(kit.text(path_of(ctx, "command"), "bold"))
    cwd = path_of(ctx, "cwd")
    if cwd:
        line.append_text(kit.text(f"  (in {cwd})", palette.muted))
    return line


def command_status(ctx: SurfaceContext, state: dict[str, Any]) -> Text:
    """``✓ exit 0 · 0.9 s``: how the command ended, in the colour of the outcome."""
    palette = ctx.palette
    duration = kit.seconds(int(state.get("durationMs", 0)))
    if state.get("timedOut"):
        return Text(
            f"✗ killed after {duration}: it ran past its timeout", style=f"bold {palette.error}"
        )
    if state.get("exitCode") == 0:
        return Text(f"✓ exit 0 · {duration}", style=f"bold {palette.success}")
    if state.get("signal"):
        return Text(
            f"✗ killed by signal {state['signal']} · {duration}", style=f"bold {palette.error}"
        )
    return Text(f"✗ exit {state.get('exitCode')} · {duration}", style=f"bold {palette.error}")


def model_cut_note(ctx: SurfaceContext) -> Text | None:
    """``the model read only the last 60 of 20,000 lines``, when the tool passed on a tail.

    The card shows its own tail; what the model was given is a different cut, and a person
    judging the model's next step needs to know it never saw the rest.
    """
    match = _MODEL_CUT.search(ctx.content)
    if match is None:
        return None
    shown, total = (int(group.replace(",", "")) for group in match.groups())
    return Text(
        f"the model read only the last {shown:,} of {kit.plural(total, 'line')}",
        style=f"italic {ctx.palette.muted}",
    )


def run_command(ctx: SurfaceContext) -> RenderableType | None:
    palette = ctx.palette
    notice = kit.ending_notice(ctx, what="the command")
    if notice is not None:
        # Whatever the command printed before it was stopped is still worth seeing.
        rows: list[RenderableType] = [command_header(ctx)]
        rows.extend(kit.output_tail(ctx.output, OUTPUT_LINES, palette))
        rows.append(notice)
        return Group(*rows)
    state = result_state(ctx)
    if not state:
        return error_view(ctx, "Running the command")
    rows = [command_header(ctx)]
    output = str(state.get("output", ""))
    lines = output.split("\n") if output else []
    total = max(int(state.get("stdoutLines", 0)) + int(state.get("stderrLines", 0)), len(lines))
    if not lines:
        rows.append(Text("∅ the command printed nothing", style=f"italic {palette.muted}"))
    else:
        shown = lines[-OUTPUT_LINES:]
        if total > len(shown):
            rows.append(kit.hidden_lines_note(len(shown), total, palette))
        rows.extend(kit.output_text(line, palette) for line in shown)
    rows.append(command_status(ctx, state))
    model_note = model_cut_note(ctx)
    if model_note is not None:
        rows.append(model_note)
    if ctx.error is not None and ctx.error.type == "CommandTimeout":
        rows.append(
            Text(
                "hint: raise the timeout argument, or run a narrower command",
                style=f"italic {palette.muted}",
            )
        )
    return Group(*rows)
