"""The web-browsing surfaces: result lists, page text, config hints, a Portal for the full read."""

from __future__ import annotations

from functools import partial
from typing import Any
from urllib.parse import urlsplit

from rich.console import Group, RenderableType
from rich.text import Text

from workbench.api import Palette, SurfaceContext, SurfaceSet, kit, result_render, result_state

RESULT_ROWS = 6
PAGE_LINES = 12
PORTAL_RESULTS = 100
PORTAL_LINES = 400
PORTAL_MIN_PAGE_LINES = 20

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
    state = result_state(ctx)
    suffix = None
    if ctx.error is None and isinstance(state.get("results"), list):
        total = int(state.get("total", len(state["results"])))
        suffix = Text(
            "(no results)" if total == 0 else f"({kit.plural(total, 'result')})",
            style=ctx.palette.muted,
        )
    return kit.status_line(
        ctx,
        "Searching",
        "Searched",
        kit.text(ctx.args.get("query", "")),
        suffix,
        verb_failed="Search failed",
    )


def _no_results(ctx: SurfaceContext) -> RenderableType:
    palette = ctx.palette
    return Group(
        kit.join(("∅ no results for ", palette.muted), kit.text(ctx.args.get("query", ""), "bold")),
        Text("try fewer or broader words, or another category", style=f"italic {palette.muted}"),
    )


def _search_header(ctx: SurfaceContext, state: dict[str, Any], total: int) -> Text:
    palette = ctx.palette
    header = kit.join((kit.plural(total, "result"), "bold"))
    engine = state.get("engine")
    if engine:
        header.append_text(kit.text(f" · {engine}", palette.muted))
    return header


@result_render("the search", error_view=partial(_error_view, what="Search"))
def search_render(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    results = state.get("results")
    if not isinstance(results, list):
        return None
    palette = ctx.palette
    if not results:
        return _no_results(ctx)
    total = max(int(state.get("total", len(results))), len(results))
    rows: list[RenderableType] = [_search_header(ctx, state, total)]
    for result in results[:RESULT_ROWS]:
        rows.append(_result_block(result, palette, ctx.inner_width))
    shown = min(len(results), RESULT_ROWS)
    note = kit.returned_note(shown, len(results), total, "result", palette)
    if note.plain:
        rows.append(note)
    if state.get("unresponsiveEngines"):
        rows.append(
            kit.text(
                f"unresponsive engines: {', '.join(map(str, state['unresponsiveEngines']))}",
                palette.warning,
            )
        )
    return Group(*rows)


def expected_results(ctx: SurfaceContext) -> int:
    """How many result blocks the Render will show, as far as the args can tell."""
    limit = ctx.args.get("limit")
    wanted = int(limit) if isinstance(limit, int) and limit > 0 else RESULT_ROWS
    return min(wanted, RESULT_ROWS)


def search_placeholder(ctx: SurfaceContext) -> RenderableType:
    """The Render's frame: the header line, then a skeleton per result block to come."""
    palette = ctx.palette
    rows: list[RenderableType] = [
        kit.join(
            (f"{kit.spinner(ctx.frame)} searching for ", palette.muted),
            kit.text(ctx.args.get("query", ""), "bold"),
        )
    ]
    width = ctx.inner_width
    for index in range(expected_results(ctx)):
        share = (7, 5, 6, 8, 4, 6)[index % 6]
        rows.extend(kit.skeleton_lines((width * share // 10, width * 4 // 10, width - 4), palette))
    return Group(*rows)


# --- crawling -------------------------------------------------------------------------------


def crawl_single_inspector(ctx: SurfaceContext) -> RenderableType:
    state = result_state(ctx)
    pages = state.get("results") if isinstance(state.get("results"), list) else []
    suffix = None
    subject = kit.text(short_url(str(ctx.args.get("url", "")), 200))
    if pages and ctx.error is None:
        page = pages[0]
        suffix = Text(
            "(no readable text)"
            if not page.get("content")
            else f"({kit.plural(int(page.get('length', 0)), 'character')})",
            style=ctx.palette.muted,
        )
    return kit.status_line(
        ctx, "Reading page", "Read page", subject, suffix, verb_failed="Could not read page"
    )


def crawl_multi_inspector(ctx: SurfaceContext) -> RenderableType:
    urls = ctx.list_arg("urls")
    state = result_state(ctx)
    suffix = None
    subject = kit.text(kit.plural(len(urls), "page") if urls else "")
    if "succeeded" in state and ctx.error is None:
        # "Read" is true of the pages that were read: "Read: 2 of 3 pages (1 failed)".
        subject = kit.text(kit.part_of(int(state["succeeded"]), len(urls), "page"))
        if state.get("failed"):
            suffix = Text(f"({state['failed']:,} failed)", style=ctx.palette.error)
    return kit.status_line(
        ctx, "Reading", "Read", subject, suffix, verb_failed="Could not read pages"
    )


def _page_view(
    page: dict[str, Any], palette: Palette, width: int, max_lines: int, *, preview: bool = False
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
    title.no_wrap = True
    title.overflow = "ellipsis"
    meta = kit.text(short_url(str(page.get("url", "")), width - 24), palette.primary)
    meta.append(f" · {kit.plural(int(page.get('length', 0)), 'character')}", style=palette.muted)
    meta.no_wrap = True
    meta.overflow = "ellipsis"
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
        rows.append(
            kit.capped_text(content, palette, max_lines=max_lines, width=width if preview else None)
        )
    if page.get("truncated"):
        rows.append(
            Text(
                f"page capped: the model received {len(content):,} of "
                f"{kit.plural(int(page.get('length', 0)), 'character')}",
                style=f"italic {palette.warning}",
            )
        )
    return Group(*rows)


@result_render("the page read", error_view=partial(_error_view, what="Reading the page"))
def crawl_single_render(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    pages = state.get("results")
    if not isinstance(pages, list) or not pages:
        return None
    return _page_view(pages[0], ctx.palette, ctx.inner_width, PAGE_LINES, preview=True)


def _multi_header(ctx: SurfaceContext, state: dict[str, Any], pages: int) -> Text:
    palette = ctx.palette
    header = kit.join(
        (f"{kit.part_of(int(state.get('succeeded', 0)), pages, 'page')} read", "bold")
    )
    if state.get("failed"):
        header.append(f" · {state['failed']} failed", style=f"bold {palette.error}")
    return header


@result_render("the crawl")
def crawl_multi_render(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    pages = state.get("results")
    if not isinstance(pages, list):
        return _error_view(ctx, "Reading the pages")
    palette = ctx.palette
    rows: list[RenderableType] = [_multi_header(ctx, state, len(pages))]
    for page in pages[:RESULT_ROWS]:
        rows.append(_page_view(page, palette, ctx.inner_width, 0))
    if len(pages) > RESULT_ROWS:
        rows.append(
            kit.more_note(len(pages) - RESULT_ROWS, RESULT_ROWS, len(pages), "page", palette)
        )
    return Group(*rows)


def crawl_single_placeholder(ctx: SurfaceContext) -> RenderableType:
    """The page view's frame: title and address, then the lines of text to come."""
    palette = ctx.palette
    width = ctx.inner_width
    rows: list[RenderableType] = [
        kit.join(
            (f"{kit.spinner(ctx.frame)} reading ", palette.muted),
            kit.text(short_url(str(ctx.args.get("url", "")), width - 12), "bold"),
        ),
        kit.skeleton_bar(width * 4 // 10, palette),
    ]
    shares = (9, 10, 8, 10, 7, 9, 10, 6, 9, 10, 8, 5)
    rows.extend(kit.skeleton_lines([width * share // 10 for share in shares[:PAGE_LINES]], palette))
    return Group(*rows)


def _page_rows(
    ctx: SurfaceContext, urls: list[Any], done: dict[str, tuple[str, str]]
) -> list[RenderableType]:
    """Two rows per page, like the Render: what it is, then how it went."""
    palette = ctx.palette
    rows: list[RenderableType] = []
    for url in urls[:RESULT_ROWS]:
        status, detail = done.get(str(url), (None, ""))
        mark, colour = ("✓ ", palette.success) if status == "ok" else ("✗ ", palette.error)
        first = kit.join(
            (mark if status else f"{kit.spinner(ctx.frame)} ", colour if status else palette.muted),
            kit.text(short_url(str(url), ctx.inner_width - 4), "bold"),
        )
        first.no_wrap = True
        first.overflow = "ellipsis"
        rows.append(first)
        if status is None:
            rows.append(kit.skeleton_bar(ctx.inner_width * 4 // 10, palette))
        else:
            rows.append(kit.text(detail or status, palette.muted))
    if len(urls) > RESULT_ROWS:
        rows.append(kit.more_note(len(urls) - RESULT_ROWS, RESULT_ROWS, len(urls), "page", palette))
    return rows


def crawl_multi_placeholder(ctx: SurfaceContext) -> RenderableType:
    urls = ctx.list_arg("urls")
    header = kit.join(
        (f"{kit.spinner(ctx.frame)} reading {kit.plural(len(urls), 'page')}", ctx.palette.muted)
    )
    return Group(header, *_page_rows(ctx, urls, {}))


def crawl_multi_streaming(ctx: SurfaceContext) -> RenderableType:
    """The Render's list, filling in: each page turns ✓ or ✗ as the crawler reports it."""
    palette = ctx.palette
    urls = ctx.list_arg("urls")
    # The crawler reports "✓ URL (N characters)" or "✗ URL: ErrorType" per page.
    done: dict[str, tuple[str, str]] = {}
    for line in ctx.output.tail(ctx.output.line_count or 1):
        text = line.text
        if text.startswith("✓ "):
            url, _, detail = text[2:].partition(" (")
            done[url] = ("ok", detail.rstrip(")"))
        elif text.startswith("✗ "):
            url, _, detail = text[2:].partition(": ")
            done[url] = ("failed", detail)
    progress = ctx.state.progress
    fraction = progress.fraction if progress is not None else None
    header = kit.join(
        (f"{kit.spinner(ctx.frame)} {len(done)} of {kit.plural(len(urls), 'page')} read ", "bold")
    )
    header.append_text(kit.progress_bar(fraction, min(20, ctx.inner_width // 4), palette))
    header.no_wrap = True
    header.overflow = "ellipsis"
    return Group(header, *_page_rows(ctx, urls, done))


# --- Portal ---------------------------------------------------------------------------------


def portal(ctx: SurfaceContext) -> RenderableType | None:
    state = result_state(ctx)
    palette = ctx.palette
    notice = kit.portal_ending(ctx)
    if notice is not None:
        return notice
    if ctx.error is not None:
        failed = _error_view(ctx, ctx.api_name)
        if ctx.api_name != "crawlMultiPages" or failed is None:
            return failed
    if ctx.api_name == "search":
        results = state.get("results")
        if not isinstance(results, list):
            return None
        total = max(int(state.get("total", len(results))), len(results))
        title = kit.join(("🔍 ", ""), kit.text(ctx.args.get("query", ""), "bold"))
        if not results:
            return Group(title, _no_results(ctx))
        rows: list[RenderableType] = [title, _search_header(ctx, state, total)]
        for index, result in enumerate(results[:PORTAL_RESULTS], start=1):
            rows.append(Text(f"{index}.", style=palette.muted))
            rows.append(_result_block(result, palette, ctx.inner_width, snippet_lines=3))
        shown = min(len(results), PORTAL_RESULTS)
        note = kit.returned_note(shown, len(results), total, "result", palette)
        if note.plain:
            rows.append(note)
        return Group(*rows)
    pages = state.get("results")
    if not isinstance(pages, list):
        return None
    # A side panel, not an archive: every page gets its share of the lines.
    per_page = max(PORTAL_MIN_PAGE_LINES, PORTAL_LINES // max(1, len(pages)))
    rows = []
    for page in pages:
        rows.append(_page_view(page, palette, ctx.inner_width, per_page))
        rows.append(Text("─" * max(10, ctx.inner_width // 2), style=palette.divider))
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
        "crawlSinglePage": crawl_single_placeholder,
        "crawlMultiPages": crawl_multi_placeholder,
    },
    streamings={"crawlMultiPages": crawl_multi_streaming},
    portal=portal,
)
