"""A subagent (Claude Code's Task): its type and description, the subagent's own calls nested
under it, then the report it gave back.

The nested calls are the state's ``calls`` list, as an importer attaches them from the
subagent's side chain: each ``{name, input, isError, summary}`` (``tool``/``api``,
``args``, ``success``, ``content`` are read too).
"""

from __future__ import annotations

from typing import Any

from workbench.agents.surfaces.common import (
    after_ending,
    arg_text,
    bars,
    first,
    header,
    model_text,
    muted,
    pending,
    state_of,
)
from workbench.api import Group, RenderableType, SurfaceContext, Text, kit

CALL_ROWS = 3
REPORT_LINES = 2
"""The card's rows: a Task may come back with no calls and a one-line report (two rows) or
many calls and a long report (the header, these rows and two "showing N of M" notes, eight);
the Placeholder's four rows stay within the audit's four of both (rule 8). The Portal shows
every call and the whole report."""
_INPUT_KEYS = ("command", "cmd", "pattern", "query", "url", "file_path", "path", "description")
"""What a nested call row names: what the call did (a search by its pattern), before where."""


def calls_of(ctx: SurfaceContext) -> list[dict[str, Any]]:
    calls = state_of(ctx).get("calls")
    return [call for call in calls if isinstance(call, dict)] if isinstance(calls, list) else []


def call_count(ctx: SurfaceContext) -> int:
    counted = state_of(ctx).get("totalToolUseCount")
    if isinstance(counted, int) and not isinstance(counted, bool):
        return max(counted, len(calls_of(ctx)))
    return len(calls_of(ctx))


def subject(ctx: SurfaceContext) -> Text:
    kind = arg_text(ctx, "subagent_type")
    described = kit.text(arg_text(ctx, "description"))
    if kind:
        described = kit.join((f"{kind}: ", ctx.palette.muted), described)
    return described


def inspector(ctx: SurfaceContext) -> RenderableType:
    suffix = None
    if ctx.result is not None and ctx.error is None:
        suffix = muted(ctx, f"({kit.plural(call_count(ctx), 'call')})")
    return kit.status_line(
        ctx, "Delegating", "Delegated", subject(ctx), suffix, verb_failed="Could not delegate"
    )


def call_row(ctx: SurfaceContext, call: dict[str, Any], *, last: bool) -> Text:
    palette = ctx.palette
    failed = bool(call.get("isError") or call.get("is_error") or call.get("success") is False)
    name = str(first(call, "name", "api", "tool") or "call")
    args = first(call, "input", "args")
    detail = ""
    if isinstance(args, dict):
        value = first(args, *_INPUT_KEYS)
        detail = value if isinstance(value, str) else ""
    # The tree's lines are muted, not the row: the call's name and detail read at full contrast.
    row = Text()
    row.append("  └ " if last else "  ├ ", style=palette.muted)
    row.append("✗ " if failed else "✓ ", style=palette.error if failed else palette.success)
    row.append_text(kit.text(name, "bold"))
    if detail:
        row.append(" ")
        row.append_text(kit.text(detail))
    row.no_wrap = True
    row.overflow = "ellipsis"
    return row


def call_rows(ctx: SurfaceContext, cap: int) -> list[RenderableType]:
    """The subagent's calls as a tree, the first ``cap`` of them: "showing N of M" when more
    were made (never "showing 0": a session may record only their count), the last row a
    "└" only when no note follows; "∅ …" when it made none."""
    total = call_count(ctx)
    if not total:
        return [muted(ctx, "∅ the subagent made no tool calls")]
    shown, _ = kit.cap_items(calls_of(ctx), cap)
    rows: list[RenderableType] = [
        call_row(ctx, call, last=index == len(shown) - 1 and total <= len(shown))
        for index, call in enumerate(shown)
    ]
    if total > len(shown) and shown:
        rows.append(kit.showing(len(shown), total, "call", ctx.palette))
    return rows


@after_ending("the subagent", "The subagent")
def render(ctx: SurfaceContext) -> RenderableType | None:
    total = call_count(ctx)
    rows: list[RenderableType] = [
        header(subject(ctx), (f" · {kit.plural(total, 'call')}", ctx.palette.muted)),
        *call_rows(ctx, CALL_ROWS),
    ]
    report = model_text(ctx).strip()
    if report:
        rows.append(
            kit.capped_text(report, ctx.palette, max_lines=REPORT_LINES, width=ctx.inner_width)
        )
    else:
        rows.append(muted(ctx, "∅ the subagent reported nothing"))
    return Group(*rows)


def placeholder(ctx: SurfaceContext) -> RenderableType:
    return Group(
        pending(ctx, "delegating", arg_text(ctx, "description")),
        *bars(ctx, CALL_ROWS),
    )
