"""What a server asks of the user in the middle of a call, and what the user answered.

An MCP server may pause a running call to ask for input (elicitation: a form, or a URL to
visit) or for a completion from the client's model (sampling). Both are Interventions that
arrive mid-call: the request is shown, a person (or an answers file, or a fixture) answers,
and the call goes on. These are the pure models: the source turns SDK objects into them, the
call runner numbers them, the reducer folds them, surfaces draw them.

Everything a server sends here is untrusted: text is cleaned, long text is capped with its
true length kept ("showing N of M"), URLs are judged before anyone may open them.
"""

from __future__ import annotations

import ipaddress
import json
from dataclasses import dataclass, field, replace
from typing import Any, Literal
from urllib.parse import urlsplit

from workbench.core.sanitize import clean

Action = Literal["accept", "decline", "cancel"]
"""``accept``: the user answered (a form sent, a URL visited, a sampling reply approved);
``decline``: the user said no; ``cancel``: dismissed without a choice."""
AnsweredBy = Literal["user", "answers-file", "fixture", "default", "workbench"]

MAX_MESSAGE_CHARS = 2_000
"""A server's message to the user: a sentence or two; beyond this it is cut."""
MAX_SAMPLING_TEXT_CHARS = 8_000
"""Per sampling message (and for the system prompt): enough to judge what would be sent."""
MAX_SAMPLING_MESSAGES = 40
MAX_SCHEMA_FIELDS = 50
MAX_URL_CHARS = 2_048
SAFE_URL_SCHEMES = ("https", "http")


def clip(text: object, limit: int) -> tuple[str, int]:
    """``text`` cleaned and cut to ``limit`` characters, with its full length."""
    value = clean(text if isinstance(text, str) else str(text))
    return (value[:limit], len(value))


def clipped_text(text: object, limit: int = MAX_MESSAGE_CHARS) -> str:
    """Cleaned text on one string, cut with an inline "showing N of M" note past ``limit``.

    For messages, log lines and URIs carried in events; a surface cuts a block of text
    with ``kit.capped_text``, which draws the note on a line of its own.
    """
    shown, total = clip(text, limit)
    if total > limit:
        return f"{shown}… [showing {limit:,} of {total:,} characters]"
    return shown


# --- elicitation ------------------------------------------------------------------------------


def url_refusal(url: str) -> str | None:
    """Why the workbench will not offer ``url`` to be opened (``None``: it may be offered).

    Only ``https``/``http`` URLs with a host are offered; ``javascript:``, ``file:``,
    ``data:`` and every other scheme are refused, as are URLs with control characters or
    whitespace (which hide what a link really points at) and absurdly long ones.
    """
    if len(url) > MAX_URL_CHARS:
        return f"the URL is {len(url):,} characters long (more than {MAX_URL_CHARS:,})"
    if any(ord(character) < 0x21 or 0x7F <= ord(character) < 0xA0 for character in url):
        return "the URL contains spaces or control characters"
    try:
        parts = urlsplit(url)
    except ValueError as error:
        return f"the URL cannot be parsed ({error})"
    scheme = parts.scheme.lower()
    if scheme not in SAFE_URL_SCHEMES:
        shown = f"{scheme}:" if scheme else "no scheme"
        return f"only https and http URLs can be opened ({shown} refused)"
    if not parts.hostname:
        return "the URL has no host"
    return None


def url_warnings(url: str) -> list[str]:
    """What a person should notice before opening ``url`` (it is offered all the same)."""
    warnings: list[str] = []
    try:
        parts = urlsplit(url)
    except ValueError:
        return warnings
    host = parts.hostname or ""
    if parts.username is not None or parts.password is not None:
        warnings.append(
            f"the part before '@' is not the site: this URL goes to {host or 'an unknown host'}"
        )
    if parts.scheme.lower() == "http" and not _is_loopback(host):
        warnings.append("not encrypted (http, not https)")
    if any(label.startswith("xn--") for label in host.split(".")):
        warnings.append(f"the host {host} is an internationalised name (check every letter)")
    return warnings


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def url_host(url: str) -> str:
    """The host a URL goes to (what a person must check), or ``""``."""
    try:
        return urlsplit(url).hostname or ""
    except ValueError:
        return ""


_PRIMITIVE_TYPES = ("string", "number", "integer", "boolean")


def _titled_options(options: Any) -> list[Any] | None:
    """``[{"const": v, "title": t}, ...]`` -> ``[v, ...]``; ``None`` when not that shape."""
    if not isinstance(options, list) or not options:
        return None
    values = []
    for option in options:
        if not isinstance(option, dict) or "const" not in option:
            return None
        values.append(option["const"])
    return values


def _titles(options: list[dict[str, Any]]) -> list[str]:
    """The titles of ``{const, title}`` options; an untitled one reads as its value."""
    return [clean(str(option.get("title") or option["const"])) for option in options]


def schema_problem(schema: Any) -> str | None:
    """What makes ``schema`` unusable as an elicitation form (``None``: it is usable).

    The spec allows a flat object of primitive properties: strings (with ``format`` email,
    uri, date or date-time), numbers, integers, booleans, single-select enums (``enum``,
    or ``oneOf`` of ``const``/``title``) and multi-select arrays of such enums.
    """
    if not isinstance(schema, dict):
        return "requestedSchema is not an object"
    if schema.get("type") != "object":
        return 'requestedSchema must have "type": "object"'
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return "requestedSchema has no properties object"
    if len(properties) > MAX_SCHEMA_FIELDS:
        return (
            f"requestedSchema asks for {len(properties):,} fields (more than {MAX_SCHEMA_FIELDS})"
        )
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(item, str) for item in required):
        return "requestedSchema.required must be a list of property names"
    for name, sub in properties.items():
        where = f"requestedSchema.properties.{clean(name)[:40]}"
        if not isinstance(sub, dict):
            return f"{where} is not an object"
        kind = sub.get("type")
        if kind == "array":
            items = sub.get("items")
            if not isinstance(items, dict) or not (
                isinstance(items.get("enum"), list) or _titled_options(items.get("anyOf"))
            ):
                return f"{where}: an array must be a multi-select of enum values"
            continue
        if kind not in _PRIMITIVE_TYPES:
            return f"{where}: type {kind!r} is not allowed (string, number, integer, boolean)"
        if "oneOf" in sub and _titled_options(sub["oneOf"]) is None:
            return f"{where}: oneOf must list {{const, title}} options"
    return None


def form_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """An elicitation schema as a plain JSON Schema a generated form can show.

    Titled enums (``oneOf``/``anyOf`` of ``const``/``title``) become plain ``enum`` lists with
    their titles beside them (``enumNames``), so the form offers what the server titled
    ("Superman") and sends the value (``hero-1``); everything else is kept.
    """
    properties: dict[str, Any] = {}
    for name, sub in (schema.get("properties") or {}).items():
        if not isinstance(sub, dict):
            properties[name] = sub
            continue
        item = dict(sub)
        options = _titled_options(item.get("oneOf"))
        if options is not None:
            item["enumNames"] = _titles(item.pop("oneOf"))
            item["enum"] = options
        items = item.get("items")
        if isinstance(items, dict):
            options = _titled_options(items.get("anyOf"))
            if options is not None:
                item["items"] = {
                    "type": "string",
                    "enum": options,
                    "enumNames": _titles(items["anyOf"]),
                }
        properties[name] = item
    return {**schema, "properties": properties}


@dataclass(frozen=True, slots=True)
class ElicitationRequest:
    """A server asks the user for input: a form (``schema``) or a URL to visit (``url``)."""

    message: str
    mode: Literal["form", "url"] = "form"
    schema: dict[str, Any] | None = None
    """The requested schema (form mode), as the server sent it."""
    url: str | None = None
    elicitation_id: str | None = None
    refused: str | None = None
    """Why the workbench will not offer this to the user (a hostile URL, an unusable schema);
    such a request is declined without asking."""
    server: str = ""
    key: str = ""
    """``elicitation-1``, ``elicitation-2``... within one call (set by the call runner)."""

    kind = "elicitation"

    @property
    def field_names(self) -> list[str]:
        properties = (self.schema or {}).get("properties")
        return [str(name) for name in properties] if isinstance(properties, dict) else []

    def summary(self) -> str:
        """One line: what is asked."""
        if self.mode == "url":
            return f"open {url_host(self.url or '') or 'a URL'}: {self.message}"
        names = self.field_names
        fields = f" ({', '.join(names[:6])}{', …' if len(names) > 6 else ''})" if names else ""
        return f"{self.message}{fields}"


def elicitation_request(
    message: object,
    *,
    mode: str = "form",
    schema: Any = None,
    url: object = None,
    elicitation_id: object = None,
    server: str = "",
) -> ElicitationRequest:
    """An :class:`ElicitationRequest` from what a server sent, judged and cleaned."""
    text = clipped_text(message)
    if mode == "url":
        raw_url = url if isinstance(url, str) else ""
        refused = url_refusal(raw_url)
        return ElicitationRequest(
            message=text,
            mode="url",
            url=clean(raw_url)[:MAX_URL_CHARS],
            elicitation_id=clean(elicitation_id)[:200] if elicitation_id is not None else None,
            refused=refused,
            server=server,
        )
    problem = schema_problem(schema)
    return ElicitationRequest(
        message=text,
        schema=schema if isinstance(schema, dict) else None,
        refused=f"the server's form cannot be shown: {problem}" if problem else None,
        server=server,
    )


# --- sampling ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SamplingMessage:
    """One message of the conversation a server wants a model to continue."""

    role: str
    text: str
    """The text, or a description of a non-text block (image, audio, tool use); capped."""
    chars: int
    """Its full length, before the cap."""

    @property
    def truncated(self) -> bool:
        return self.chars > len(self.text)


@dataclass(frozen=True, slots=True)
class SamplingRequest:
    """A server asks the client's model for a completion; a person approves what is sent."""

    messages: tuple[SamplingMessage, ...]
    max_tokens: int
    system_prompt: str | None = None
    system_prompt_chars: int = 0
    temperature: float | None = None
    stop_sequences: tuple[str, ...] = ()
    model_hints: tuple[str, ...] = ()
    cost_priority: float | None = None
    speed_priority: float | None = None
    intelligence_priority: float | None = None
    include_context: str | None = None
    tools: tuple[str, ...] = ()
    """Names of tools the server offers the model (sampling with tools)."""
    tool_choice: str | None = None
    total_messages: int = 0
    """How many messages the server sent (more than ``messages`` when capped)."""
    total_chars: int = 0
    server: str = ""
    key: str = ""
    """``sampling-1``, ``sampling-2``... within one call (set by the call runner)."""

    kind = "sampling"

    @property
    def preferences(self) -> list[tuple[str, str]]:
        """The model preferences as label/value rows (empty when the server gave none)."""
        rows: list[tuple[str, str]] = []
        if self.model_hints:
            rows.append(("model hints", ", ".join(self.model_hints)))
        for label, value in (
            ("cost priority", self.cost_priority),
            ("speed priority", self.speed_priority),
            ("intelligence priority", self.intelligence_priority),
        ):
            if value is not None:
                rows.append((label, f"{value:g}"))
        return rows

    def summary(self) -> str:
        last = self.messages[-1].text if self.messages else ""
        first_line = last.splitlines()[0] if last else ""
        return f"{self.total_messages} message(s), up to {self.max_tokens:,} tokens: {first_line}"


def sampling_message(role: object, blocks: list[dict[str, Any]]) -> SamplingMessage:
    """One message from its content blocks (as JSON data): text kept, the rest described."""
    parts: list[str] = []
    for block in blocks:
        kind = block.get("type")
        if kind == "text":
            parts.append(str(block.get("text", "")))
        elif kind in ("image", "audio"):
            data = block.get("data") or ""
            size = len(data) * 3 // 4 if isinstance(data, str) else 0
            parts.append(f"[{kind}: {clean(block.get('mimeType', '?'))}, about {size:,} bytes]")
        elif kind == "tool_use":
            arguments = json.dumps(block.get("input"), ensure_ascii=False, default=str)
            parts.append(f"[tool use {clean(block.get('name', '?'))}: {arguments}]")
        elif kind == "tool_result":
            parts.append("[tool result]")
        else:
            parts.append(f"[{clean(kind)} block]")
    text = "\n".join(parts)
    shown, total = clip(text, MAX_SAMPLING_TEXT_CHARS)
    return SamplingMessage(role=clean(role)[:20], text=shown, chars=total)


def sampling_request(params: dict[str, Any], *, server: str = "") -> SamplingRequest:
    """A :class:`SamplingRequest` from ``sampling/createMessage`` params (JSON data, by alias)."""
    raw_messages = params.get("messages") or []
    messages = []
    total_chars = 0
    for raw in raw_messages[:MAX_SAMPLING_MESSAGES]:
        content = raw.get("content")
        blocks = content if isinstance(content, list) else [content] if content else []
        message = sampling_message(raw.get("role", "?"), [b for b in blocks if isinstance(b, dict)])
        total_chars += message.chars
        messages.append(message)
    for raw in raw_messages[MAX_SAMPLING_MESSAGES:]:
        content = raw.get("content")
        blocks = content if isinstance(content, list) else [content] if content else []
        total_chars += sum(len(str(b.get("text", ""))) for b in blocks if isinstance(b, dict))
    preferences = params.get("modelPreferences") or {}
    hints = tuple(
        clean(hint.get("name"))[:100]
        for hint in (preferences.get("hints") or [])[:10]
        if isinstance(hint, dict) and hint.get("name")
    )
    system = params.get("systemPrompt")
    system_text, system_chars = clip(system, MAX_SAMPLING_TEXT_CHARS) if system else (None, 0)
    tools = tuple(
        clean(tool.get("name"))[:100]
        for tool in (params.get("tools") or [])[:50]
        if isinstance(tool, dict)
    )
    choice = params.get("toolChoice")
    mode = choice.get("mode") if isinstance(choice, dict) else None
    stops = params.get("stopSequences") or []
    return SamplingRequest(
        messages=tuple(messages),
        max_tokens=int(params.get("maxTokens") or 0),
        system_prompt=system_text,
        system_prompt_chars=system_chars,
        temperature=params.get("temperature"),
        stop_sequences=tuple(clean(item)[:100] for item in stops[:20]),
        model_hints=hints,
        cost_priority=preferences.get("costPriority"),
        speed_priority=preferences.get("speedPriority"),
        intelligence_priority=preferences.get("intelligencePriority"),
        include_context=params.get("includeContext"),
        tools=tools,
        tool_choice=clean(mode) if mode else None,
        total_messages=len(raw_messages),
        total_chars=total_chars,
        server=server,
    )


# --- answers ----------------------------------------------------------------------------------

InputRequest = ElicitationRequest | SamplingRequest


@dataclass(frozen=True, slots=True)
class InputAnswer:
    """What became of a request: accepted (with content or a reply), declined or cancelled."""

    action: Action
    content: dict[str, Any] | None = None
    """The form's values (elicitation, form mode, accepted)."""
    reply: str | None = None
    """The reply text sent back as the model's message (sampling, accepted)."""
    model: str | None = None
    """The model name the reply claims (sampling)."""
    by: AnsweredBy = "user"
    note: str = ""
    """Why it was answered so, when no person chose (no answer scripted, a refused URL)."""
    key: str = ""

    def summary(self, request: InputRequest | None = None) -> str:
        """One line: what was answered."""
        sampling = isinstance(request, SamplingRequest)
        if self.action == "accept":
            if sampling:
                reply = (self.reply or "").replace("\n", " ")
                shown = reply[:80] + ("…" if len(reply) > 80 else "")
                return f"approved, reply {shown!r}" + (f" as {self.model}" if self.model else "")
            if self.content is not None:
                values = json.dumps(self.content, ensure_ascii=False, default=str)
                return f"accepted: {values[:200]}"
            return "accepted"
        word = {"decline": "rejected" if sampling else "declined", "cancel": "cancelled"}
        text = word[self.action]
        return f"{text} ({self.note})" if self.note else text


def default_answer(request: InputRequest, *, note: str, by: AnsweredBy = "default") -> InputAnswer:
    """The answer when no one can answer: decline (a sampling request is rejected)."""
    return InputAnswer(action="decline", by=by, note=note, key=request.key)


@dataclass(frozen=True, slots=True)
class Exchange:
    """One request of a call and its answer (``None`` while the user has not answered)."""

    request: InputRequest
    asked_ms: int
    answer: InputAnswer | None = None
    answered_ms: int | None = None

    @property
    def key(self) -> str:
        return self.request.key

    def answered(self, answer: InputAnswer, at_ms: int) -> Exchange:
        return replace(self, answer=answer, answered_ms=at_ms)


@dataclass(frozen=True, slots=True)
class ServerMessage:
    """One line of what a server said besides results: a log line or a notification."""

    at_ms: int
    kind: Literal["log", "list-changed", "resource-updated", "notice"]
    text: str
    level: str = ""
    """The log level (``debug`` .. ``emergency``) of a log line."""
    logger: str = ""


LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")


@dataclass(frozen=True, slots=True)
class ServerMessages:
    """The latest server messages of a call, bounded: the last ``limit`` and a total count."""

    items: tuple[ServerMessage, ...] = ()
    total: int = 0
    limit: int = field(default=200, compare=False)

    def add(self, message: ServerMessage) -> ServerMessages:
        items = (*self.items, message)
        if len(items) > self.limit:
            items = items[-self.limit :]
        return ServerMessages(items, self.total + 1, self.limit)

    @property
    def dropped(self) -> int:
        return self.total - len(self.items)
