"""The web-browsing runtime: a search service and a page fetcher, injected.

The model reads a page's text as a browser showed it (``clean_output``): escape codes in a
page are noise there and are dropped; the state keeps them, and the card shows them as
visible marks.
"""

from __future__ import annotations

import asyncio
from typing import Any

from workbench.api import (
    BaseRuntime,
    CallContext,
    LimitExceeded,
    ToolError,
    ToolResult,
    clean_output,
    to_result,
)
from workbench.tools.web_browsing.services import (
    MAX_PAGE_CHARS,
    PageFetcher,
    SearchService,
    WebError,
)

CONTENT_RESULTS = 10
CRAWL_CONCURRENCY = 4


def _error(error: WebError, state: Any = None) -> ToolResult:
    return to_result(
        success=False,
        content=error.message,
        state=state,
        error=ToolError(type=error.error_type, message=error.message, body=error.body or None),
    )


class WebBrowsingRuntime(BaseRuntime):
    api_names = ("search", "crawlSinglePage", "crawlMultiPages")

    def __init__(self, search_service: SearchService, fetcher: PageFetcher) -> None:
        self.search_service = search_service
        self.fetcher = fetcher

    async def search(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        query = str(args.get("query", "")).strip()
        try:
            response = await self.search_service.search(
                query,
                categories=list(args.get("categories") or []),
                time_range=args.get("timeRange"),
                limit=int(args.get("limit", 10)),
            )
        except WebError as error:
            return _error(error, {"engine": self.search_service.name})
        state = {
            "results": [result.to_state() for result in response.results],
            "total": response.total,
            "engine": response.engine,
        }
        if response.unresponsive:
            state["unresponsiveEngines"] = response.unresponsive
        if not response.results:
            return to_result(success=True, content=f"No results for {query!r}.", state=state)
        lines = []
        for index, result in enumerate(response.results[:CONTENT_RESULTS], start=1):
            lines.append(
                f"{index}. {clean_output(result.title)}\n   {clean_output(result.url)}\n "
                f"  {clean_output(result.content)[:200]}"
            )
        more = (
            f"\n({response.total} results in all; "
            f"showing {min(len(response.results), CONTENT_RESULTS)})"
            if response.total > CONTENT_RESULTS
            else ""
        )
        return to_result(
            success=True, content=f"Results for {query!r}:\n" + "\n".join(lines) + more, state=state
        )

    async def _crawl_one(self, url: str) -> dict[str, Any]:
        try:
            page = await self.fetcher.fetch(url)
        except WebError as error:
            return {
                "url": url,
                "error": {"type": error.error_type, "message": error.message},
                "status": error.body.get("status"),
            }
        if "html" in page.content_type or page.body.lstrip()[:1] == "<":
            from workbench.tools.web_browsing.extract import extract_readable  # html.parser

            title, text = extract_readable(page.body)
        else:
            title, text = "", page.body
        length = len(text)
        truncated = length > MAX_PAGE_CHARS
        result = {
            "url": url,
            "finalUrl": page.final_url,
            "status": page.status,
            "contentType": page.content_type.split(";")[0],
            "title": title,
            "content": text[:MAX_PAGE_CHARS],
            "length": length,
            "truncated": truncated or page.truncated_body,
        }
        if page.body_limit is not None:
            result["bodyLimit"] = page.body_limit
        return result

    def _page_text(self, page: dict[str, Any]) -> str:
        url = clean_output(page["url"])
        if "error" in page:
            return (
                f"{url}: FAILED ({page['error']['type']}): {clean_output(page['error']['message'])}"
            )
        if not page["content"]:
            return f"{url}: no readable text (the page may need JavaScript)."
        note = ""
        if page["length"] > MAX_PAGE_CHARS:
            note = f"\n[truncated: showing {MAX_PAGE_CHARS:,} of {page['length']:,} characters]"
            if page.get("bodyLimit"):
                cut = LimitExceeded("max_body_bytes", page["bodyLimit"], what="the page")
                note += f"\n[{cut}]"
        elif page["truncated"] and page.get("bodyLimit"):
            cut = LimitExceeded("max_body_bytes", page["bodyLimit"], what="the page")
            note = f"\n[truncated: showing its first {page['length']:,} characters; {cut}]"
        elif page["truncated"]:
            note = (
                "\n[truncated: the page was too large to download whole; showing "
                f"its first {page['length']:,} characters]"
            )
        title = clean_output(page["title"]) or url
        return f"# {title}\n{url}\n\n{clean_output(page['content'])}{note}"

    async def crawlSinglePage(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        url = str(args.get("url", ""))
        page = await self._crawl_one(url)
        state = {"results": [page]}
        if "error" in page:
            return to_result(
                success=False,
                content=clean_output(page["error"]["message"]),
                state=state,
                error=ToolError(
                    type=page["error"]["type"],
                    message=page["error"]["message"],
                    body={"url": url, "status": page.get("status")},
                ),
            )
        return to_result(success=True, content=self._page_text(page), state=state)

    async def crawlMultiPages(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        urls = [str(url) for url in args.get("urls") or []]
        semaphore = asyncio.Semaphore(CRAWL_CONCURRENCY)
        done = 0

        async def one(url: str) -> dict[str, Any]:
            nonlocal done
            async with semaphore:
                ctx.stdout(f"→ fetching {url}\n")
                page = await self._crawl_one(url)
            done += 1
            if "error" in page:
                ctx.stderr(f"✗ {url}: {page['error']['type']}\n")
            else:
                ctx.stdout(
                    f"✓ {url} ({page['length']:,} "
                    f"characters{', truncated' if page['truncated'] else ''})\n"
                )
            noun = "page" if len(urls) == 1 else "pages"
            ctx.progress(done, len(urls), f"{done} of {len(urls)} {noun}")
            return page

        pages = await asyncio.gather(*(one(url) for url in urls))
        failed = sum(1 for page in pages if "error" in page)
        state = {"results": list(pages), "succeeded": len(pages) - failed, "failed": failed}
        content = "\n\n---\n\n".join(self._page_text(page) for page in pages)
        if pages and failed == len(pages):
            message = "the page failed" if len(pages) == 1 else f"all {len(pages)} pages failed"
            return to_result(
                success=False,
                content=f"{message}.\n{content}",
                state=state,
                error=ToolError(type="AllPagesFailed", message=message),
            )
        return to_result(success=True, content=content, state=state)
