"""MCP Apps: a tool with an app UI still speaks to text-only hosts and to the model."""

from __future__ import annotations

from collections.abc import Iterator

from workbench.audit.model import RenderKey, Subject
from workbench.audit.rules import rule
from workbench.core.mcp_catalog import lacks_text_fallback


@rule(11, "app-ui-text-fallback")
def check_text_fallback(subject: Subject) -> Iterator[tuple[RenderKey, str, str]]:
    """A tool that declares an app UI (``_meta.ui.resourceUri``) returns text too: its result
    has a text block with words for the model and for hosts that cannot show the UI, not only
    structured content, images or links (MCP Apps: tools MUST return meaningful content)."""
    cards = subject.cards(phase=subject.ending)
    if not cards:
        return
    widest = max(cards, key=lambda rendered: rendered.key.width)
    ctx = widest.ctx
    api = ctx.api
    result = ctx.result
    if api is None or api.ui is None or result is None:
        return
    if lacks_text_fallback(result.success, result.content, result.state):
        yield (
            widest.key,
            f"{ctx.api_name} has an app UI ({api.ui.resource_uri}) but this result has no "
            "text for the model or for hosts that cannot show the UI",
            "return a text block that says what the UI shows (a sentence and the key "
            "numbers), beside the structured content",
        )
