"""The generic Intervention for what a server asks mid-call, and the record of what it asked.

An elicitation shows the server's message and the form its schema asks for (or, in URL mode,
the host and the whole URL, with warnings, and the promise that nothing opens by itself); a
sampling request shows the messages, system prompt, model preferences and token limit a
model would be given. The controls that answer (the form, Open/Decline, the reply editor)
belong to the app; these are what the card draws, so a replay, a snapshot and a live call
show the same thing.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from workbench.core.interventions import (
    ElicitationRequest,
    Exchange,
    SamplingRequest,
    ServerMessage,
    ServerMessages,
    url_host,
    url_warnings,
)
from workbench.surfaces import kit
from workbench.surfaces.context import Palette, SurfaceContext

FIELDS_SHOWN = 12
MESSAGES_SHOWN = 6
MESSAGE_LINES = 8
LOG_LINES_SHOWN = 40
LEVEL_STYLES = {
    "debug": "muted",
    "info": "foreground",
    "notice": "primary",
    "warning": "warning",
    "error": "error",
    "critical": "error",
    "alert": "error",
    "emergency": "error",
}


def _field_kind(schema: Any) -> str:
    if not isinstance(schema, dict):
        return "?"
    kind = str(schema.get("type", "?"))
    options = schema.get("enum")
    if not isinstance(options, list):
        one_of = schema.get("oneOf") or (schema.get("items") or {}).get("anyOf")
        if isinstance(one_of, list):
            options = [
                item.get("title") or item.get("const") for item in one_of if isinstance(item, dict)
            ]
        elif isinstance((schema.get("items") or {}).get("enum"), list):
            options = schema["items"]["enum"]
    if isinstance(options, list) and options:
        shown = ", ".join(str(option) for option in options[:5])
        more = ", …" if len(options) > 5 else ""
        return f"{'any of' if kind == 'array' else 'one of'}: {shown}{more}"
    details = []
    if schema.get("format"):
        details.append(str(schema["format"]))
    if "minimum" in schema or "maximum" in schema:
        details.append(f"{schema.get('minimum', '…')}..{schema.get('maximum', '…')}")
    if "default" in schema:
        details.append(f"default {schema['default']}")
    return kind + (f" ({', '.join(details)})" if details else "")


def form_rows(request: ElicitationRequest, palette: Palette, width: int) -> list[RenderableType]:
    """The fields a form elicitation asks for: name, type, description."""
    schema = request.schema or {}
    found = schema.get("properties")
    properties: dict[str, Any] = found if isinstance(found, dict) else {}
    listed = schema.get("required")
    required = {str(item) for item in listed} if isinstance(listed, list) else set()
    names = list(properties)
    shown, hidden = kit.cap_items(names, FIELDS_SHOWN)
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True)
    table.add_column(style=palette.muted, overflow="fold")
    for name in shown:
        sub = properties[name]
        title = sub.get("title") if isinstance(sub, dict) else None
        description = sub.get("description") if isinstance(sub, dict) else None
        label = kit.text(f"{name}{' *' if name in required else ''}", "bold")
        detail = kit.text(_field_kind(sub))
        words = " · ".join(str(item) for item in (title, description) if item)
        if words:
            detail.append_text(kit.text(f"  {kit.shorten(words, max(20, width - 30))}"))
        table.add_row(label, detail)
    rows: list[RenderableType] = [table]
    if hidden:
        rows.append(kit.more_note(hidden, len(shown), len(names), "field", palette))
    return rows


def elicitation_view(request: ElicitationRequest, palette: Palette, width: int) -> RenderableType:
    """An elicitation as the person answering it sees it."""
    rows: list[RenderableType] = []
    if request.refused:
        rows.append(kit.join(("⊘ Refused: ", f"bold {palette.warning}"), kit.text(request.refused)))
        rows.append(kit.join(("the server asked: ", palette.muted), kit.text(request.message)))
        if request.url:
            rows.append(kit.key_values([("url", request.url)], palette))
        rows.append(Text("declined without asking you", style=f"italic {palette.muted}"))
        return Group(*rows)
    if request.mode == "url":
        host = url_host(request.url or "")
        rows.append(kit.join(("◆ The server asks you to open a page", f"bold {palette.warning}")))
        rows.append(kit.text(request.message))
        rows.append(
            kit.key_values(
                [("site", kit.text(host, f"bold {palette.subject}")), ("url", request.url or "")],
                palette,
            )
        )
        for warning in url_warnings(request.url or ""):
            rows.append(kit.join(("⚠ ", palette.warning), kit.text(warning)))
        rows.append(
            Text(
                "nothing opens by itself: open it, or decline",
                style=f"italic {palette.muted}",
            )
        )
        return Group(*rows)
    rows.append(kit.join(("◆ The server asks for input", f"bold {palette.warning}")))
    rows.append(kit.text(request.message))
    if request.field_names:
        rows.extend(form_rows(request, palette, width))
    else:
        rows.append(Text("(no fields: accept, decline or cancel)", style=palette.muted))
    return Group(*rows)


def sampling_view(request: SamplingRequest, palette: Palette, width: int) -> RenderableType:
    """A sampling request: what a model would be given, for a person to approve."""
    rows: list[RenderableType] = [
        kit.join(("◆ The server asks for a model's reply", f"bold {palette.warning}"))
    ]
    limits: list[tuple[str, object]] = [("max tokens", f"{request.max_tokens:,}")]
    if request.temperature is not None:
        limits.append(("temperature", f"{request.temperature:g}"))
    limits.extend(request.preferences)
    if request.stop_sequences:
        limits.append(("stop at", ", ".join(repr(item) for item in request.stop_sequences)))
    if request.tools:
        limits.append(("tools offered", ", ".join(request.tools)))
    if request.include_context and request.include_context != "none":
        limits.append(("include context", request.include_context))
    if request.system_prompt is not None:
        system = request.system_prompt
        if request.system_prompt_chars > len(system):
            system += f"… [showing {len(system):,} of {request.system_prompt_chars:,} characters]"
        limits.insert(0, ("system prompt", system))
    rows.append(kit.key_values(limits, palette))
    messages = request.messages
    shown = messages[-MESSAGES_SHOWN:]
    if len(messages) > len(shown) or request.total_messages > len(messages):
        rows.append(kit.showing(len(shown), request.total_messages, "message", palette))
    for message in shown:
        body = kit.capped_text(message.text, palette, max_lines=MESSAGE_LINES)
        table = Table.grid(padding=(0, 1))
        table.add_column(no_wrap=True, style=f"bold {palette.accent}")
        table.add_column(overflow="fold")
        table.add_row(Text(f"{message.role:>9} │"), body)
        rows.append(table)
        if message.truncated:
            rows.append(
                Text(
                    f"{'':>11}showing {len(message.text):,} of {message.chars:,} characters",
                    style=f"italic {palette.muted}",
                )
            )
    rows.append(
        Text("no model is called: the reply is what you write", style=f"italic {palette.muted}")
    )
    return Group(*rows)


def request_view(exchange: Exchange, palette: Palette, width: int) -> RenderableType:
    request = exchange.request
    if isinstance(request, ElicitationRequest):
        return elicitation_view(request, palette, width)
    return sampling_view(request, palette, width)


def input_request(ctx: SurfaceContext) -> RenderableType | None:
    """The card body while the server waits on the user (generic for every tool)."""
    exchange = ctx.state.pending_exchange
    if exchange is None:
        return None
    rows: list[RenderableType] = [request_view(exchange, ctx.palette, ctx.inner_width)]
    waiting = [item for item in ctx.state.exchanges if item.answer is None]
    if len(waiting) > 1:
        rows.append(
            Text(
                f"{kit.plural(len(waiting) - 1, 'more request')} waiting after this one",
                style=f"italic {ctx.palette.muted}",
            )
        )
    return Group(*rows)


def exchange_line(exchange: Exchange, palette: Palette) -> Text:
    """``elicitation-1  Please provide… → declined (headless: …)``."""
    request = exchange.request
    answer = exchange.answer
    line = kit.join((f"{exchange.key}  ", f"bold {palette.accent}"), kit.text(request.summary()))
    if answer is None:
        line.append("  → waiting", style=palette.warning)
    else:
        color = palette.success if answer.action == "accept" else palette.warning
        line.append("  → ", style=palette.muted)
        line.append_text(kit.text(answer.summary(request), color))
        if answer.by != "user":
            line.append_text(kit.text(f"  (by {answer.by})", palette.muted))
    return line


def exchanges_section(exchanges: tuple[Exchange, ...], palette: Palette) -> list[RenderableType]:
    """What the server asked during the call and what was answered (Portal, details)."""
    if not exchanges:
        return []
    rows: list[RenderableType] = [
        Text(f"the server asked ({len(exchanges)})", style=f"bold {palette.muted}")
    ]
    rows.extend(exchange_line(exchange, palette) for exchange in exchanges)
    return rows


def message_line(message: ServerMessage, palette: Palette) -> Text:
    """One server log line: time, level (coloured), logger, text."""
    line = Text(f"{message.at_ms / 1000:7.2f}s ", style=palette.muted)
    if message.kind == "log":
        style = getattr(palette, LEVEL_STYLES.get(message.level, "foreground"))
        line.append(f"{message.level:<8} ", style=style)
        if message.logger:
            line.append_text(kit.text(f"{message.logger}: ", palette.muted))
    else:
        line.append(f"{message.kind:<8} ", style=palette.accent)
    line.append_text(kit.text(message.text.replace("\n", " ⏎ ")))
    return line


def messages_section(
    messages: ServerMessages, palette: Palette, *, limit: int = LOG_LINES_SHOWN
) -> list[RenderableType]:
    """The server's log lines and notifications during the call, latest last, capped."""
    if not messages.total:
        return []
    items = list(messages.items)[-limit:]
    rows: list[RenderableType] = [
        Text(f"server log ({kit.plural(messages.total, 'line')})", style=f"bold {palette.muted}")
    ]
    if messages.total > len(items):
        rows.append(kit.showing(len(items), messages.total, "line", palette))
    rows.extend(message_line(item, palette) for item in items)
    return rows
