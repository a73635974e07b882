"""Searches and listings: Grep / search_file_content, Glob / glob, LS / list_directory.

The Inspector gives the match count; the Render lists the matches (a path per row, or the
matching lines), capped with "showing N of M"."""

from __future__ import annotations

import re

from workbench.agents.surfaces.common import (
    arg_text,
    bars,
    count_suffix,
    empty_line,
    ended,
    first,
    header,
    model_text,
    path_arg,
    pending,
    state_of,
)
from workbench.api import Group, RenderableType, SurfaceContext, kit

ROWS = 10
GLOB_UNIT = "file"
LIST_UNIT = "entry"
_NOTHING = re.compile(r"^(no (files|matches)|found 0\b|no files found)", re.I)
_FOUND_HEADER = re.compile(r"^(found \d|directory listing for|listed \d)", re.I)


def rows_of(ctx: SurfaceContext) -> list[str]:
    """Each file or matching line: the state's list when there is one, else the content's lines."""
    state = state_of(ctx)
    names = first(state, "filenames", "files", "entries")
    content = state.get("content")
    if isinstance(content, str) and content.strip():
        return [line for line in content.splitlines() if line.strip()]
    if isinstance(names, list):
        return [str(name) for name in names]
    if ctx.result is None or ctx.error is not None:
        return []
    lines = [line for line in model_text(ctx).splitlines() if line.strip()]
    if lines and _NOTHING.match(lines[0].strip()):
        return []
    if lines and _FOUND_HEADER.match(lines[0].strip()):
        lines = lines[1:]
    return [line for line in lines if line.strip() not in ("---",)]


def _total(ctx: SurfaceContext, unit: str) -> int | None:
    if ctx.result is None or ctx.error is not None:
        return None
    state = state_of(ctx)
    key = {"file": "numFiles", "match": "numMatches"}.get(unit, "")
    value = state.get(key) if key else None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return len(rows_of(ctx))


def found_total(ctx: SurfaceContext, unit: str) -> int:
    """How many ``unit`` the search found: the tool's own count when it says more than it
    listed (a Glob or Grep cut at its limit), else the rows it gave."""
    return max(_total(ctx, unit) or 0, len(rows_of(ctx)))


def _render_list(ctx: SurfaceContext, unit: str, title: str, nothing: str) -> RenderableType | None:
    failed = ended(ctx, "the search", "Searching")
    if failed is not None or ctx.result is None:
        return failed
    rows = rows_of(ctx)
    if not rows:
        return empty_line(ctx, nothing)
    total = found_total(ctx, unit)
    base = path_arg(ctx).rstrip("/") + "/"
    if base != "/":
        # Paths under the searched folder read shorter from it, as the agent's own view does.
        rows = [row[len(base) :] if row.startswith(base) else row for row in rows]
    shown, _ = kit.cap_items(rows, ROWS)
    body: list[RenderableType] = [
        header((f"{kit.plural(total, unit)} · ", ctx.palette.muted), kit.text(title, "bold"))
    ]
    listing = kit.text("\n".join(kit.shorten(row, ctx.inner_width) for row in shown))
    listing.no_wrap = True
    listing.overflow = "ellipsis"
    body.append(listing)
    if total > len(shown):
        body.append(kit.showing(len(shown), total, unit, ctx.palette))
    return Group(*body)


def grep_subject(ctx: SurfaceContext) -> str:
    pattern = arg_text(ctx, "pattern")
    where = path_arg(ctx)
    return f"{pattern} in {where}" if where else pattern


def grep_unit(ctx: SurfaceContext) -> str:
    """``file`` when the search lists the files that match, ``match`` when their lines."""
    mode = arg_text(ctx, "output_mode") or "files_with_matches"
    if "names_only" in ctx.args:
        mode = "files_with_matches" if ctx.args.get("names_only") else "content"
    if ctx.api_name in ("search_file_content", "grep_search") and "names_only" not in ctx.args:
        mode = "content"
    return "file" if mode == "files_with_matches" else "match"


def grep_inspector(ctx: SurfaceContext) -> RenderableType:
    unit = grep_unit(ctx)
    return kit.status_line(
        ctx,
        "Searching",
        "Searched",
        kit.text(grep_subject(ctx)),
        count_suffix(ctx, _total(ctx, unit), unit, "no matches"),
        verb_failed="Could not search",
    )


def grep_render(ctx: SurfaceContext) -> RenderableType | None:
    pattern = arg_text(ctx, "pattern")
    return _render_list(ctx, grep_unit(ctx), grep_subject(ctx), f"No matches for {pattern}")


def grep_placeholder(ctx: SurfaceContext) -> RenderableType:
    return placeholder_rows(ctx, "searching for", grep_subject(ctx))


def placeholder_rows(ctx: SurfaceContext, verb: str, subject: str) -> RenderableType:
    return Group(pending(ctx, verb, subject), *bars(ctx, ROWS // 2))


def glob_inspector(ctx: SurfaceContext) -> RenderableType:
    return kit.status_line(
        ctx,
        "Finding",
        "Found",
        kit.text(arg_text(ctx, "pattern")),
        count_suffix(ctx, _total(ctx, GLOB_UNIT), GLOB_UNIT, "no matches"),
        verb_failed="Could not search",
    )


def glob_render(ctx: SurfaceContext) -> RenderableType | None:
    pattern = arg_text(ctx, "pattern")
    return _render_list(ctx, GLOB_UNIT, pattern, f"No file matches {pattern}")


def glob_placeholder(ctx: SurfaceContext) -> RenderableType:
    return placeholder_rows(ctx, "finding", arg_text(ctx, "pattern"))


def list_inspector(ctx: SurfaceContext) -> RenderableType:
    return kit.status_line(
        ctx,
        "Listing",
        "Listed",
        kit.text(path_arg(ctx)),
        count_suffix(ctx, _total(ctx, LIST_UNIT), LIST_UNIT, "empty"),
        verb_failed="Could not list",
        cut="middle",
    )


def list_render(ctx: SurfaceContext) -> RenderableType | None:
    path = path_arg(ctx)
    return _render_list(ctx, LIST_UNIT, path, f"{path} is empty: no files or folders")


def list_placeholder(ctx: SurfaceContext) -> RenderableType:
    return placeholder_rows(ctx, "listing", path_arg(ctx))
