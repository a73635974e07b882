"""The web-browsing surfaces: result lists, page text, config hints, a Portal for the full read."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from rich.console import Group, RenderableType
from rich.text import Text

from workbench.surfaces import kit
from workbench.surfaces.context import Palette, SurfaceContext
from workbench.surfaces.registry import SurfaceSet

RESULT_ROWS = 6
PAGE_LINES = 12
PORTAL_RESULTS = 200
PORTAL_LINES = 500

HINTS = {
    "RequestRefused": "The address is private, loopback or link-local. Add it to the allow-list "
    "(WORKBENCH_WEB_ALLOW) only if you trust it.",
    "PageNotFound": "Offline mode only knows the bundled pages; set WORKBENCH_WEB_ONLINE=1 "
    "to fetch the web.",
    "HttpError": "The server answered with an error status; check the URL.",
    "FetchTimeout": "The site is slow or unreachable; try again or another source.",
    "TooManyRedirects": "The URL redirects in a loop.",
    "SearchUnavailable": "The search service could not be reached.",
}


def _state(ctx: SurfaceContext) -> dict[str, Any]:
    return ctx.result_state if isinstance(ctx.result_state, dict) else {}


def short_url(url: str, limit: int = 60) -> str:
    parts = urlsplit(url)
    text = (parts.netloc + parts.path) if parts.netloc else url
    return kit.truncate_line(text, limit)


def _result_block(
    result: dict[str, Any], palette: Palette, width: int, snippet_lines: int = 1
) -> RenderableType:
    title = kit.text(result.get("title") or result.get("url", ""), "bold")
    title.no_wrap = True
    title.overflow = "ellipsis"
    meta = kit.text(short_url(str(result.get("url", "")), width - 20), palette.primary)
    if result.get("publishedDate"):
        meta.append_text(kit.text(f" · {result['publishedDate']}", palette.muted))
    meta.no_wrap = True
    meta.overflow = "ellipsis"
    rows: list[RenderableType] = [title, meta]
    snippet = str(result.get("content") or "").replace("\n", " ").strip()
    if snippet:
        rows.append(
            kit.text(kit.truncate_line(snippet, (width - 2) * snippet_lines), palette.muted)
        )
    return Group(*rows)


def _error_view(ctx: SurfaceContext, what: str) -> RenderableType | None:
    error = ctx.error
    if error is None:
        return None
    palette = ctx.palette
    body = error.body if isinstance(error.body, dict) else {}
    if error.type == "PluginSettingsInvalid":
        setting = body.get("setting", "WORKBENCH_SEARXNG_URL")
        lines = Text()
        lines.append("Search is not configured. ", style="bold")
        lines.append_text(kit.text(error.message))
        lines.append("\n\nTo fix it, either:\n", style=palette.muted)
        if setting == "search.formats":
            lines.append("  · add ")
            lines.append("json", style=f"bold {palette.accent}")
            lines.append(" to search.formats in the SearXNG instance's settings.yml, or\n")
        else:
            lines.append("  · set ")
            lines.append(str(setting), style=f"bold {palette.accent}")
            lines.append(" to a SearXNG URL", style="")
            example = body.get("example")
            if isinstance(example, str):
                lines.append_text(kit.text(f" (e.g. {example})", palette.muted))
            lines.append(", or\n")
        lines.append("  · unset WORKBENCH_WEB_ONLINE to use the bundled offline search.")
        return kit.notice_box("⚙ search settings needed", lines, palette)
    details: list[RenderableType] = []
    url = body.get("url") or ctx.args.get("url")
    if isinstance(url, str) and url:
        details.append(kit.join(("url ", palette.muted), kit.text(url)))
    hint = HINTS.get(error.type)
    if hint:
        details.append(Text(f"hint: {hint}", style=f"italic {palette.muted}"))
    return kit.error_box(f"{what} failed · {error.type}", error.message, palette, details=details)


# --- search ---------------------------------------------------------------------------------


def search_inspector(ctx: SurfaceContext) -> RenderableType:
    state = _state(ctx)
    suffix = None
    if ctx.error is None and isinstance(state.get("results"), list):
        total = int(state.get("total", len(state["results"])))
        suffix = Text("(no results)" if total == 0 else f"({total:,})", style=ctx.palette.muted)
    return kit.status_line(
        ctx,
        "Searching",
        "Searched",
        kit.text(ctx.args.get("query", "")),
        suffix,
        verb_failed="Search failed",
    )


def search_render(ctx: SurfaceContext) -> RenderableType | None:
    failed = _error_view(ctx, "Search")
    if failed is not None:
        return failed
    state = _state(ctx)
    results = state.get("results")
    if not isinstance(results, list):
        return None
    palette = ctx.palette
    query = str(ctx.args.get("query", ""))
    if not results:
        return Group(
            kit.join(("∅ no results for ", palette.muted), kit.text(query, "bold")),
            Text(
                "try fewer or broader words, or another category", style=f"italic {palette.muted}"
            ),
        )
    total = int(state.get("total", len(results)))
    header = kit.join(
        (f"{total:,} result{'s' if total != 1 else ''}", "bold"),
        (f" · {state.get('engine', 'search')}", palette.muted),
    )
    rows: list[RenderableType] = [header]
    for result in results[:RESULT_ROWS]:
        rows.append(_result_block(result, palette, ctx.inner_width))
    shown = min(len(results), RESULT_ROWS)
    if total > shown:
        rows.append(kit.more_note(total - shown, shown, total, "results", palette))
    if state.get("unresponsiveEngines"):
        rows.append(
            kit.text(
                f"unresponsive engines: {', '.join(map(str, state['unresponsiveEngines']))}",
                palette.warning,
            )
        )
    return Group(*rows)


def search_placeholder(ctx: SurfaceContext) -> RenderableType:
    palette = ctx.palette
    rows: list[RenderableType] = [
        kit.join(
            (f"{kit.spinner(ctx.frame)} searching for ", palette.muted),
            kit.text(ctx.args.get("query", ""), "bold"),
        )
    ]
    width = ctx.inner_width
    for share in (7, 5, 6):
        rows.append(kit.skeleton_bar(width * share // 10, palette))
        rows.append(kit.skeleton_bar(width * 3 // 10, palette))
    return Group(*rows)


# --- crawling -------------------------------------------------------------------------------


def crawl_single_inspector(ctx: SurfaceContext) -> RenderableType:
    state = _state(ctx)
    pages = state.get("results") if isinstance(state.get("results"), list) else []
    suffix = None
    subject = kit.text(short_url(str(ctx.args.get("url", "")), 50))
    if pages and ctx.error is None:
        page = pages[0]
        suffix = Text(
            "(no readable text)"
            if not page.get("content")
            else f"({int(page.get('length', 0)):,} characters)",
            style=ctx.palette.muted,
        )
    return kit.status_line(
        ctx, "Reading page", "Read page", subject, suffix, verb_failed="Could not read page"
    )


def crawl_multi_inspector(ctx: SurfaceContext) -> RenderableType:
    urls = ctx.args.get("urls") if isinstance(ctx.args.get("urls"), list) else []
    state = _state(ctx)
    suffix = None
    if "succeeded" in state:
        suffix = Text(
            f"({state['succeeded']} read"
            + (f", {state['failed']} failed)" if state.get("failed") else ")"),
            style=ctx.palette.error if state.get("failed") else ctx.palette.muted,
        )
    subject = kit.text(f"{len(urls)} page{'s' if len(urls) != 1 else ''}" if urls else "")
    return kit.status_line(
        ctx, "Reading", "Read", subject, suffix, verb_failed="Could not read pages"
    )


def _page_view(
    page: dict[str, Any], palette: Palette, width: int, max_lines: int
) -> RenderableType:
    if "error" in page:
        error = page["error"]
        line = kit.join(
            ("✗ ", palette.error),
            kit.text(short_url(str(page.get("url", "")), width - 20)),
            (" · ", palette.muted),
            kit.text(f"{error.get('type')}: {error.get('message')}", palette.error),
        )
        return line
    title = kit.join(
        ("✓ ", palette.success),
        kit.text(page.get("title") or short_url(str(page.get("url", ""))), "bold"),
    )
    meta = kit.text(short_url(str(page.get("url", "")), width - 24), palette.primary)
    meta.append(f" · {int(page.get('length', 0)):,} characters", style=palette.muted)
    rows: list[RenderableType] = [title, meta]
    content = str(page.get("content") or "")
    if not content:
        rows.append(
            Text(
                "∅ no readable text on this page (it may need JavaScript)",
                style=f"italic {palette.muted}",
            )
        )
        return Group(*rows)
    if max_lines:
        rows.append(kit.capped_text(content, palette, max_lines=max_lines))
    if page.get("truncated"):
        rows.append(
            Text(
                f"page capped: the model received {len(content):,} "
                f"of {int(page.get('length', 0)):,} "
                "characters",
                style=f"italic {palette.warning}",
            )
        )
    return Group(*rows)


def crawl_single_render(ctx: SurfaceContext) -> RenderableType | None:
    failed = _error_view(ctx, "Reading the page")
    if failed is not None:
        return failed
    pages = _state(ctx).get("results")
    if not isinstance(pages, list) or not pages:
        return None
    return _page_view(pages[0], ctx.palette, ctx.inner_width, PAGE_LINES)


def crawl_multi_render(ctx: SurfaceContext) -> RenderableType | None:
    state = _state(ctx)
    pages = state.get("results")
    if not isinstance(pages, list):
        return _error_view(ctx, "Reading the pages")
    palette = ctx.palette
    header = kit.join((f"{state.get('succeeded', 0)} of {len(pages)} pages read", "bold"))
    if state.get("failed"):
        header.append(f" · {state['failed']} failed", style=f"bold {palette.error}")
    rows: list[RenderableType] = [header]
    for page in pages[:RESULT_ROWS]:
        rows.append(_page_view(page, palette, ctx.inner_width, 0))
    if len(pages) > RESULT_ROWS:
        rows.append(
            kit.more_note(len(pages) - RESULT_ROWS, RESULT_ROWS, len(pages), "pages", palette)
        )
    return Group(*rows)


def crawl_placeholder(ctx: SurfaceContext) -> RenderableType:
    palette = ctx.palette
    requested = ctx.args.get("urls")
    urls = requested if isinstance(requested, list) else [ctx.args.get("url", "")]
    rows: list[RenderableType] = []
    for url in urls[:RESULT_ROWS]:
        rows.append(
            kit.join(
                (f"{kit.spinner(ctx.frame)} ", palette.muted),
                kit.text(short_url(str(url), ctx.inner_width - 4), "bold"),
            )
        )
        rows.append(kit.skeleton_bar(ctx.inner_width * 6 // 10, palette))
    if len(urls) > RESULT_ROWS:
        rows.append(
            kit.more_note(len(urls) - RESULT_ROWS, RESULT_ROWS, len(urls), "pages", palette)
        )
    return Group(*rows)


def crawl_multi_streaming(ctx: SurfaceContext) -> RenderableType:
    palette = ctx.palette
    progress = ctx.state.progress
    fraction = progress.fraction if progress is not None else None
    bar = kit.progress_bar(fraction, min(40, ctx.inner_width - 16), palette)
    if progress is not None and progress.message:
        bar.append_text(kit.text(f"  {progress.message}", palette.muted))
    rows: list[RenderableType] = [bar]
    rows.extend(kit.output_tail(ctx.output, 10, palette))
    return Group(*rows)


# --- Portal ---------------------------------------------------------------------------------


def portal(ctx: SurfaceContext) -> RenderableType | None:
    state = _state(ctx)
    palette = ctx.palette
    if ctx.error is not None:
        failed = _error_view(ctx, ctx.api_name)
        if ctx.api_name != "crawlMultiPages" or failed is None:
            return failed
    if ctx.api_name == "search":
        results = state.get("results")
        if not isinstance(results, list):
            return None
        total = int(state.get("total", len(results)))
        rows: list[RenderableType] = [
            kit.join(
                ("🔍 ", ""),
                kit.text(ctx.args.get("query", ""), "bold"),
                (f" · {total:,} results · {state.get('engine', '')}", palette.muted),
            )
        ]
        for index, result in enumerate(results[:PORTAL_RESULTS], start=1):
            rows.append(Text(f"{index}.", style=palette.muted))
            rows.append(_result_block(result, palette, ctx.inner_width, snippet_lines=3))
        shown = min(len(results), PORTAL_RESULTS)
        if total > shown:
            rows.append(kit.showing(shown, total, "results (the service returned these)", palette))
        return Group(*rows)
    pages = state.get("results")
    if not isinstance(pages, list):
        return None
    rows = []
    for page in pages:
        rows.append(_page_view(page, palette, ctx.inner_width, PORTAL_LINES))
        rows.append(Text("─" * max(10, ctx.inner_width // 2), style=palette.muted))
    return Group(*rows)


SURFACES = SurfaceSet(
    inspectors={
        "search": search_inspector,
        "crawlSinglePage": crawl_single_inspector,
        "crawlMultiPages": crawl_multi_inspector,
    },
    renders={
        "search": search_render,
        "crawlSinglePage": crawl_single_render,
        "crawlMultiPages": crawl_multi_render,
    },
    placeholders={
        "search": search_placeholder,
        "crawlSinglePage": crawl_placeholder,
        "crawlMultiPages": crawl_placeholder,
    },
    streamings={"crawlMultiPages": crawl_multi_streaming},
    portal=portal,
)
