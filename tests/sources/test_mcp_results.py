"""MCP results and tool listings map onto the result contract and manifests (real SDK types)."""

from __future__ import annotations

import base64
import struct

from mcp.types import (
    AudioContent,
    BlobResourceContents,
    CallToolResult,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
    Tool,
    ToolAnnotations,
)

from workbench.sources.demo_server import tiny_png
from workbench.sources.mcp_results import (
    MAX_CONTENT_CHARS,
    MAX_RESOURCE_TEXT,
    MCP_ERROR,
    manifest_from_tools,
    to_tool_result,
)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def test_text_blocks_become_content_and_nothing_else() -> None:
    result = to_tool_result(
        CallToolResult(
            content=[TextContent(type="text", text="one"), TextContent(type="text", text="two")]
        ),
        tool="t",
        api="a",
    )
    assert result.success is True
    assert result.content == "one\ntwo"
    assert result.state is None and result.error is None


def test_structured_content_becomes_state_and_text_stays_content() -> None:
    result = to_tool_result(
        CallToolResult(
            content=[TextContent(type="text", text="21 C")], structured_content={"temp": 21}
        ),
        tool="t",
        api="a",
    )
    assert result.content == "21 C"
    assert result.state == {"temp": 21}


def test_structured_content_alone_is_also_readable_as_content() -> None:
    result = to_tool_result(
        CallToolResult(content=[], structured_content={"temp": 21, "city": "Oslo"}),
        tool="t",
        api="a",
    )
    assert result.success is True
    assert result.state == {"temp": 21, "city": "Oslo"}
    assert result.content == '{"temp": 21, "city": "Oslo"}'


def test_no_content_at_all_still_has_content() -> None:
    result = to_tool_result(CallToolResult(content=[]), tool="t", api="a")
    assert result.success is True
    assert result.content == "(the tool returned no content)"
    assert result.state is None


def test_is_error_is_a_failed_result_of_type_mcp_tool_error() -> None:
    result = to_tool_result(
        CallToolResult(content=[TextContent(type="text", text="bad input")], is_error=True),
        tool="srv",
        api="go",
    )
    assert result.success is False
    assert result.error is not None
    assert result.error.type == MCP_ERROR == "McpToolError"
    assert result.error.message == "bad input"
    assert result.error.body == {"server": "srv"}
    assert result.content == "bad input"


def test_is_error_without_text_says_which_api_failed() -> None:
    result = to_tool_result(CallToolResult(content=[], is_error=True), tool="srv", api="go")
    assert result.success is False
    assert result.error is not None and result.error.message == "go reported an error"


def test_png_and_gif_images_are_summarised_with_their_size_not_their_bytes() -> None:
    png = tiny_png(7, 5)
    gif = b"GIF89a" + struct.pack("<HH", 33, 17) + b"\x00" * 20
    result = to_tool_result(
        CallToolResult(
            content=[
                ImageContent(type="image", data=b64(png), mime_type="image/png"),
                ImageContent(type="image", data=b64(gif), mime_type="image/gif"),
            ]
        ),
        tool="t",
        api="a",
    )
    assert result.state == {
        "blocks": [
            {"type": "image", "mimeType": "image/png", "bytes": len(png), "width": 7, "height": 5},
            {
                "type": "image",
                "mimeType": "image/gif",
                "bytes": len(gif),
                "width": 33,
                "height": 17,
            },
        ]
    }
    assert (
        result.content == f"[image: image/png, {len(png):,} bytes, 7x5]\n[image: image/gif, "
        f"{len(gif):,} bytes, 33x17]"
    )
    assert b64(png) not in str(result.model_dump())


def test_audio_and_unknown_images_have_a_size_in_bytes_only() -> None:
    result = to_tool_result(
        CallToolResult(
            content=[
                AudioContent(type="audio", data=b64(b"RIFF" + b"\x00" * 96), mime_type="audio/wav"),
                ImageContent(type="image", data=b64(b"not an image"), mime_type="image/webp"),
            ]
        ),
        tool="t",
        api="a",
    )
    assert result.state == {
        "blocks": [
            {"type": "audio", "mimeType": "audio/wav", "bytes": 100},
            {"type": "image", "mimeType": "image/webp", "bytes": 12},
        ]
    }
    assert result.content == "[audio: audio/wav, 100 bytes]\n[image: image/webp, 12 bytes]"


def test_resource_links_keep_title_uri_description_mime_type_and_size() -> None:
    link = ResourceLink(
        type="resource_link",
        uri="https://example.invalid/report.pdf",
        name="report.pdf",
        title="The report",
        description="Q3 numbers",
        mime_type="application/pdf",
        size=2048,
    )
    bare = ResourceLink(type="resource_link", uri="file:///tmp/notes.txt", name="notes.txt")
    result = to_tool_result(CallToolResult(content=[link, bare]), tool="t", api="a")
    assert result.state == {
        "blocks": [
            {
                "type": "resource_link",
                "name": "report.pdf",
                "uri": "https://example.invalid/report.pdf",
                "title": "The report",
                "description": "Q3 numbers",
                "mimeType": "application/pdf",
                "size": 2048,
            },
            {"type": "resource_link", "name": "notes.txt", "uri": "file:///tmp/notes.txt"},
        ]
    }
    assert (
        result.content
        == "[link: The report <https://example.invalid/report.pdf>]\n[link: notes.txt <file:///tmp/notes.txt>]"
    )


def test_embedded_text_resources_are_inlined_and_long_ones_cut() -> None:
    long_text = "y" * (MAX_RESOURCE_TEXT + 10)
    result = to_tool_result(
        CallToolResult(
            content=[
                EmbeddedResource(
                    type="resource",
                    resource=TextResourceContents(
                        uri="file:///a.toml", mime_type="application/toml", text="a = 1\n"
                    ),
                ),
                EmbeddedResource(
                    type="resource",
                    resource=TextResourceContents(uri="file:///long.txt", text=long_text),
                ),
                EmbeddedResource(
                    type="resource",
                    resource=BlobResourceContents(
                        uri="file:///b.bin",
                        mime_type="application/octet-stream",
                        blob=b64(b"\x00" * 300),
                    ),
                ),
            ]
        ),
        tool="t",
        api="a",
    )
    first, second, third = result.state["blocks"]
    assert first == {
        "type": "resource",
        "uri": "file:///a.toml",
        "mimeType": "application/toml",
        "text": "a = 1\n",
    }
    assert (
        second["truncated"] is True
        and second["length"] == MAX_RESOURCE_TEXT + 10
        and len(second["text"]) == MAX_RESOURCE_TEXT
    )
    assert third == {
        "type": "resource",
        "uri": "file:///b.bin",
        "mimeType": "application/octet-stream",
        "bytes": 300,
    }
    assert result.content.startswith("[resource file:///a.toml]\na = 1")
    assert result.content.endswith("[resource file:///b.bin: 300 bytes]")


def test_rich_blocks_with_structured_content_keep_both() -> None:
    result = to_tool_result(
        CallToolResult(
            content=[ResourceLink(type="resource_link", uri="file:///x", name="x")],
            structured_content={"count": 1},
        ),
        tool="t",
        api="a",
    )
    assert result.state == {
        "structuredContent": {"count": 1},
        "blocks": [{"type": "resource_link", "name": "x", "uri": "file:///x"}],
    }


def test_huge_text_is_capped_with_a_truncation_note() -> None:
    text = "z" * (MAX_CONTENT_CHARS * 2)
    result = to_tool_result(
        CallToolResult(content=[TextContent(type="text", text=text)]), tool="t", api="a"
    )
    assert len(result.content) < MAX_CONTENT_CHARS + 200
    assert result.content.endswith(
        f"[truncated: showing {MAX_CONTENT_CHARS:,} of {len(text):,} characters]"
    )


def tool(name: str, **extra: object) -> Tool:
    return Tool(
        name=name,
        input_schema=extra.pop("input_schema", {"type": "object", "properties": {}}),
        **extra,
    )  # type: ignore[arg-type]


def test_manifest_policies_come_from_annotations_and_overrides() -> None:
    tools = [
        tool("remove", description="Delete", annotations=ToolAnnotations(destructive_hint=True)),
        tool("look", description="Read", annotations=ToolAnnotations(read_only_hint=True)),
        tool("plain", title="Plain title"),
        tool("look_but_ask", annotations=ToolAnnotations(read_only_hint=True)),
    ]
    manifest, skipped = manifest_from_tools(
        "srv", "Server", "about", tools, {"look_but_ask": "always"}
    )
    assert skipped == []
    assert manifest is not None
    assert (
        manifest.identifier == "srv" and manifest.type == "mcp" and manifest.meta.title == "Server"
    )
    policies = {api.name: api.human_intervention for api in manifest.api}
    assert policies == {
        "remove": "required",
        "look": "never",
        "plain": None,
        "look_but_ask": "always",
    }
    assert manifest.get_api("plain").description == "Plain title"  # type: ignore[union-attr]


def test_unusable_tool_names_are_skipped_and_bad_schemas_still_give_a_callable_api() -> None:
    tools = [
        tool("has space"),
        tool("ok.name-1"),
        tool(
            "weird", input_schema={"type": "object", "properties": {"n": {"type": "no-such-type"}}}
        ),
    ]
    manifest, skipped = manifest_from_tools("srv", "Server", "", tools)
    assert manifest is not None
    assert [api.name for api in manifest.api] == ["ok.name-1", "weird"]
    assert manifest.get_api("weird").parameters == {"type": "object"}  # type: ignore[union-attr]
    assert skipped == ["tool name 'has space' is not usable as an API name"]


def test_a_server_without_usable_tools_gives_no_manifest() -> None:
    assert manifest_from_tools("srv", "Server", "", []) == (None, ["the server lists no tools"])
