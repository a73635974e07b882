"""The local-system Portal: the full view of a call, routed on the API."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from workbench.api import SurfaceContext, kit, result_state
from workbench.tools.local_system.surfaces import renders
from workbench.tools.local_system.surfaces.components import (
    empty_line,
    entry_table,
    error_view,
    language_of,
    path_of,
)

PORTAL_ROWS = 200
PORTAL_LINES = 400


def portal(ctx: SurfaceContext) -> RenderableType | None:
    notice = kit.portal_ending(ctx)
    if notice is not None and ctx.api_name != "runCommand":
        return Group(_title(ctx, ctx.api_name), notice)
    failed = error_view(ctx, ctx.api_name)
    state = result_state(ctx)
    route = {
        "listFiles": _list,
        "readFile": _read,
        "writeFile": _write,
        "editFile": _edit,
        "globFiles": _glob,
        "grepContent": _grep,
        "runCommand": _command,
    }.get(ctx.api_name)
    if route is None:
        return None
    view = route(ctx, state)
    if failed is not None and ctx.api_name != "runCommand":
        return Group(failed, view) if view is not None else failed
    return view


def _title(ctx: SurfaceContext, text: str) -> Text:
    line = kit.join(
        (f"{ctx.emoji} {text} ", "bold"),
        kit.text(
            path_of(ctx) or path_of(ctx, "pattern") or path_of(ctx, "command"), ctx.palette.primary
        ),
    )
    line.no_wrap = True
    line.overflow = "ellipsis"
    return line


def _list(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    entries = state.get("entries")
    if not isinstance(entries, list):
        return None
    if not entries:
        return Group(
            _title(ctx, "Directory"),
            empty_line(
                ctx, kit.text(path_of(ctx, default="."), "bold"), " is empty: no files or folders"
            ),
        )
    total = max(int(state.get("total", len(entries))), len(entries))
    rows: list[RenderableType] = [
        _title(ctx, "Directory"),
        Text(kit.plural(total, "entry"), style=ctx.palette.muted),
        entry_table(entries[:PORTAL_ROWS], ctx.palette, ctx.inner_width),
    ]
    note = kit.returned_note(
        min(len(entries), PORTAL_ROWS), len(entries), total, "entry", ctx.palette
    )
    if note.plain:
        rows.append(note)
    return Group(*rows)


def _read(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    if "content" not in state:
        return None
    path = path_of(ctx)
    total = int(state.get("totalLines", 0))
    if total == 0:
        return Group(
            _title(ctx, "File"),
            empty_line(ctx, kit.text(path, "bold"), " is empty: it has no lines"),
        )
    start, end = int(state["startLine"]), int(state["endLine"])
    rows: list[RenderableType] = [
        _title(ctx, "File"),
        Text(
            f"lines {start:,}-{end:,} of {total:,} · {kit.human_size(int(state.get('size', 0)))}",
            style=ctx.palette.muted,
        ),
        *renders.file_lines(ctx, state, language_of(path, state), PORTAL_LINES),
    ]
    return Group(*rows)


def _write(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType:
    path = path_of(ctx)
    content = str(ctx.args.get("content", ""))
    if not content:
        return Group(
            _title(ctx, "Written file"),
            empty_line(ctx, kit.text(path, "bold"), " is now empty: nothing was written to it"),
        )
    return Group(
        _title(ctx, "Written file"),
        kit.code_block(content, language_of(path, {}), ctx.palette, max_lines=PORTAL_LINES),
    )


def _edit(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    if "diff" not in state:
        return None
    unchanged = renders.no_change(ctx, state)
    if unchanged is not None:
        return Group(_title(ctx, "Edit"), unchanged)
    return Group(
        _title(ctx, "Edit"),
        renders.edit_summary(ctx, state),
        kit.diff_block(str(state["diff"]), ctx.palette, max_lines=PORTAL_LINES),
    )


def _glob(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    if not isinstance(state.get("matches"), list):
        return None
    return Group(_title(ctx, "Files matching"), renders.glob_view(ctx, state, PORTAL_ROWS))


def _grep(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    if "matches" not in state:
        return None
    return Group(_title(ctx, "Search"), renders.grep_view(ctx, state, PORTAL_ROWS))


def _command(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType:
    palette = ctx.palette
    rows: list[RenderableType] = [renders.command_header(ctx)]
    output = ctx.output
    if not output.is_empty():
        lines = output.tail(PORTAL_LINES)
        if output.line_count > len(lines):
            rows.append(kit.hidden_lines_note(len(lines), output.line_count, palette))
        rows.extend(
            kit.output_text(line.text, palette, palette.error if line.stream == "stderr" else "")
            for line in lines
        )
    elif state.get("output"):
        rows.extend(kit.output_text(line, palette) for line in str(state["output"]).split("\n"))
    elif ctx.state.timings.run_ms is not None or "exitCode" in state or "signal" in state:
        # Only a command that ran can have printed nothing: a skip or a block never started it.
        rows.append(Text("∅ the command printed nothing", style=f"italic {palette.muted}"))
    notice = kit.portal_ending(ctx, what="the command")
    if notice is not None:
        if len(rows) > 1:
            rows.append(Text(""))
        rows.append(notice)
    elif "exitCode" in state or "signal" in state:
        rows.append(Text(""))
        rows.append(renders.command_status(ctx, state))
        model_note = renders.model_cut_note(ctx)
        if model_note is not None:
            rows.append(model_note)
    return Group(*rows)
