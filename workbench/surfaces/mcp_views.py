"""What an MCP server publishes besides tool results, drawn for the Portal: a resource read
(text, JSON, images described, binaries sized), a rendered prompt, and an MCP App's UI
resource (its metadata, declared CSP and permissions, and the text fallback)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from workbench.core.manifest import ToolApi
from workbench.core.mcp_catalog import (
    DEFAULT_APP_CSP,
    ContentPart,
    PromptRender,
    ResourceRead,
    lacks_text_fallback,
)
from workbench.core.result import ToolResult
from workbench.surfaces import kit
from workbench.surfaces.context import Palette

TEXT_LINES = 200
CSP_KEYS = (
    ("connectDomains", "connect"),
    ("resourceDomains", "resources"),
    ("frameDomains", "frames"),
    ("baseUriDomains", "base URI"),
)


def _part(part: ContentPart, palette: Palette) -> list[RenderableType]:
    rows: list[RenderableType] = [
        kit.join(("📄 ", palette.accent), kit.text(part.uri, palette.primary)),
        Text(part.describe(), style=palette.muted),
    ]
    if part.text is None:
        if part.width and part.height:
            rows.append(Text(f"an image, {part.width}×{part.height} px", style=palette.muted))
        else:
            rows.append(Text("binary content: not shown", style=f"italic {palette.muted}"))
        return rows
    if part.is_json:
        rows.append(kit.json_block(part.json_value, palette, max_lines=TEXT_LINES))
    else:
        rows.append(kit.capped_text(part.text, palette, max_lines=TEXT_LINES))
    if part.truncated:
        rows.append(kit.showing(len(part.text), part.chars, "character", palette))
    return rows


def resource_view(read: ResourceRead, palette: Palette) -> RenderableType:
    """A resource as read: each part (text or JSON shown, blobs described)."""
    rows: list[RenderableType] = [
        kit.join(("resource ", f"bold {palette.muted}"), kit.text(read.uri, "bold"))
    ]
    if read.error:
        rows.append(kit.error_box("Could not read", read.error, palette))
        return Group(*rows)
    for part in read.parts:
        rows.extend(_part(part, palette))
    return Group(*rows)


def prompt_view(render: PromptRender, palette: Palette) -> RenderableType:
    """A rendered prompt: its messages, role by role."""
    rows: list[RenderableType] = [
        kit.join(("prompt ", f"bold {palette.muted}"), kit.text(render.name, "bold"))
    ]
    if render.arguments:
        rows.append(kit.key_values(list(render.arguments.items()), palette))
    if render.error:
        rows.append(kit.error_box("Could not render", render.error, palette))
        return Group(*rows)
    if render.description:
        rows.append(kit.text(render.description, palette.muted))
    for message in render.messages:
        rows.append(Text(message.role, style=f"bold {palette.accent}"))
        rows.append(kit.capped_text(message.text, palette, max_lines=60))
    if not render.messages:
        rows.append(Text("(the prompt has no messages)", style=palette.muted))
    return Group(*rows)


def _domains(value: Any) -> str:
    if isinstance(value, list) and value:
        return ", ".join(str(item) for item in value[:10]) + (" …" if len(value) > 10 else "")
    return "none"


def ui_section(api: ToolApi, result: ToolResult | None, palette: Palette) -> list[RenderableType]:
    """The MCP App part of a Portal: the UI resource, what it may do, and the text fallback."""
    ui = api.ui
    if ui is None:
        return []
    rows: list[RenderableType] = [Text("app UI (MCP Apps)", style=f"bold {palette.muted}")]
    facts: list[tuple[str, object]] = [("resource", ui.resource_uri)]
    if ui.declared_as != "_meta.ui.resourceUri":
        facts.append(("declared as", f"{ui.declared_as} (not the MCP Apps key)"))
    if ui.visibility is not None:
        facts.append(("visible to", ", ".join(ui.visibility) or "no one"))
    resource = ui.resource
    if resource is not None:
        facts.append(("type", resource.mime_type or "(not given)"))
        if resource.size is not None:
            facts.append(("size", kit.plural(resource.size, "character")))
        meta = resource.meta
        csp = meta.get("csp")
        if isinstance(csp, dict):
            for key, label in CSP_KEYS:
                facts.append((f"CSP {label}", _domains(csp.get(key))))
        elif "openaiCsp" in meta:
            facts.append(("CSP (OpenAI)", kit.to_json_text(meta["openaiCsp"])))
        else:
            facts.append(("CSP", f"none declared: the host default applies ({DEFAULT_APP_CSP})"))
        permissions = meta.get("permissions")
        names = sorted(permissions) if isinstance(permissions, dict) else []
        facts.append(("permissions", ", ".join(names) or "none"))
        for key, label in (("domain", "domain"), ("prefersBorder", "prefers border")):
            if key in meta:
                facts.append((label, kit.to_json_text(meta[key])))
    else:
        facts.append(("resource", "not read (the server is not connected)"))
    rows.append(kit.key_values(facts, palette))
    for problem in resource.problems if resource is not None else []:
        rows.append(kit.join(("⚠ ", palette.warning), kit.text(problem)))
    if result is not None and result.success:
        if lacks_text_fallback(True, result.content, result.state):
            rows.append(
                kit.join(
                    ("⚠ no text fallback: ", f"bold {palette.warning}"),
                    (
                        "the result has no text content for the model or hosts without UI "
                        "(MCP Apps: tools MUST return meaningful content)",
                        "",
                    ),
                )
            )
        else:
            # The Portal draws the content above: say what it is, not draw it again.
            rows.append(
                kit.join(
                    ("text fallback: ", palette.muted),
                    ("the content above (what the model and text-only hosts read)", ""),
                )
            )
    return rows
