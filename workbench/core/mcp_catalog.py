"""What an MCP server publishes besides tools: resources, resource templates, prompts, and
the UI resources of MCP Apps; and what reading a resource or rendering a prompt returns.

Pure data, cleaned and capped where a server's text is kept, so the source tree, the Portal
and the CLI can show it without knowing the SDK. Blobs are never kept whole: a binary
resource is described by its type and size (and an image by its dimensions).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import struct
from dataclasses import dataclass, field
from typing import Any

from workbench.core.sanitize import clean

MAX_TEXT_CHARS = 200_000
"""Text of one resource kept for display; the rest is counted, not kept."""
APP_MIME_TYPE = "text/html;profile=mcp-app"
APP_MIME_TYPES = (APP_MIME_TYPE, "text/html+skybridge")
"""The MCP Apps type and OpenAI's older one."""
DEFAULT_APP_CSP = (
    "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; media-src 'self' data:; connect-src 'none'"
)
"""What a host must apply when a UI resource declares no CSP (MCP Apps, 2026-01-26)."""


@dataclass(frozen=True, slots=True)
class ResourceInfo:
    """A resource a server lists."""

    uri: str
    name: str
    title: str = ""
    description: str = ""
    mime_type: str = ""
    size: int | None = None
    ui_meta: dict[str, Any] = field(default_factory=dict)
    """The MCP Apps part of its ``_meta`` (csp, permissions, ...), for a ``ui://`` resource."""

    @property
    def label(self) -> str:
        return self.title or self.name or self.uri


@dataclass(frozen=True, slots=True)
class ResourceTemplateInfo:
    """A parameterised resource: ``uri_template`` with ``{variables}`` to fill in."""

    uri_template: str
    name: str
    title: str = ""
    description: str = ""
    mime_type: str = ""

    @property
    def variables(self) -> list[str]:
        """The template's variable names, in order (RFC 6570 operators stripped)."""
        names: list[str] = []
        for expression in re.findall(r"\{([^}]*)\}", self.uri_template):
            for part in expression.lstrip("+#./;?&").split(","):
                name = part.rstrip("*").split(":")[0].strip()
                if name and name not in names:
                    names.append(name)
        return names

    def expand(self, values: dict[str, str]) -> str:
        """The URI with ``values`` filled in (simple and reserved expansion; others dropped)."""
        from urllib.parse import quote

        def substitute(match: re.Match[str]) -> str:
            expression = match.group(1)
            operator = expression[0] if expression[:1] in "+#./;?&" else ""
            names = [
                part.rstrip("*").split(":")[0].strip()
                for part in expression[len(operator) :].split(",")
            ]
            safe = ":/?#[]@!$&'()*+,;=" if operator in ("+", "#") else ""
            present = [(name, values[name]) for name in names if values.get(name) not in (None, "")]
            if not present:
                return ""
            if operator in ("?", "&"):
                joined = "&".join(f"{name}={quote(value, safe='')}" for name, value in present)
                return ("?" if operator == "?" else "&") + joined
            encoded = [quote(value, safe=safe) for _, value in present]
            prefix = {"#": "#", ".": ".", "/": "/", ";": ";"}.get(operator, "")
            separator = {".": ".", "/": "/", ";": ";"}.get(operator, ",")
            return prefix + separator.join(encoded)

        return re.sub(r"\{([^}]*)\}", substitute, self.uri_template)

    def schema(self) -> dict[str, Any]:
        """A JSON Schema for a form asking for the template's variables."""
        return {
            "type": "object",
            "properties": {name: {"type": "string"} for name in self.variables},
            "required": self.variables,
        }


@dataclass(frozen=True, slots=True)
class PromptArgumentInfo:
    name: str
    description: str = ""
    required: bool = False


@dataclass(frozen=True, slots=True)
class PromptInfo:
    """A prompt a server offers, with the arguments it takes."""

    name: str
    title: str = ""
    description: str = ""
    arguments: tuple[PromptArgumentInfo, ...] = ()

    @property
    def label(self) -> str:
        return self.title or self.name

    def schema(self) -> dict[str, Any]:
        """A JSON Schema for the form that asks for the arguments (all strings, per MCP)."""
        properties = {
            argument.name: {"type": "string", "description": argument.description}
            if argument.description
            else {"type": "string"}
            for argument in self.arguments
        }
        required = [argument.name for argument in self.arguments if argument.required]
        return {"type": "object", "properties": properties, "required": required}


def header_image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG or GIF, which keep them at a fixed place in their header."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return int(width), int(height)
    return None


def _image_size(data: bytes) -> tuple[int, int] | None:
    size = header_image_size(data)
    if size is None and data[:2] == b"\xff\xd8":
        # A JPEG says its size in its first frame segment, after any others.
        index = 2
        while index + 9 < len(data):
            if data[index] != 0xFF:
                return None
            marker = data[index + 1]
            length = int.from_bytes(data[index + 2 : index + 4], "big")
            if marker in (0xC0, 0xC1, 0xC2):
                height = int.from_bytes(data[index + 5 : index + 7], "big")
                width = int.from_bytes(data[index + 7 : index + 9], "big")
                return width, height
            index += 2 + length
    return size


@dataclass(frozen=True, slots=True)
class ContentPart:
    """One part of a resource read (or a prompt message's resource): text, or a described blob."""

    uri: str
    mime_type: str = ""
    text: str | None = None
    """The text (cleaned, capped); ``None`` for a blob."""
    chars: int = 0
    """The text's full length."""
    size: int = 0
    """A blob's size in bytes (decoded)."""
    width: int | None = None
    height: int | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    json_value: Any = None
    """The text parsed, when the resource is JSON."""

    @property
    def truncated(self) -> bool:
        return self.text is not None and self.chars > len(self.text)

    @property
    def is_json(self) -> bool:
        return self.json_value is not None

    def describe(self) -> str:
        """One line about this part: type and size (what a blob is shown as)."""
        kind = self.mime_type or "unknown type"
        if self.text is not None:
            return f"{kind}, {self.chars:,} characters"
        dimensions = f", {self.width}×{self.height} px" if self.width and self.height else ""
        return f"{kind}, {self.size:,} bytes{dimensions}"


def content_part(
    uri: str,
    mime_type: str | None,
    *,
    text: str | None = None,
    blob: str | None = None,
    meta: dict[str, Any] | None = None,
) -> ContentPart:
    """A :class:`ContentPart` from a resource's contents (as the server sent them)."""
    mime = clean(mime_type or "")[:200]
    if text is not None:
        total = len(text)
        shown = clean(text[:MAX_TEXT_CHARS])
        value = None
        if "json" in mime.lower() or (shown[:1] in ("{", "[") and total <= MAX_TEXT_CHARS):
            try:
                value = json.loads(text) if total <= MAX_TEXT_CHARS else None
            except (ValueError, RecursionError):
                value = None
        return ContentPart(
            uri=clean(uri),
            mime_type=mime,
            text=shown,
            chars=total,
            meta=meta or {},
            json_value=value,
        )
    try:
        data = base64.b64decode(blob or "", validate=False)
    except (binascii.Error, ValueError):
        data = b""
    size = (
        _image_size(data)
        if mime.startswith("image/") or data[:4] in (b"\x89PNG", b"GIF8")
        else None
    )
    return ContentPart(
        uri=clean(uri),
        mime_type=mime,
        size=len(data),
        width=size[0] if size else None,
        height=size[1] if size else None,
        meta=meta or {},
    )


@dataclass(frozen=True, slots=True)
class ResourceRead:
    """What ``resources/read`` returned for one URI."""

    uri: str
    parts: tuple[ContentPart, ...]
    error: str | None = None


@dataclass(frozen=True, slots=True)
class PromptMessageView:
    role: str
    text: str
    """The message's text, or a description of its image, audio or resource."""


@dataclass(frozen=True, slots=True)
class PromptRender:
    """What ``prompts/get`` returned: the messages a model would be given."""

    name: str
    arguments: dict[str, str]
    description: str = ""
    messages: tuple[PromptMessageView, ...] = ()
    error: str | None = None


# --- MCP Apps -------------------------------------------------------------------------------


def ui_resource_uri(meta: dict[str, Any] | None) -> tuple[str, str] | None:
    """The UI resource a tool declares, and the key it was found under (or ``None``).

    ``_meta.ui.resourceUri`` is the MCP Apps key; ``_meta["ui/resourceUri"]`` its deprecated
    flat form; ``_meta["openai/outputTemplate"]`` the OpenAI Apps SDK's.
    """
    if not isinstance(meta, dict):
        return None
    ui = meta.get("ui")
    if isinstance(ui, dict) and isinstance(ui.get("resourceUri"), str):
        return ui["resourceUri"], "_meta.ui.resourceUri"
    for key in ("ui/resourceUri", "openai/outputTemplate"):
        if isinstance(meta.get(key), str):
            return meta[key], f"_meta.{key}"
    return None


def ui_visibility(meta: dict[str, Any] | None) -> list[str] | None:
    """``_meta.ui.visibility`` (``["model", "app"]`` by default), when it is a list."""
    ui = meta.get("ui") if isinstance(meta, dict) else None
    value = ui.get("visibility") if isinstance(ui, dict) else None
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return [clean(item)[:20] for item in value]
    return None


def ui_resource_problems(uri: str, mime_type: str, text: str | None, found: bool) -> list[str]:
    """What is wrong with a tool's UI resource, by the MCP Apps spec."""
    problems = []
    if not uri.startswith("ui://"):
        problems.append(f"the UI resource URI {uri!r} does not start with ui://")
    if not found:
        problems.append(f"the server could not read its UI resource {uri}")
        return problems
    if mime_type and mime_type not in APP_MIME_TYPES:
        problems.append(f"the UI resource's mimeType is {mime_type!r}, not {APP_MIME_TYPE!r}")
    if (
        text is not None
        and "<html" not in text[:4096].lower()
        and "<!doctype" not in text[:4096].lower()
    ):
        problems.append("the UI resource is not an HTML document")
    return problems


def ui_metadata(meta: dict[str, Any] | None) -> dict[str, Any]:
    """The UI part of a resource's ``_meta``: csp, permissions, domain, prefersBorder.

    OpenAI's ``openai/widgetCSP`` (snake_case) is read as a fallback, under ``openaiCsp``.
    """
    if not isinstance(meta, dict):
        return {}
    found: dict[str, Any] = {}
    ui = meta.get("ui")
    if isinstance(ui, dict):
        for key in ("csp", "permissions", "domain", "prefersBorder"):
            if key in ui:
                found[key] = ui[key]
    for key, name in (
        ("openai/widgetCSP", "openaiCsp"),
        ("openai/widgetDomain", "openaiDomain"),
        ("openai/widgetPrefersBorder", "openaiPrefersBorder"),
    ):
        if key in meta:
            found[name] = meta[key]
    return found


def lacks_text_fallback(success: bool, content: str, state: Any) -> bool:
    """Whether a UI tool's result gives a text-only host nothing to read.

    MCP Apps: "Tools MUST return meaningful content array even when UI is available". The
    result has no text block with words in it (only images, links, structured content), or
    its only text is what the workbench made up: the "no content" note, or the JSON of the
    structured content written exactly as :func:`json.dumps` writes it (what
    :mod:`~workbench.sources.mcp_results` shows for a structured-only result).
    """
    if not success:
        return False
    if isinstance(state, dict) and isinstance(state.get("blocks"), list):
        return not any(
            isinstance(block, dict)
            and block.get("type") == "text"
            and str(block.get("text", "")).strip()
            for block in state["blocks"]
        )
    text = content.strip()
    if not text or text == NO_CONTENT:
        return True
    return state is not None and text == json.dumps(state, ensure_ascii=False)


NO_CONTENT = "(the tool returned no content)"
"""What a result says when the server returned no content at all."""
