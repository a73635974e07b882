"""Map MCP tool results and tool listings onto Workbench's result contract and manifests.

Text blocks become ``content`` (what a model reads); ``structuredContent`` becomes ``state``;
``isError`` a failed result. Images, audio, resource links and embedded resources are kept as
summaries in ``state["blocks"]`` so the generic Render can show them usefully (type and size,
a link list, resource text) without holding megabytes of base64.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from workbench.core.manifest import SCHEMAS_CHECKED, ToolApi, ToolManifest, ToolMeta, ToolUi
from workbench.core.mcp_catalog import (
    NO_CONTENT,
    header_image_size,
    ui_resource_uri,
    ui_visibility,
)
from workbench.core.result import ErrorType, ToolError, ToolResult, to_result
from workbench.sources.quick_schema import plainly_well_formed

MAX_RESOURCE_TEXT = 20_000
MAX_CONTENT_CHARS = 400_000
"""A result's text beyond this is cut (with a note): a model could not read it anyway."""
MCP_ERROR = ErrorType.TOOL_REPORTED


def _decode(data: str) -> bytes:
    try:
        return base64.b64decode(data, validate=False)
    except (binascii.Error, ValueError):
        return b""


def _annotations(block: Any) -> dict[str, Any]:
    """What a block's annotations say about who it is for and how much it matters."""
    annotations = getattr(block, "annotations", None)
    kept: dict[str, Any] = {}
    audience = getattr(annotations, "audience", None)
    if isinstance(audience, list) and audience:
        kept["audience"] = [str(role) for role in audience[:4]]
    priority = getattr(annotations, "priority", None)
    if isinstance(priority, int | float) and not isinstance(priority, bool):
        kept["priority"] = float(priority)
    return {"annotations": kept} if kept else {}


def block_summary(block: Any) -> dict[str, Any]:
    """A JSON-friendly summary of one MCP content block (its annotations kept)."""
    return {**_block_summary(block), **_annotations(block)}


def _block_summary(block: Any) -> dict[str, Any]:
    kind = getattr(block, "type", "unknown")
    if kind == "text":
        return {"type": "text", "text": block.text}
    if kind in ("image", "audio"):
        raw = _decode(block.data)
        summary: dict[str, Any] = {"type": kind, "mimeType": block.mime_type, "bytes": len(raw)}
        size = header_image_size(raw) if kind == "image" else None
        if size is not None:
            summary["width"], summary["height"] = size
        return summary
    if kind == "resource_link":
        summary = {"type": "resource_link", "name": block.name, "uri": str(block.uri)}
        for attribute, key in (
            ("title", "title"),
            ("description", "description"),
            ("mime_type", "mimeType"),
            ("size", "size"),
        ):
            value = getattr(block, attribute, None)
            if value is not None:
                summary[key] = value
        return summary
    if kind == "resource":
        resource = block.resource
        summary = {"type": "resource", "uri": str(resource.uri)}
        if getattr(resource, "mime_type", None):
            summary["mimeType"] = resource.mime_type
        text = getattr(resource, "text", None)
        if text is not None:
            summary["text"] = text[:MAX_RESOURCE_TEXT]
            if len(text) > MAX_RESOURCE_TEXT:
                summary["truncated"] = True
                summary["length"] = len(text)
        else:
            summary["bytes"] = len(_decode(getattr(resource, "blob", "") or ""))
        return summary
    return {"type": str(kind)}


def _describe(summary: dict[str, Any]) -> str:
    kind = summary["type"]
    if kind == "text":
        return str(summary["text"])
    if kind in ("image", "audio"):
        size = f", {summary['width']}x{summary['height']}" if "width" in summary else ""
        return f"[{kind}: {summary.get('mimeType')}, {summary['bytes']:,} bytes{size}]"
    if kind == "resource_link":
        return f"[link: {summary.get('title') or summary['name']} <{summary['uri']}>]"
    if kind == "resource":
        if "text" in summary:
            return f"[resource {summary['uri']}]\n{summary['text']}"
        return f"[resource {summary['uri']}: {summary.get('bytes', 0):,} bytes]"
    return f"[{kind} block]"


def to_tool_result(result: Any, *, tool: str, api: str) -> ToolResult:
    """A :class:`ToolResult` from an MCP ``CallToolResult``."""
    summaries = [block_summary(block) for block in result.content or []]
    content = "\n".join(_describe(summary) for summary in summaries).strip()
    if len(content) > MAX_CONTENT_CHARS:
        total = len(content)
        content = (
            content[:MAX_CONTENT_CHARS]
            + f"\n[truncated: showing {MAX_CONTENT_CHARS:,} of {total:,} characters]"
        )
        summaries = [
            {**summary, "text": summary["text"][:2000] + "…"}
            if summary["type"] == "text" and len(summary["text"]) > 2000
            else summary
            for summary in summaries
        ]
    structured = result.structured_content
    # Annotated text is kept as blocks too: who a block is for is part of what it says.
    rich = any(summary["type"] != "text" or "annotations" in summary for summary in summaries)
    state: Any = None
    if structured is not None and not rich:
        state = structured
    elif structured is not None or rich:
        state = (
            {"structuredContent": structured, "blocks": summaries}
            if structured is not None
            else {"blocks": summaries}
        )
    if result.is_error:
        message = content or f"{api} reported an error"
        return to_result(
            success=False,
            content=content or None,
            state=state,
            error=ToolError(type=MCP_ERROR, message=message, body={"server": tool}),
        )
    if not content and structured is not None:
        import json

        content = json.dumps(structured, ensure_ascii=False)
    return to_result(success=True, content=content or NO_CONTENT, state=state)


def manifest_from_tools(
    identifier: str,
    title: str,
    description: str,
    tools: list[Any],
    policy_overrides: dict[str, str] | None = None,
) -> tuple[ToolManifest | None, list[str]]:
    """One manifest for one MCP server: each MCP tool is an API.

    Tool annotations set the approval policy: read-only tools run freely, destructive ones ask
    (``required``); others follow the server's override or ``never``.
    """
    apis = []
    skipped: list[str] = []
    overrides = policy_overrides or {}
    for tool in tools:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.-]{0,127}", tool.name or ""):
            skipped.append(f"tool name {tool.name!r} is not usable as an API name")
            continue
        annotations = getattr(tool, "annotations", None)
        policy: str | None = overrides.get(tool.name)
        if policy is None and annotations is not None:
            if getattr(annotations, "destructive_hint", None):
                policy = "required"
            elif getattr(annotations, "read_only_hint", None):
                policy = "never"
        schema = tool.input_schema if isinstance(tool.input_schema, dict) else {"type": "object"}
        meta = getattr(tool, "meta", None)
        declared = ui_resource_uri(meta)
        ui = (
            ToolUi(
                resource_uri=declared[0], declared_as=declared[1], visibility=ui_visibility(meta)
            )
            if declared is not None
            else None
        )
        output_schema = getattr(tool, "output_schema", None)
        # jsonschema checks only the schemas the quick check cannot vouch for.
        plain = plainly_well_formed(schema) and (
            output_schema is None or plainly_well_formed(output_schema)
        )
        try:
            api = ToolApi.model_validate(
                {
                    "name": tool.name,
                    "description": tool.description or (getattr(tool, "title", None) or ""),
                    "parameters": schema,
                    "output_schema": output_schema,
                    "human_intervention": policy,
                    "ui": ui,
                },
                context=SCHEMAS_CHECKED if plain else None,
            )
        except ValueError:
            # A server's schema that is not valid JSON Schema still gets a callable API.
            api = ToolApi(
                name=tool.name,
                description=tool.description or "",
                parameters={"type": "object"},
                human_intervention=policy,
                ui=ui,
            )
        apis.append(api)
    if not apis:
        return None, skipped or ["the server lists no tools"]
    return ToolManifest(
        identifier=identifier,
        meta=ToolMeta(title=title, emoji="🔌", description=description),
        api=apis,
        type="mcp",
    ), skipped
