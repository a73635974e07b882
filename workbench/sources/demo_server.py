"""The embedded demo MCP server: every kind of MCP result, so live mode works with no set-up.

The SDK reads tool annotations at registration, so its names are imported at module level
(this module is only imported in live mode).

Run in-process by ``workbench live``; also runnable as a real stdio server::

    python -m workbench.sources.demo_server
"""

from __future__ import annotations

import struct
import zlib

import anyio
from mcp.server.mcpserver import Context, Image, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import (
    EmbeddedResource,
    ResourceLink,
    TextContent,
    TextResourceContents,
    ToolAnnotations,
)
from pydantic import BaseModel, Field

SERVER_NAME = "workbench-demo"


def tiny_png(width: int = 8, height: int = 8) -> bytes:
    """A valid PNG of a small gradient (no image library needed)."""
    raw = b"".join(
        b"\x00" + b"".join(bytes((x * 30 % 256, y * 30 % 256, 160)) for x in range(width))
        for y in range(height)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


class Forecast(BaseModel):
    """The weather in one city (structured output)."""

    city: str
    temperature_c: float = Field(description="Air temperature in degrees Celsius")
    conditions: str
    humidity: int = Field(ge=0, le=100)


CITIES: dict[str, tuple[float, str, int]] = {
    "lisbon": (19.5, "sunny", 55),
    "oslo": (-3.0, "snow", 81),
    "nairobi": (24.0, "cloudy", 60),
    "tokyo": (14.5, "rain", 77),
}


def build_server() -> MCPServer:
    """A fresh demo server (each call builds its own, so tests never share state)."""
    server = MCPServer(
        SERVER_NAME,
        version="1.0.0",
        instructions="A demo server showing every kind of MCP result.",
        log_level="WARNING",
    )

    @server.tool(
        description="Echo the text back, unchanged.",
        annotations=ToolAnnotations(read_only_hint=True),
        structured_output=False,
    )
    def echo(text: str) -> str:
        return text

    @server.tool(
        description="The weather in a city (lisbon, oslo, nairobi or tokyo) as structured content.",
        annotations=ToolAnnotations(read_only_hint=True),
    )
    def weather(city: str) -> Forecast:
        key = city.strip().lower()
        if key not in CITIES:
            raise ToolError(f"no forecast for {city!r}; try one of {', '.join(sorted(CITIES))}")
        temperature, conditions, humidity = CITIES[key]
        return Forecast(
            city=city.title(), temperature_c=temperature, conditions=conditions, humidity=humidity
        )

    @server.tool(description="A small PNG image.", annotations=ToolAnnotations(read_only_hint=True))
    def tiny_image(size: int = 8) -> Image:
        size = max(1, min(size, 64))
        return Image(data=tiny_png(size, size), format="png")

    @server.tool(
        description="Links to resources the client can fetch.",
        annotations=ToolAnnotations(read_only_hint=True),
        structured_output=False,
    )
    def resource_links(count: int = 3) -> list[TextContent | ResourceLink]:
        count = max(0, min(count, 20))
        blocks: list[TextContent | ResourceLink] = [
            TextContent(type="text", text=f"{count} related documents:")
        ]
        for index in range(1, count + 1):
            blocks.append(
                ResourceLink(
                    type="resource_link",
                    uri=f"file:///docs/chapter-{index}.md",
                    name=f"chapter-{index}.md",
                    title=f"Chapter {index}",
                    mime_type="text/markdown",
                    description=f"Chapter {index} of the guide",
                )
            )
        return blocks

    @server.tool(
        description="An embedded text resource (a small config file).",
        annotations=ToolAnnotations(read_only_hint=True),
        structured_output=False,
    )
    def embedded_resource() -> list[TextContent | EmbeddedResource]:
        return [
            TextContent(type="text", text="The current configuration:"),
            EmbeddedResource(
                type="resource",
                resource=TextResourceContents(
                    uri="file:///etc/demo/config.toml",
                    mime_type="application/toml",
                    text="[server]\nport = 8080\nworkers = 4\n",
                ),
            ),
        ]

    @server.tool(
        description="Count down, reporting progress each step (for the Streaming surface).",
        annotations=ToolAnnotations(read_only_hint=True),
        structured_output=False,
    )
    async def count_down(ctx: Context, steps: int = 5, delay: float = 0.3) -> str:
        steps = max(1, min(steps, 100))
        for index in range(steps):
            await ctx.report_progress(index + 1, steps, f"step {index + 1} of {steps}")
            await anyio.sleep(max(0.0, min(delay, 10.0)))
        return f"counted down {steps} steps"

    @server.tool(
        description="Fail on purpose with a tool error (isError).",
        annotations=ToolAnnotations(read_only_hint=True),
        structured_output=False,
    )
    def fail(reason: str = "the demo failed on purpose") -> str:
        raise ToolError(reason)

    @server.tool(
        description="Sleep for a while (to try cancelling and timeouts).",
        annotations=ToolAnnotations(read_only_hint=True),
        structured_output=False,
    )
    async def sleep(seconds: float = 30.0) -> str:
        await anyio.sleep(max(0.0, min(seconds, 800.0)))
        return f"slept {seconds:g} s"

    @server.tool(
        description="Delete a file in the demo store (destructive: asks for approval).",
        annotations=ToolAnnotations(destructive_hint=True),
        structured_output=False,
    )
    def delete_file(path: str) -> str:
        return f"pretended to delete {path}"

    del (
        echo,
        weather,
        tiny_image,
        resource_links,
        embedded_resource,
        count_down,
        fail,
        sleep,
        delete_file,
    )
    return server


if __name__ == "__main__":
    build_server().run()
