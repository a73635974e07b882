"""Example tool's runtime: one async method per API.

Replace the sample items and the lookup with the tool's real work, and keep the shape:
read the args, do the work, and build every result with ``to_result``, so ``content``
(what the model reads) is never empty and ``state`` (what the surfaces read) survives a
failure. ``ctx.stdout(...)`` streams output to the Streaming surface while a call runs.
"""

from __future__ import annotations

from typing import Any

from workbench.api import BaseRuntime, CallContext, ToolError, ToolResult, to_result

from .manifest import MANIFEST

DEFAULT_LIMIT = 5

SAMPLE_ITEMS: tuple[dict[str, str], ...] = (
    {"title": "Getting started", "detail": "Install the tool and make a first call."},
    {"title": "Configuration", "detail": "Settings read from the environment."},
    {"title": "Limits", "detail": "How many items one call returns, and why."},
    {"title": "Errors", "detail": "What each error type means and how to recover."},
    {"title": "Changelog", "detail": "What changed in each release of the tool."},
    {"title": "Glossary", "detail": "The words the tool uses, explained."},
)
"""Stand-in data: the tool's real source goes here (files, a web API, a database)."""


def find(query: str, limit: int) -> dict[str, Any]:
    """The result state: up to ``limit`` items that contain ``query``, and the count."""
    needle = query.casefold()
    matches = [
        item
        for item in SAMPLE_ITEMS
        if needle in item["title"].casefold() or needle in item["detail"].casefold()
    ]
    return {"query": query, "items": matches[:limit], "total": len(matches)}


def summary(state: dict[str, Any]) -> str:
    """What the model reads: the count, the cut if any, and the titles."""
    query, items, total = state["query"], state["items"], state["total"]
    if total == 0:
        return f"No items match {query!r}."
    found = f"Found {total} {'item' if total == 1 else 'items'} for {query!r}"
    if len(items) < total:
        found += f"; showing the first {len(items)}"
    return f"{found}: " + "; ".join(item["title"] for item in items) + "."


class ExampleToolRuntime(BaseRuntime):
    """Serves the manifest's APIs; services (workspace, settings) come via __init__."""

    api_names = tuple(MANIFEST.api_names())

    # >>> per api
    async def findItems(
        self,
        args: dict[str, Any],
        ctx: CallContext,
    ) -> ToolResult:
        """The items that contain ``query``, at most ``limit`` of them."""
        del ctx
        query = str(args.get("query", "")).strip()
        limit = int(args.get("limit", DEFAULT_LIMIT))
        if not query:
            return to_result(
                success=False,
                content="Could not look up items: the query is blank.",
                state={"query": query, "stage": "read the query"},
                error=ToolError(type="BlankQuery", message="the query is blank"),
            )
        state = find(query, limit)
        return to_result(success=True, content=summary(state), state=state)

    # <<< per api
