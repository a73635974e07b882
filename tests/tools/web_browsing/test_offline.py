"""Offline web browsing: corpus search ranking, limits and totals, and crawling corpus pages through
the runtime."""

from __future__ import annotations

import pytest

from workbench.tools.web_browsing.runtime import CONTENT_RESULTS, WebBrowsingRuntime
from workbench.tools.web_browsing.services import (
    ARCHIVE_MESSAGES,
    MAX_PAGE_CHARS,
    CorpusPage,
    OfflinePageFetcher,
    OfflineSearchService,
    WebError,
    load_corpus,
)


def page(
    url: str, title: str, body: str, category: str = "general", published: str | None = None
) -> CorpusPage:
    return CorpusPage(
        url,
        title,
        f"<html><head><title>{title}</title></head><body>{body}</body></html>",
        category,
        published,
    )


SMALL = [
    page("https://a.example/title-hit", "Gardening with tomatoes", "<p>Water them daily.</p>"),
    page("https://b.example/body-hit", "A day outside", "<p>We planted tomatoes and beans.</p>"),
    page("https://c.example/no-hit", "Bread", "<p>Flour, water, salt.</p>", "news"),
    page("https://d.example/many", "Notes", "<p>" + "tomatoes " * 50 + "</p>"),
    page("https://e.example/five", "Notes", "<p>" + "tomatoes " * 5 + "</p>"),
]


def offline() -> WebBrowsingRuntime:
    return WebBrowsingRuntime(OfflineSearchService(), OfflinePageFetcher())


async def test_title_matches_rank_above_body_matches() -> None:
    response = await OfflineSearchService(SMALL[:3]).search("tomatoes")
    assert [result.url for result in response.results] == [
        "https://a.example/title-hit",
        "https://b.example/body-hit",
    ]
    assert response.total == 2 and response.engine == "offline"
    assert response.results[0].score > response.results[1].score


async def test_body_counts_are_capped_and_ties_break_by_url() -> None:
    response = await OfflineSearchService(SMALL[3:]).search("tomatoes")
    assert [result.url for result in response.results] == [
        "https://d.example/many",
        "https://e.example/five",
    ]
    assert response.results[0].score == response.results[1].score


async def test_every_query_term_must_occur() -> None:
    service = OfflineSearchService(SMALL)
    assert [result.url for result in (await service.search("tomatoes beans")).results] == [
        "https://b.example/body-hit"
    ]
    empty = await service.search("tomatoes flour")
    assert empty.results == [] and empty.total == 0


async def test_query_is_case_insensitive_and_ignores_punctuation() -> None:
    service = OfflineSearchService(SMALL)
    assert [r.url for r in (await service.search("TOMATOES!!!")).results] == [
        r.url for r in (await service.search("tomatoes")).results
    ]


async def test_categories_filter_results() -> None:
    service = OfflineSearchService(SMALL)
    assert [r.url for r in (await service.search("water", categories=["news"])).results] == [
        "https://c.example/no-hit"
    ]
    assert [r.url for r in (await service.search("water", categories=["general"])).results] == [
        "https://a.example/title-hit"
    ]
    assert (await service.search("water", categories=["science"])).total == 0


async def test_results_carry_snippets_without_headings_and_metadata() -> None:
    pages = [
        page(
            "https://x.example/",
            "Heading page",
            "<h1>Big heading</h1><p>Readable tomatoes paragraph.</p>",
            "it",
            "2026-01-02",
        )
    ]
    (result,) = (await OfflineSearchService(pages).search("tomatoes")).results
    assert result.content == "Readable tomatoes paragraph."
    assert result.to_state() == {
        "title": "Heading page",
        "url": "https://x.example/",
        "content": "Readable tomatoes paragraph.",
        "engine": "offline",
        "category": "it",
        "publishedDate": "2026-01-02",
    }


@pytest.mark.parametrize("query", ["", "   ", "!!! ???", "—"])
async def test_queries_without_words_are_invalid(query: str) -> None:
    with pytest.raises(WebError) as error:
        await OfflineSearchService(SMALL).search(query)
    assert error.value.error_type == "InvalidQuery"


async def test_bundled_corpus_ranks_the_obvious_page_first() -> None:
    service = OfflineSearchService()
    for query, url in [
        ("sourdough", "https://recipes.example.com/bread/sourdough-basics"),
        ("terminal escape sequences", "https://blog.example.com/2026/terminal-escape-sequences"),
        ("write-ahead logging", "https://sqlite.example.org/docs/wal.html"),
    ]:
        assert (await service.search(query)).results[0].url == url


async def test_limit_caps_results_but_not_the_total() -> None:
    service = OfflineSearchService()
    response = await service.search("asyncio", limit=7)
    assert len(response.results) == 7
    assert response.total > ARCHIVE_MESSAGES
    scores = [result.score for result in (await service.search("asyncio", limit=500)).results]
    assert scores == sorted(scores, reverse=True)
    assert len(scores) == response.total


async def test_runtime_search_shows_ten_and_counts_the_rest() -> None:
    result = await offline().invoke("search", {"query": "asyncio", "limit": 50})
    assert result.success
    assert (
        len(result.state["results"]) == 50
        and result.state["total"] > ARCHIVE_MESSAGES
        and result.state["engine"] == "offline"
    )
    assert result.content.startswith("Results for 'asyncio':\n1. ")
    assert (
        f"\n{CONTENT_RESULTS}. " in result.content
        and f"\n{CONTENT_RESULTS + 1}. " not in result.content
    )
    assert result.content.endswith(
        f"({result.state['total']} results in all; showing {CONTENT_RESULTS})"
    )


async def test_runtime_search_with_few_results_has_no_count_line() -> None:
    result = await offline().invoke("search", {"query": "sourdough"})
    assert result.success and result.state["total"] == 1
    assert "results in all" not in result.content
    assert "https://recipes.example.com/bread/sourdough-basics" in result.content


async def test_runtime_search_without_results_succeeds_with_a_note() -> None:
    result = await offline().invoke("search", {"query": "xylophonequux"})
    assert result.success
    assert result.content == "No results for 'xylophonequux'."
    assert result.state == {"results": [], "total": 0, "engine": "offline"}


async def test_runtime_search_with_an_empty_query_fails_typed() -> None:
    result = await offline().invoke("search", {"query": "  "})
    assert not result.success
    assert result.error is not None and result.error.type == "InvalidQuery"
    assert result.state == {"engine": "offline"}


async def test_offline_fetcher_serves_corpus_pages_and_404s_the_rest() -> None:
    fetcher = OfflinePageFetcher()
    first = load_corpus()[0]
    fetched = await fetcher.fetch(first.url)
    assert (fetched.status, fetched.final_url, fetched.body) == (200, first.url, first.html)
    with pytest.raises(WebError) as error:
        await fetcher.fetch("https://elsewhere.example/")
    assert error.value.error_type == "PageNotFound" and error.value.body == {
        "url": "https://elsewhere.example/",
        "status": 404,
    }


async def test_offline_latency_delays_but_still_serves() -> None:
    fetcher = OfflinePageFetcher(latency_ms=2)
    assert (await fetcher.fetch(load_corpus()[0].url)).status == 200


async def test_crawl_of_a_corpus_page_keeps_markup_inert_and_escapes_out_of_content() -> None:
    result = await offline().invoke("crawlSinglePage", {"url": "https://shop.example.net/deals"})
    assert result.success
    assert result.content.startswith("# [bold red]FREE[/] prizes")
    assert "\x1b" not in result.content and "\x07" not in result.content
    assert "\x1b]52;" in result.state["results"][0]["content"]


async def test_crawl_of_the_long_page_is_capped_for_the_model() -> None:
    result = await offline().invoke(
        "crawlSinglePage", {"url": "https://spec.example.org/very-long-spec.html"}
    )
    (page_state,) = result.state["results"]
    assert page_state["truncated"] and page_state["length"] > MAX_PAGE_CHARS
    assert len(page_state["content"]) == MAX_PAGE_CHARS
    assert result.content.endswith(
        f"[truncated: showing {MAX_PAGE_CHARS:,} of {page_state['length']:,} characters]"
    )


async def test_crawl_of_an_unknown_url_fails_with_page_not_found() -> None:
    result = await offline().invoke("crawlSinglePage", {"url": "https://elsewhere.example/"})
    assert not result.success and result.error is not None
    assert result.error.type == "PageNotFound"
    assert result.error.body == {"url": "https://elsewhere.example/", "status": 404}
    assert result.state["results"][0]["status"] == 404
