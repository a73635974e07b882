"""Search and fetch services for web-browsing, injected into the runtime.

Two of each: offline ones over a small bundled corpus (the default, so the demo needs no
network) and online ones (a SearXNG-compatible JSON endpoint, and pages fetched with httpx
through the SSRF guard).
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from workbench.api import LimitExceeded, Limits

if TYPE_CHECKING:
    import httpx

CORPUS_FILE = Path(__file__).with_name("corpus.json")
ARCHIVE_MESSAGES = 320
MAX_PAGE_CHARS = 25_000


class WebError(Exception):
    """A search or fetch failed; ``error_type`` is stable, ``body`` helps the Render."""

    def __init__(self, error_type: str, message: str, body: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.error_type = error_type
        self.message = message
        self.body = body or {}


@dataclass(frozen=True)
class SearchResult:
    title: str
    url: str
    content: str
    engine: str
    category: str = "general"
    published: str | None = None
    score: float = 0.0

    def to_state(self) -> dict[str, Any]:
        state: dict[str, Any] = {
            "title": self.title,
            "url": self.url,
            "content": self.content,
            "engine": self.engine,
            "category": self.category,
        }
        if self.published:
            state["publishedDate"] = self.published
        return state


@dataclass(frozen=True)
class SearchResponse:
    results: list[SearchResult]
    total: int
    engine: str
    unresponsive: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class FetchedPage:
    url: str
    final_url: str
    status: int
    content_type: str
    body: str
    truncated_body: bool = False
    body_limit: int | None = None
    """The ``max_body_bytes`` cap the body was cut at, when it was."""


class SearchService(Protocol):
    name: str

    async def search(
        self,
        query: str,
        *,
        categories: Sequence[str] = (),
        time_range: str | None = None,
        limit: int = 10,
    ) -> SearchResponse: ...


class PageFetcher(Protocol):
    name: str

    async def fetch(self, url: str) -> FetchedPage: ...


# --- the offline corpus ---------------------------------------------------------------------


@dataclass(frozen=True)
class CorpusPage:
    url: str
    title: str
    html: str
    category: str
    published: str | None

    @property
    def text(self) -> str:
        # html.parser is imported with the first page read, not with the runtime.
        from workbench.tools.web_browsing.extract import extract_readable

        return extract_readable(self.html)[1]


def _archive_pages() -> list[CorpusPage]:
    """A deterministic mailing-list archive: enough pages to overflow any result list."""
    topics = [
        "task cancellation",
        "timeouts and shields",
        "subprocess pipes",
        "event loop policy",
        "TaskGroup errors",
        "streams backpressure",
        "signal handling",
        "debug mode",
    ]
    pages = []
    for number in range(1, ARCHIVE_MESSAGES + 1):
        topic = topics[number % len(topics)]
        title = f"[asyncio] Re: {topic} (message {number})"
        body = (
            f"<html><head><title>{title}</title></head><body><h1>{title}</h1><p>Archive "
            f"message {number} on asyncio {topic}. The thread discusses how {topic} "
            "behaves when a task is cancelled while awaiting I/O, with a minimal "
            "example and a reply from a maintainer.</p></body></html>"
        )
        month = 1 + number % 12
        pages.append(
            CorpusPage(
                f"https://lists.example.org/archive/asyncio/2026/msg{number:05d}.html",
                title,
                body,
                "it",
                f"2026-{month:02d}-{1 + number % 28:02d}",
            )
        )
    return pages


def _long_spec_page() -> CorpusPage:
    sections = []
    for index in range(1, 121):
        sections.append(
            f"<h2>{index}. Requirement {index}</h2><p>Section {index} of the long "
            "specification. An implementation MUST accept input that conforms "
            f"to the grammar in section {index}, SHOULD report the line and column "
            "of the first error, and MAY recover and continue. Paragraph padding "
            "keeps this page deliberately long so that crawlers cap it.</p>"
        )
    html = (
        "<html><head><title>The Very Long Specification</title></head><body><h1>The "
        "Very Long Specification</h1>" + "".join(sections) + "</body></html>"
    )
    return CorpusPage(
        "https://spec.example.org/very-long-spec.html",
        "The Very Long Specification",
        html,
        "it",
        "2024-08-01",
    )


@lru_cache(maxsize=1)
def load_corpus() -> tuple[CorpusPage, ...]:
    data = json.loads(CORPUS_FILE.read_text(encoding="utf-8"))
    pages = [
        CorpusPage(
            item["url"],
            item["title"],
            item["html"],
            item.get("category", "general"),
            item.get("published"),
        )
        for item in data["pages"]
    ]
    return tuple([*pages, _long_spec_page(), *_archive_pages()])


_WORD = re.compile(r"[a-z0-9]+|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
"""Latin words, and each CJK character on its own (a unigram index: no word breaks needed)."""


def _terms(text: str) -> list[str]:
    return _WORD.findall(text.lower())


class OfflineSearchService:
    """Ranks the bundled corpus by term frequency (a small BM25-like score)."""

    name = "offline"

    def __init__(self, pages: Sequence[CorpusPage] | None = None) -> None:
        self._given = pages

    # The corpus is read and indexed at the first search, not when the runtime is built:
    # every live session builds this runtime, and most never search (`workbench call` on an
    # MCP server, for one).
    @cached_property
    def pages(self) -> list[CorpusPage]:
        return list(self._given if self._given is not None else load_corpus())

    @cached_property
    def _texts(self) -> list[tuple[CorpusPage, list[str], list[str]]]:
        return [(page, _terms(page.title), _terms(page.text)) for page in self.pages]

    @cached_property
    def _idf(self) -> dict[str, float]:
        frequency: dict[str, int] = {}
        for _, title, body in self._texts:
            for term in set(title) | set(body):
                frequency[term] = frequency.get(term, 0) + 1
        return {term: math.log(1 + len(self.pages) / count) for term, count in frequency.items()}

    async def search(
        self,
        query: str,
        *,
        categories: Sequence[str] = (),
        time_range: str | None = None,
        limit: int = 10,
    ) -> SearchResponse:
        terms = _terms(query)
        if not terms:
            raise WebError("InvalidQuery", "the query has no searchable words")
        scored: list[tuple[float, CorpusPage, str]] = []
        for page, title, body in self._texts:
            if categories and page.category not in categories:
                continue
            score = 0.0
            for term in terms:
                idf = self._idf.get(term, 0.0)
                score += idf * (3 * title.count(term) + min(body.count(term), 5))
            if score > 0 and all(term in title or term in body for term in terms):
                paragraphs = [part for part in page.text.split("\n\n") if not part.startswith("#")]
                snippet = " ".join(paragraphs) or page.title
                scored.append((score, page, snippet[:240]))
        scored.sort(key=lambda item: (-item[0], item[1].url))
        results = [
            SearchResult(
                page.title,
                page.url,
                snippet,
                "offline",
                page.category,
                page.published,
                round(score, 3),
            )
            for score, page, snippet in scored[:limit]
        ]
        return SearchResponse(results, len(scored), self.name)


class OfflinePageFetcher:
    """Serves corpus pages by URL; any other URL is reported as not in the corpus."""

    name = "offline"

    def __init__(self, pages: Sequence[CorpusPage] | None = None, *, latency_ms: int = 0) -> None:
        self._given = pages
        self.latency_ms = latency_ms
        """Simulated network time per page (varies by URL, deterministically); 0 in tests."""

    @cached_property
    def pages(self) -> dict[str, CorpusPage]:
        """By URL; the corpus is read at the first fetch (see :class:`OfflineSearchService`)."""
        return {
            page.url: page for page in (self._given if self._given is not None else load_corpus())
        }

    async def fetch(self, url: str) -> FetchedPage:
        if self.latency_ms:
            await asyncio.sleep(
                (self.latency_ms / 2 + zlib.crc32(url.encode()) % self.latency_ms) / 1000
            )
        page = self.pages.get(url)
        if page is None:
            raise WebError(
                "PageNotFound",
                f"{url} is not in the offline corpus ({len(self.pages)} pages); set "
                "WORKBENCH_WEB_ONLINE=1 to fetch the web",
                {"url": url, "status": 404},
            )
        return FetchedPage(url, url, 200, "text/html; charset=utf-8", page.html)


# --- online services --------------------------------------------------------------------------


class SearxngSearchService:
    """Queries a SearXNG-compatible ``/search?format=json`` endpoint."""

    name = "searxng"

    def __init__(
        self, base_url: str | None, client: httpx.AsyncClient, *, max_bytes: int | None = None
    ) -> None:
        self.base_url = (base_url or "").rstrip("/")
        self.client = client
        self.max_bytes = max_bytes or Limits().max_body_bytes

    async def search(
        self,
        query: str,
        *,
        categories: Sequence[str] = (),
        time_range: str | None = None,
        limit: int = 10,
    ) -> SearchResponse:
        if not self.base_url:
            raise WebError(
                "PluginSettingsInvalid",
                "no SearXNG instance is configured",
                {
                    "provider": "searxng",
                    "setting": "WORKBENCH_SEARXNG_URL",
                    "example": "https://searx.example.org",
                },
            )
        # httpx is imported by the online services only: offline runs never load it.
        import httpx

        from workbench.api import RequestRefused, read_capped

        params: dict[str, str] = {"q": query, "format": "json"}
        if categories:
            params["categories"] = ",".join(categories)
        if time_range:
            params["time_range"] = time_range
        try:
            async with self.client.stream(
                "GET", f"{self.base_url}/search", params=params
            ) as response:
                body, truncated = await read_capped(response, self.max_bytes)
        except RequestRefused as error:
            raise WebError(
                "RequestRefused", str(error), {"provider": "searxng", "url": self.base_url}
            ) from None
        except httpx.TimeoutException:
            raise WebError(
                "SearchTimeout",
                f"{self.base_url} did not answer in time",
                {"provider": "searxng", "url": self.base_url},
            ) from None
        except httpx.HTTPError as error:
            raise WebError(
                "SearchUnavailable",
                f"cannot reach {self.base_url}: {error}",
                {"provider": "searxng", "url": self.base_url},
            ) from None
        if response.status_code == 403:
            raise WebError(
                "PluginSettingsInvalid",
                f"{self.base_url} refused the JSON format (403): enable json under "
                "search.formats in its settings.yml",
                {"provider": "searxng", "setting": "search.formats", "status": 403},
            )
        if response.status_code >= 400:
            raise WebError(
                "SearchUnavailable",
                f"{self.base_url} answered HTTP {response.status_code}",
                {"provider": "searxng", "status": response.status_code},
            )
        if truncated:
            exceeded = LimitExceeded(
                "max_body_bytes", self.max_bytes, what=f"the answer of {self.base_url}"
            )
            raise WebError(
                "LimitExceeded", str(exceeded), {"provider": "searxng", **exceeded.to_body()}
            )
        try:
            data = json.loads(body.decode(response.encoding or "utf-8", errors="replace"))
        except ValueError:
            raise WebError(
                "SearchUnavailable", f"{self.base_url} did not return JSON", {"provider": "searxng"}
            ) from None
        raw = data.get("results") if isinstance(data, dict) else None
        if not isinstance(raw, list):
            raise WebError(
                "SearchUnavailable",
                f"{self.base_url} returned JSON without results",
                {"provider": "searxng"},
            )
        try:
            results = []
            for item in raw:
                if not isinstance(item, dict) or not item.get("url"):
                    continue
                results.append(
                    SearchResult(
                        title=str(item.get("title") or item["url"]),
                        url=str(item["url"]),
                        content=str(item.get("content") or ""),
                        engine=str(item.get("engine") or "searxng"),
                        category=str(item.get("category") or "general"),
                        published=item.get("publishedDate"),
                        score=float(item.get("score") or 0),
                    )
                )
            unresponsive = [
                str(entry[0]) if isinstance(entry, list) and entry else str(entry)
                for entry in data.get("unresponsive_engines", [])
            ]
            total = int(data.get("number_of_results") or 0) or len(results)
        except (TypeError, ValueError, OverflowError) as error:
            raise WebError(
                "SearchUnavailable",
                f"{self.base_url} returned malformed results: {error}",
                {"provider": "searxng"},
            ) from None
        return SearchResponse(results[:limit], max(total, len(results)), self.name, unresponsive)


class HttpPageFetcher:
    """Fetches pages through an SSRF-safe client, reading at most ``max_bytes``."""

    name = "http"

    def __init__(self, client: httpx.AsyncClient, *, max_bytes: int | None = None) -> None:
        self.client = client
        self.max_bytes = max_bytes or Limits().max_body_bytes

    async def fetch(self, url: str) -> FetchedPage:
        import httpx

        from workbench.api import RequestRefused, read_capped

        try:
            async with self.client.stream("GET", url) as response:
                body, truncated = await read_capped(response, self.max_bytes)
                status = response.status_code
                content_type = response.headers.get("content-type", "")
                final_url = str(response.url)
                encoding = response.encoding or "utf-8"
        except RequestRefused as error:
            raise WebError(
                "RequestRefused", str(error), {"url": url, "reason": error.reason}
            ) from None
        except httpx.TooManyRedirects:
            raise WebError(
                "TooManyRedirects", f"{url} redirects too many times", {"url": url}
            ) from None
        except httpx.TimeoutException:
            raise WebError("FetchTimeout", f"{url} did not answer in time", {"url": url}) from None
        except httpx.InvalidURL as error:
            raise WebError(
                "InvalidUrl", f"{url} is not a valid URL: {error}", {"url": url}
            ) from None
        except httpx.HTTPError as error:
            raise WebError("FetchFailed", f"cannot fetch {url}: {error}", {"url": url}) from None
        if status >= 400:
            raise WebError(
                "HttpError", f"{url} answered HTTP {status}", {"url": url, "status": status}
            )
        try:
            text = body.decode(encoding, errors="replace")
        except LookupError:
            text = body.decode("utf-8", errors="replace")
        return FetchedPage(
            url,
            final_url,
            status,
            content_type,
            text,
            truncated,
            body_limit=self.max_bytes if truncated else None,
        )
