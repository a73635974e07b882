"""Generic fallbacks, one per surface kind, used when a tool has no surface of its own.

They know nothing about any tool: they show args, content and state as text and JSON, with
every long thing capped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from workbench.core.call_state import Phase
from workbench.core.result import ErrorType
from workbench.surfaces import kit
from workbench.surfaces.context import SurfaceContext
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


def failing_argument(args: dict[str, Any], message: str) -> str | None:
    """The argument an error message names (its value stands in the message), if one does:
    "ENOENT: no such file, open '/srv/a.csv'" names ``path``."""
    found = [
        (len(text), key)
        for key, value in args.items()
        if isinstance(value, str | int | float)
        and not isinstance(value, bool)
        and len(text := str(value)) >= 3
        and text in message
    ]
    return max(found)[1] if found else None


def inspector(ctx: SurfaceContext) -> RenderableType:
    suffix = None
    if ctx.phase in (Phase.DONE,):
        suffix = Text("✓", style=ctx.palette.success)
    subject = args_summary(ctx.args)
    cut = "end"
    failing = failing_argument(ctx.args, ctx.error.message) if ctx.error is not None else None
    if failing is not None:
        # The argument the failure names is what the person looks for: it alone, cut in the
        # middle so a path keeps its file name.
        subject = kit.text(f"{failing}: {_short(ctx.args[failing], 400)}")
        cut = "middle"
    return kit.status_line(
        ctx, f"Calling {ctx.api_name}", f"Called {ctx.api_name}", subject, suffix, cut=cut
    )


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


AUDIENCES = {"user": "for the user", "assistant": "for the assistant"}


def annotation_note(annotations: Any) -> str:
    """A block's annotations in a few words: "for the user · priority 0.9" ("" when none).

    Both audiences, or none, is the default (everyone reads it), so it is not said.
    """
    if not isinstance(annotations, dict):
        return ""
    parts: list[str] = []
    audience = annotations.get("audience")
    if isinstance(audience, list) and len(set(audience)) == 1:
        role = str(audience[0])
        parts.append(AUDIENCES.get(role, f"for {role}"))
    priority = annotations.get("priority")
    if isinstance(priority, int | float) and not isinstance(priority, bool):
        parts.append(f"priority {priority:g}")
    return " · ".join(parts)


def content_blocks(blocks: list[Any], palette: Any, *, max_items: int = 12) -> list[RenderableType]:
    """Rich content (images, audio, links, resources) described usefully, not dumped as JSON."""
    rows: list[RenderableType] = []
    shown, hidden = kit.cap_items(blocks, max_items)
    for block in shown:
        if not isinstance(block, dict):
            continue
        note = annotation_note(block.get("annotations"))
        if note:
            rows.append(kit.text(note, f"italic {palette.muted}"))
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


_BASE64 = re.compile(r"^[A-Za-z0-9+/=\s]{200,}$")
READABLE_ITEMS = 12


def _leaves(value: Any, depth: int = 0) -> Iterator[Any]:
    """Every scalar in a JSON-like value (bounded in depth)."""
    if depth > 6:
        return
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item, depth + 1)
    elif isinstance(value, list):
        for item in value[:200]:
            yield from _leaves(item, depth + 1)
    else:
        yield value


def restates(value: Any, text: str) -> bool:
    """Whether ``value`` only repeats ``text``: the same JSON, or nothing but strings that all
    stand in the text (``{"content": "Allowed directories: ..."}`` beside that very text)."""
    if _same_json(text, value):
        return True
    leaves = list(_leaves(value))
    return bool(leaves) and all(
        isinstance(leaf, str) and (not leaf.strip() or leaf.strip() in text) for leaf in leaves
    )


def readable(value: Any, palette: Any, *, max_lines: int = 20) -> RenderableType:
    """A structure as an indented outline a person reads: keys, values, multi-line strings as
    lines (never JSON escapes), base64 as its size; capped with "showing N of M"."""
    rows: list[Text] = []

    def scalar(item: Any) -> str:
        if isinstance(item, str):
            if _BASE64.match(item):
                return f"(base64 data, {kit.human_size(len(item) * 3 // 4)})"
            return item
        return json.dumps(item, ensure_ascii=False)

    def line(lead: str, text: str, pad: str) -> None:
        first, *more = text.split("\n")
        rows.append(kit.join((lead, palette.muted), kit.text(first)))
        rows.extend(kit.text(pad + line) for line in more)

    def walk(item: Any, lead: str, pad: str) -> None:
        """``item`` with ``lead`` before its first line and ``pad`` before the others."""
        if isinstance(item, dict | list) and item:
            entries = list(item.items()) if isinstance(item, dict) else [(None, v) for v in item]
            shown, hidden = kit.cap_items(entries, READABLE_ITEMS)
            for index, (name, sub) in enumerate(shown):
                head = lead if index == 0 else pad
                if name is None:
                    walk(sub, f"{head}· ", f"{pad}  ")
                elif isinstance(sub, dict | list) and sub:
                    rows.append(kit.join((f"{head}{name}:", palette.muted)))
                    walk(sub, f"{pad}  ", f"{pad}  ")
                else:
                    walk(sub, f"{head}{name}: ", f"{pad}  ")
            if hidden:
                unit = "key" if isinstance(item, dict) else "item"
                rows.append(
                    Text(pad) + kit.more_note(hidden, len(shown), len(entries), unit, palette)
                )
            return
        if isinstance(item, dict | list):
            line(lead, "{}" if isinstance(item, dict) else "[]", pad)
        else:
            line(lead, scalar(item), pad)

    walk(value, "", "")
    if len(rows) > max_lines:
        total = len(rows)
        return Group(*rows[:max_lines], kit.showing(max_lines, total, "line", palette))
    return Group(*rows)


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
        texts = "\n".join(str(block.get("text", "")) for block in blocks if isinstance(block, dict))
        shown = content_blocks(blocks, palette)
        if structured is not None and not restates(structured, texts):
            shown.append(Text("structured content", style=f"bold {palette.muted}"))
            shown.append(readable(structured, palette))
        return Group(*shown)
    if ctx.error is not None:
        return error_view(ctx)
    state = ctx.result_state
    if state is not None and _same_json(ctx.content, state):
        # The content is the state's JSON (an MCP server's text for clients that read only
        # text): drawn once, as a structure.
        return readable(state, palette)
    rows = [kit.capped_text(ctx.content, palette, max_lines=20)]
    if state is not None and not restates(state, ctx.content):
        rows.append(Text("state", style=f"bold {palette.muted}"))
        rows.append(readable(state, palette))
    return Group(*rows)


def _error_details(ctx: SurfaceContext) -> Any:
    """What an error carries beyond its message, without what the reader already has: empty
    fields, the server's name on a tool's own error, the code the label names."""
    error = ctx.error
    body = error.body if error is not None else None
    if not isinstance(body, dict):
        return body
    known = {"server"} if error is not None and error.type == ErrorType.TOOL_REPORTED else set()
    if error is not None and error.type == ErrorType.PROTOCOL_ERROR:
        known.add("code")
    details = {key: value for key, value in body.items() if value is not None and key not in known}
    return details or None


def error_view(ctx: SurfaceContext) -> RenderableType:
    """A failure labelled by whose it was (the tool's own, or the protocol's) and drawn as
    text and an outline, never as JSON."""
    palette = ctx.palette
    assert ctx.error is not None
    details: list[RenderableType] = []
    body = _error_details(ctx)
    if body is not None:
        details.append(readable(body, palette, max_lines=12))
    rows: list[RenderableType] = [
        kit.error_box(kit.error_label(ctx.error), ctx.error.message, palette, details=details)
    ]
    state = ctx.result_state
    if isinstance(state, dict) and isinstance(state.get("blocks"), list):
        # The text blocks are the message above; the rest (images, links) are drawn as blocks.
        rows.extend(
            content_blocks(
                [b for b in state["blocks"] if isinstance(b, dict) and b.get("type") != "text"],
                palette,
            )
        )
        state = state.get("structuredContent")
    if state is not None and not restates(state, ctx.error.message):
        rows.append(readable(state, palette, max_lines=12))
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
        state = ctx.result_state
        if state is not None and not restates(state, ctx.content):
            # A state that only repeats the content (an MCP tool's {"result": text}) is not
            # drawn a second time.
            rows.append(Text("state", style=f"bold {palette.muted}"))
            rows.append(kit.json_block(state, palette, max_lines=400))
        if ctx.error is not None:
            rows.append(kit.error_box(kit.error_label(ctx.error), ctx.error.message, palette))
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
        # Only a Portal of an MCP App's API needs the MCP catalogue's views.
        from workbench.surfaces.mcp_views import ui_section

        rows.extend(ui_section(api, ctx.result, ctx.palette))
    rows.extend(exchanges_section(ctx.state.exchanges, ctx.palette))
    rows.extend(messages_section(ctx.state.server_messages, ctx.palette, limit=20))
    return rows
