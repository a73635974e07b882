"""The web: a fetch as its URL, status and the text the model read; a search as its query
and results."""

from __future__ import annotations

from typing import Any

from workbench.agents.surfaces.common import (
    after_ending,
    arg_text,
    bars,
    count_suffix,
    empty_line,
    header,
    model_text,
    muted,
    pending,
    state_of,
    urls_in,
)
from workbench.api import Group, RenderableType, SurfaceContext, kit

TEXT_LINES = 5
RESULT_ROWS = 5
"""A card shows this much of a page, an answer or the results: a search may come back with one
line or fifty results, and its Placeholder (the header and two bars; a fetch's, with the
question, three) stays within the audit's four rows of both (rule 8). The Portal shows all."""


def url_of(ctx: SurfaceContext) -> str:
    url = arg_text(ctx, "url")
    if url:
        return url
    # gemini-cli's web_fetch takes URLs inside its prompt.
    prompt = arg_text(ctx, "prompt")
    return next(iter(urls_in(prompt)), prompt)


def fetch_inspector(ctx: SurfaceContext) -> RenderableType:
    state = state_of(ctx)
    code = state.get("code")
    suffix = None
    if isinstance(code, int) and ctx.error is None:
        suffix = muted(ctx, f"({code} {state.get('codeText', '')})".replace(" )", ")"))
    return kit.status_line(
        ctx, "Fetching", "Fetched", kit.text(url_of(ctx)), suffix, verb_failed="Could not fetch"
    )


@after_ending("the fetch", "Fetching")
def fetch_render(ctx: SurfaceContext) -> RenderableType | None:
    state = state_of(ctx)
    text = state.get("result") if isinstance(state.get("result"), str) else model_text(ctx)
    question = arg_text(ctx, "prompt") if arg_text(ctx, "url") else ""
    rows: list[RenderableType] = [header(kit.text(url_of(ctx), "bold"))]
    if question:
        rows.append(header(("asked: ", ctx.palette.muted), kit.text(question)))
    if not str(text).strip():
        rows.append(empty_line(ctx, "The page gave no text"))
    else:
        rows.append(
            kit.capped_text(str(text), ctx.palette, max_lines=TEXT_LINES, width=ctx.inner_width)
        )
    return Group(*rows)


def fetch_placeholder(ctx: SurfaceContext) -> RenderableType:
    return Group(pending(ctx, "fetching", url_of(ctx)), *bars(ctx, 3))


def _results(ctx: SurfaceContext) -> list[tuple[str, str]]:
    """(title, url) of each result the state lists (Claude Code nests them in ``content``)."""
    found: list[tuple[str, str]] = []
    raw: Any = state_of(ctx).get("results")
    for item in raw if isinstance(raw, list) else []:
        if isinstance(item, dict) and isinstance(item.get("content"), list):
            found.extend(
                (str(link.get("title", "")), str(link.get("url", "")))
                for link in item["content"]
                if isinstance(link, dict)
            )
        elif isinstance(item, dict):
            found.append((str(item.get("title", "")), str(item.get("url", ""))))
    return found


def unrecorded(ctx: SurfaceContext) -> bool:
    """Codex's own web search: its rollout records the query, never the results, so an empty
    result is no sign that nothing was found."""
    return ctx.tool == "codex" and not _results(ctx) and not model_text(ctx).strip()


def search_inspector(ctx: SurfaceContext) -> RenderableType:
    results = _results(ctx)
    total = len(results) if results or model_text(ctx).strip() == "" else None
    if unrecorded(ctx):
        total = None
    return kit.status_line(
        ctx,
        "Searching the web for",
        "Searched the web for",
        kit.text(arg_text(ctx, "query")),
        count_suffix(ctx, total if ctx.result is not None else None, "result", "no results"),
        verb_failed="Could not search the web for",
    )


@after_ending("the search", "Searching")
def search_render(ctx: SurfaceContext) -> RenderableType | None:
    results = _results(ctx)
    query = arg_text(ctx, "query")
    if unrecorded(ctx):
        return empty_line(
            ctx, "The results went to the model; Codex's session keeps the query only"
        )
    if not results and not model_text(ctx).strip():
        return empty_line(ctx, f"No results for {query}")
    rows: list[RenderableType] = []
    if results:
        shown, _ = kit.cap_items(results, RESULT_ROWS)
        rows.append(
            header(
                (f"{kit.plural(len(results), 'result')} for ", ctx.palette.muted),
                kit.text(query, "bold"),
            )
        )
        table = kit.rows_table(
            ([kit.text(title), muted(ctx, url)] for title, url in shown),
            ctx.palette,
            width=ctx.inner_width,
        )
        rows.append(table)
        if len(results) > len(shown):
            rows.append(kit.showing(len(shown), len(results), "result", ctx.palette))
        return Group(*rows)
    rows.append(header(("answer for ", ctx.palette.muted), kit.text(query, "bold")))
    rows.append(
        kit.capped_text(model_text(ctx), ctx.palette, max_lines=TEXT_LINES, width=ctx.inner_width)
    )
    return Group(*rows)


def search_placeholder(ctx: SurfaceContext) -> RenderableType:
    return Group(pending(ctx, "searching the web for", arg_text(ctx, "query")), *bars(ctx, 2))
