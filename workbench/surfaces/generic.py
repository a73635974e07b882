"""Generic fallbacks, one per surface kind, used when a tool has no surface of its own.

They know nothing about any tool: they show args, content and state as text and JSON, with
every long thing capped.
"""

from __future__ import annotations

import json
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from workbench.core.call_state import Phase
from workbench.surfaces import kit
from workbench.surfaces.context import SurfaceContext
from workbench.surfaces.mcp_views import ui_section
from workbench.surfaces.server_requests import exchanges_section, messages_section

STREAM_TAIL_LINES = 20


def _short(value: Any, limit: int = 40) -> str:
    if isinstance(value, str):
        text = value.replace("\n", "⏎ ")
    else:
        text = json.dumps(value, ensure_ascii=False, default=str)
    return kit.truncate_line(text, limit)


def args_summary(args: dict[str, Any], limit: int = 3) -> Text:
    """``key: value, key2: value2`` for the first few args, as literal text."""
    parts = [f"{key}: {_short(value)}" for key, value in list(args.items())[:limit]]
    if len(args) > limit:
        parts.append(f"+{len(args) - limit} more")
    return kit.text(", ".join(parts))


def inspector(ctx: SurfaceContext) -> RenderableType:
    suffix = None
    if ctx.phase in (Phase.DONE,):
        suffix = Text("✓", style=ctx.palette.success)
    line = kit.status_line(
        ctx, f"Calling {ctx.api_name}", f"Called {ctx.api_name}", args_summary(ctx.args), suffix
    )
    return line


def placeholder(ctx: SurfaceContext) -> RenderableType:
    palette = ctx.palette
    width = ctx.inner_width
    rows: list[RenderableType] = [
        kit.join((f"{kit.spinner(ctx.frame)} Running {ctx.api_name}…", palette.muted))
    ]
    if ctx.args:
        rows.append(args_summary(ctx.args, limit=5))
    rows.append(kit.skeleton_bar(width * 7 // 10, palette))
    return Group(*rows)


def streaming(ctx: SurfaceContext) -> RenderableType | None:
    palette = ctx.palette
    rows: list[RenderableType] = []
    progress = ctx.state.progress
    if progress is not None:
        fraction = progress.fraction
        label = f" {fraction:.0%}" if fraction is not None else ""
        bar = kit.progress_bar(fraction, min(40, ctx.inner_width - 8), palette)
        bar.append(label)
        rows.append(bar)
        if progress.message:
            rows.append(kit.text(progress.message, palette.muted))
    rows.extend(kit.output_tail(ctx.output, STREAM_TAIL_LINES, palette))
    return Group(*rows) if rows else None


def content_blocks(blocks: list[Any], palette: Any, *, max_items: int = 12) -> list[RenderableType]:
    """Rich content (images, audio, links, resources) described usefully, not dumped as JSON."""
    rows: list[RenderableType] = []
    shown, hidden = kit.cap_items(blocks, max_items)
    for block in shown:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            rows.append(kit.capped_text(str(block.get("text", "")), palette, max_lines=8))
        elif kind in ("image", "audio"):
            icon = "▣" if kind == "image" else "♪"
            size = (
                f" · {block['width']}×{block['height']} px"
                if "width" in block and "height" in block
                else ""
            )
            rows.append(
                kit.join(
                    (f"{icon} {kind} ", f"bold {palette.accent}"),
                    kit.text(str(block.get("mimeType", "?"))),
                    (f"{size} · {kit.human_size(int(block.get('bytes', 0)))}", palette.muted),
                )
            )
        elif kind == "resource_link":
            title = block.get("title") or block.get("name") or ""
            line = kit.join(
                ("🔗 ", palette.accent),
                kit.text(str(title), "bold"),
                ("  ", ""),
                kit.text(str(block.get("uri", "")), palette.primary),
            )
            if block.get("mimeType"):
                line.append_text(kit.text(f"  {block['mimeType']}", palette.muted))
            rows.append(line)
            if block.get("description"):
                rows.append(kit.text(f"   {block['description']}", palette.muted))
        elif kind == "resource":
            rows.append(
                kit.join(
                    ("📄 resource ", f"bold {palette.accent}"),
                    kit.text(str(block.get("uri", "")), palette.primary),
                    (f"  {block.get('mimeType', '')}", palette.muted),
                )
            )
            if "text" in block:
                rows.append(
                    kit.code_block(
                        str(block["text"]), "text", palette, max_lines=10, line_numbers=False
                    )
                )
            else:
                rows.append(
                    kit.text(
                        f"   binary, {kit.human_size(int(block.get('bytes', 0)))}", palette.muted
                    )
                )
        else:
            rows.append(kit.text(f"[{kind} block]", palette.muted))
    if hidden:
        rows.append(kit.more_note(hidden, len(shown), len(blocks), "block", palette))
    return rows


def _same_json(text: object, value: Any) -> bool:
    if not isinstance(text, str):
        return False
    try:
        return bool(json.loads(text) == value)
    except ValueError:
        return False


def render(ctx: SurfaceContext) -> RenderableType | None:
    palette = ctx.palette
    if ctx.result is None:
        return None
    notice = kit.ending_notice(ctx)
    if notice is not None:
        if ctx.output.is_empty():
            return notice
        return Group(notice, *kit.output_tail(ctx.output, STREAM_TAIL_LINES // 2, palette))
    state = ctx.result_state
    if ctx.error is None and isinstance(state, dict) and isinstance(state.get("blocks"), list):
        structured = state.get("structuredContent")
        blocks = state["blocks"]
        if structured is not None:
            # MCP servers send structured content twice: as data and as its JSON in a text
            # block (for clients that only read text). Show it once.
            blocks = [
                block
                for block in blocks
                if not (
                    isinstance(block, dict)
                    and block.get("type") == "text"
                    and _same_json(block.get("text"), structured)
                )
            ]
        shown = content_blocks(blocks, palette)
        if structured is not None:
            shown.append(Text("structured content", style=f"bold {palette.muted}"))
            shown.append(kit.json_block(structured, palette, max_lines=20))
        return Group(*shown)
    if ctx.error is not None:
        details: list[RenderableType] = []
        if ctx.error.body is not None:
            details.append(kit.json_block(ctx.error.body, palette, max_lines=12))
        rows: list[RenderableType] = [
            kit.error_box(f"{ctx.error.type}", ctx.error.message, palette, details=details)
        ]
        if ctx.result_state is not None:
            rows.append(kit.json_block(ctx.result_state, palette, max_lines=12))
        return Group(*rows)
    rows = [kit.capped_text(ctx.content, palette, max_lines=20)]
    if ctx.result_state is not None:
        rows.append(Text("state", style=f"bold {palette.muted}"))
        rows.append(kit.json_block(ctx.result_state, palette, max_lines=20))
    return Group(*rows)


def intervention(ctx: SurfaceContext) -> RenderableType:
    palette = ctx.palette
    approval = ctx.state.approval
    rows: list[RenderableType] = []
    reason = approval.reason if approval is not None else ""
    rows.append(
        kit.join(
            ("Approval needed", f"bold {palette.warning}"),
            (f" — {reason}" if reason else "", palette.muted),
        )
    )
    rows.append(kit.join((f"{ctx.api_name} will run with:", palette.muted)))
    rows.append(kit.args_table(ctx.args, palette, ctx.inner_width, limit=12))
    return Group(*rows)


def portal(ctx: SurfaceContext) -> RenderableType:
    palette = ctx.palette
    rows: list[RenderableType] = [
        kit.join((f"{ctx.emoji} {ctx.title}", "bold"), (f" · {ctx.api_name}", palette.muted))
    ]
    rows.append(Text("arguments", style=f"bold {palette.muted}"))
    rows.append(kit.json_block(ctx.args, palette, max_lines=200))
    if ctx.result is not None:
        rows.append(Text("content", style=f"bold {palette.muted}"))
        rows.append(kit.capped_text(ctx.content, palette, max_lines=400))
        if ctx.result_state is not None:
            rows.append(Text("state", style=f"bold {palette.muted}"))
            rows.append(kit.json_block(ctx.result_state, palette, max_lines=400))
        if ctx.error is not None:
            rows.append(kit.error_box(ctx.error.type, ctx.error.message, palette))
    elif not ctx.output.is_empty():
        rows.append(Text("output", style=f"bold {palette.muted}"))
        rows.append(kit.capped_text(ctx.output.text(), palette, max_lines=400, ansi=True))
    rows.extend(mcp_portal_sections(ctx))
    return Group(*rows)


def mcp_portal_sections(ctx: SurfaceContext) -> list[RenderableType]:
    """What an MCP server adds to any Portal: its app UI, what it asked, what it logged."""
    rows: list[RenderableType] = []
    api = ctx.api
    if api is not None and api.ui is not None:
        rows.extend(ui_section(api, ctx.result, ctx.palette))
    rows.extend(exchanges_section(ctx.state.exchanges, ctx.palette))
    rows.extend(messages_section(ctx.state.server_messages, ctx.palette, limit=20))
    return rows
