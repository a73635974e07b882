"""SDK objects -> the catalog models of :mod:`workbench.core.mcp_catalog`.

Resources, templates and prompts as listed; a resource read and a rendered prompt as shown;
an MCP Apps UI resource read and judged against the spec. Imports the SDK's types, so it is
only imported once a server is connected.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types

from workbench.core.manifest import UiResource
from workbench.core.mcp_catalog import (
    ContentPart,
    PromptArgumentInfo,
    PromptInfo,
    PromptMessageView,
    PromptRender,
    ResourceInfo,
    ResourceRead,
    ResourceTemplateInfo,
    content_part,
    ui_metadata,
    ui_resource_problems,
)
from workbench.core.sanitize import clean

MAX_PARTS = 50
MAX_PROMPT_MESSAGES = 100
MAX_PROMPT_TEXT = 20_000


def _text(value: object, limit: int = 500) -> str:
    return clean(value or "")[:limit]


def resource_info(item: Any) -> ResourceInfo:
    return ResourceInfo(
        uri=_text(str(item.uri), 2048),
        name=_text(item.name, 200),
        title=_text(getattr(item, "title", None), 200),
        description=_text(item.description),
        mime_type=_text(item.mime_type, 200),
        size=item.size if isinstance(getattr(item, "size", None), int) else None,
        ui_meta=ui_metadata(getattr(item, "meta", None)),
    )


def template_info(item: Any) -> ResourceTemplateInfo:
    return ResourceTemplateInfo(
        uri_template=_text(item.uri_template, 2048),
        name=_text(item.name, 200),
        title=_text(getattr(item, "title", None), 200),
        description=_text(item.description),
        mime_type=_text(item.mime_type, 200),
    )


def prompt_info(item: Any) -> PromptInfo:
    arguments = tuple(
        PromptArgumentInfo(
            name=_text(argument.name, 100),
            description=_text(argument.description),
            required=bool(argument.required),
        )
        for argument in (item.arguments or [])[:50]
    )
    return PromptInfo(
        name=_text(item.name, 200),
        title=_text(getattr(item, "title", None), 200),
        description=_text(item.description),
        arguments=arguments,
    )


def _part(contents: Any) -> ContentPart:
    meta = contents.meta if isinstance(getattr(contents, "meta", None), dict) else None
    if isinstance(contents, types.TextResourceContents):
        return content_part(str(contents.uri), contents.mime_type, text=contents.text, meta=meta)
    return content_part(
        str(contents.uri), contents.mime_type, blob=getattr(contents, "blob", ""), meta=meta
    )


def read_result(uri: str, result: Any) -> ResourceRead:
    """A ``resources/read`` result, shown part by part."""
    parts = tuple(_part(contents) for contents in result.contents[:MAX_PARTS])
    error = None if parts else "the server returned no contents for this resource"
    return ResourceRead(uri=clean(uri), parts=parts, error=error)


def _block_text(block: Any) -> str:
    kind = getattr(block, "type", "")
    if kind == "text":
        text = str(block.text)
        if len(text) > MAX_PROMPT_TEXT:
            return (
                clean(text[:MAX_PROMPT_TEXT])
                + f"… [showing {MAX_PROMPT_TEXT:,} of {len(text):,} characters]"
            )
        return clean(text)
    if kind in ("image", "audio"):
        part = content_part("", block.mime_type, blob=block.data)
        return f"[{kind}: {part.describe()}]"
    if kind == "resource":
        part = _part(block.resource)
        if part.text is not None:
            return f"[resource {part.uri}]\n{part.text[:MAX_PROMPT_TEXT]}"
        return f"[resource {part.uri}: {part.describe()}]"
    if kind == "resource_link":
        return f"[link {_text(block.name, 200)} <{_text(str(block.uri), 500)}>]"
    return f"[{_text(kind, 40)} block]"


def prompt_result(name: str, arguments: dict[str, str], result: Any) -> PromptRender:
    """A ``prompts/get`` result: the messages a model would be given."""
    messages = tuple(
        PromptMessageView(role=_text(message.role, 20), text=_block_text(message.content))
        for message in result.messages[:MAX_PROMPT_MESSAGES]
    )
    return PromptRender(
        name=name,
        arguments=dict(arguments),
        description=_text(result.description),
        messages=messages,
    )


async def ui_resource(client: Any, uri: str, listed: ResourceInfo | None) -> UiResource:
    """Read a tool's ``ui://`` resource and judge it by the MCP Apps spec."""
    try:
        result = await client.read_resource(uri)
    except Exception as error:  # noqa: BLE001 - a missing UI resource is a problem to show
        message = getattr(error, "message", None) or f"{type(error).__name__}: {error}"
        problems = ui_resource_problems(uri, "", None, found=False)
        return UiResource(
            uri=clean(uri),
            problems=[*problems[:-1], f"{problems[-1]} ({clean(message)[:200]})"],
        )
    contents = result.contents[0] if result.contents else None
    if contents is None:
        return UiResource(uri=clean(uri), problems=ui_resource_problems(uri, "", None, False))
    mime = clean(contents.mime_type or (listed.mime_type if listed else "") or "")
    text = contents.text if isinstance(contents, types.TextResourceContents) else None
    # The metadata may sit on the listing, the contents, or both; the contents' wins.
    meta = {**(listed.ui_meta if listed else {}), **ui_metadata(getattr(contents, "meta", None))}
    part = _part(contents)
    return UiResource(
        uri=clean(uri),
        mime_type=mime or None,
        meta=meta,
        size=part.chars if part.text is not None else part.size,
        problems=ui_resource_problems(uri, mime, text, True),
    )
