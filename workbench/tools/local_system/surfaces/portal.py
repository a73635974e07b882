"""The local-system Portal: the full view of a call, routed on the API."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from workbench.surfaces import kit
from workbench.surfaces.context import SurfaceContext
from workbench.tools.local_system.surfaces import renders
from workbench.tools.local_system.surfaces.components import (
    entry_row,
    error_view,
    language_of,
    path_of,
    state_of,
)

PORTAL_ROWS = 500
PORTAL_LINES = 500


def portal(ctx: SurfaceContext) -> RenderableType | None:
    failed = error_view(ctx, ctx.api_name)
    state = state_of(ctx)
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
    return kit.join(
        (f"{ctx.emoji} {text} ", "bold"),
        kit.text(
            path_of(ctx) or path_of(ctx, "pattern") or path_of(ctx, "command"), ctx.palette.primary
        ),
    )


def _list(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    entries = state.get("entries")
    if not isinstance(entries, list):
        return None
    total = int(state.get("total", len(entries)))
    rows: list[RenderableType] = [
        _title(ctx, "Directory"),
        Text(f"{total:,} entries (the tool returned {len(entries):,})", style=ctx.palette.muted),
    ]
    rows.append(
        kit.rows_table(
            (entry_row(entry, ctx.palette) for entry in entries[:PORTAL_ROWS]), ctx.palette
        )
    )
    if len(entries) > PORTAL_ROWS or total > len(entries):
        rows.append(kit.showing(min(len(entries), PORTAL_ROWS), total, "entries", ctx.palette))
    return Group(*rows)


def _read(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    if "content" not in state:
        return None
    path = path_of(ctx)
    return Group(
        _title(ctx, "File"),
        Text(
            f"lines {state['startLine']}-{state['endLine']} of {state['totalLines']:,} "
            f"· {kit.human_size(int(state.get('size', 0)))}",
            style=ctx.palette.muted,
        ),
        kit.code_block(
            str(state["content"]),
            language_of(path, state),
            ctx.palette,
            max_lines=PORTAL_LINES,
            start_line=int(state["startLine"]),
        ),
    )


def _write(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType:
    path = path_of(ctx)
    content = str(ctx.args.get("content", ""))
    return Group(
        _title(ctx, "Written file"),
        kit.code_block(content, language_of(path, {}), ctx.palette, max_lines=PORTAL_LINES),
    )


def _edit(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    if "diff" not in state:
        return None
    return Group(
        _title(ctx, "Edit"), kit.diff_block(str(state["diff"]), ctx.palette, max_lines=PORTAL_LINES)
    )


def _glob(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    matches = state.get("matches")
    if not isinstance(matches, list):
        return None
    total = int(state.get("total", len(matches)))
    rows: list[RenderableType] = [
        _title(ctx, "Files matching"),
        Text(f"{total:,} files", style=ctx.palette.muted),
    ]
    rows.extend(kit.text(match) for match in matches[:PORTAL_ROWS])
    if total > min(len(matches), PORTAL_ROWS):
        rows.append(kit.showing(min(len(matches), PORTAL_ROWS), total, "files", ctx.palette))
    return Group(*rows)


def _grep(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    if "matches" not in state:
        return None
    return Group(_title(ctx, "Search"), renders.grep_view(ctx, state, PORTAL_ROWS))


def _command(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType:
    rows: list[RenderableType] = [renders.command_header(ctx)]
    output = ctx.output
    if not output.is_empty():
        lines = output.tail(PORTAL_LINES)
        if output.line_count > len(lines):
            rows.append(
                kit.showing(len(lines), output.line_count, "lines (the last ones)", ctx.palette)
            )
        rows.extend(
            kit.ansi_text(line.text, ctx.palette.error if line.stream == "stderr" else "")
            for line in lines
        )
    elif state.get("output"):
        rows.extend(kit.ansi_text(line) for line in str(state["output"]).split("\n"))
    if state:
        summary = renders.run_command(ctx)
        if summary is not None:
            rows.append(Text(""))
            rows.append(Text("result", style=f"bold {ctx.palette.muted}"))
            rows.append(summary)
    return Group(*rows)
