"""The SearXNG client against a real local server: parsing, typed failures, and the SSRF guard in
front of it."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.net.local_server import LocalServer, Reply, Seen, closed_port
from workbench.net.ssrf import safe_client
from workbench.tools.web_browsing.runtime import WebBrowsingRuntime
from workbench.tools.web_browsing.services import OfflinePageFetcher, SearxngSearchService, WebError

RESULTS: dict[str, Any] = {
    "query": "asyncio",
    "number_of_results": 0,
    "results": [
        {
            "title": "asyncio docs",
            "url": "https://docs.python.org/3/library/asyncio.html",
            "content": "Asynchronous I/O.",
            "engine": "duckduckgo",
            "category": "it",
            "score": 2.5,
            "publishedDate": "2026-01-01T00:00:00",
        },
        {"url": "https://example.org/no-title"},
        {"title": "no url"},
        "not a dict",
        {"title": "empty url", "url": ""},
    ],
    "unresponsive_engines": [["bing", "timeout"], ["google", "CAPTCHA"], "brave"],
}


async def search(
    server: LocalServer, client: httpx.AsyncClient, query: str = "asyncio", **options: Any
) -> Any:
    return await SearxngSearchService(server.origin, client).search(query, **options)


async def failure(service: SearxngSearchService, query: str = "q") -> WebError:
    with pytest.raises(WebError) as error:
        await service.search(query)
    return error.value


async def test_results_are_parsed(server: LocalServer, client: httpx.AsyncClient) -> None:
    server.route("/search", Reply.json(RESULTS))
    response = await search(server, client)
    assert response.engine == "searxng"
    assert [result.url for result in response.results] == [
        "https://docs.python.org/3/library/asyncio.html",
        "https://example.org/no-title",
    ]
    first, second = response.results
    assert (
        first.title,
        first.content,
        first.engine,
        first.category,
        first.score,
        first.published,
    ) == ("asyncio docs", "Asynchronous I/O.", "duckduckgo", "it", 2.5, "2026-01-01T00:00:00")
    assert (
        second.title,
        second.content,
        second.engine,
        second.category,
        second.score,
        second.published,
    ) == ("https://example.org/no-title", "", "searxng", "general", 0.0, None)
    assert response.total == 2
    assert response.unresponsive == ["bing", "google", "brave"]


async def test_query_parameters_reach_the_server(
    server: LocalServer, client: httpx.AsyncClient
) -> None:
    server.route("/search", Reply.json({"results": []}))
    await search(server, client, "tea & cake", categories=["it", "news"], time_range="week")
    (seen,) = server.requests
    assert seen.path == "/search"
    assert seen.query == {
        "q": ["tea & cake"],
        "format": ["json"],
        "categories": ["it,news"],
        "time_range": ["week"],
    }


async def test_optional_parameters_are_left_out(
    server: LocalServer, client: httpx.AsyncClient
) -> None:
    server.route("/search", Reply.json({"results": []}))
    await search(server, client, "tea")
    assert server.requests[0].query == {"q": ["tea"], "format": ["json"]}


async def test_base_url_path_and_trailing_slash(
    server: LocalServer, client: httpx.AsyncClient
) -> None:
    server.route("/searx/search", Reply.json({"results": []}))
    service = SearxngSearchService(server.url("/searx/"), client)
    assert service.base_url == server.url("/searx")
    assert (await service.search("x")).results == []
    assert server.paths() == ["/searx/search"]


async def test_limit_cuts_results_but_total_comes_from_the_server(
    server: LocalServer, client: httpx.AsyncClient
) -> None:
    items = [{"title": f"r{index}", "url": f"https://r.example/{index}"} for index in range(30)]
    server.route("/search", Reply.json({"results": items, "number_of_results": 12345}))
    response = await search(server, client, limit=5)
    assert [result.title for result in response.results] == ["r0", "r1", "r2", "r3", "r4"]
    assert response.total == 12345


async def test_total_is_never_below_the_parsed_results(
    server: LocalServer, client: httpx.AsyncClient
) -> None:
    items = [{"url": f"https://r.example/{index}"} for index in range(4)]
    server.route("/search", Reply.json({"results": items, "number_of_results": 2}))
    assert (await search(server, client)).total == 4


async def test_403_means_the_json_format_is_disabled(
    server: LocalServer, client: httpx.AsyncClient
) -> None:
    server.route("/search", Reply(403, "Forbidden"))
    error = await failure(SearxngSearchService(server.origin, client))
    assert error.error_type == "PluginSettingsInvalid"
    assert error.body == {"provider": "searxng", "setting": "search.formats", "status": 403}
    assert "search.formats" in error.message and "settings.yml" in error.message


@pytest.mark.parametrize("status", [500, 502, 429, 404])
async def test_other_http_errors_are_search_unavailable(
    server: LocalServer, client: httpx.AsyncClient, status: int
) -> None:
    server.route("/search", Reply(status, "oops"))
    error = await failure(SearxngSearchService(server.origin, client))
    assert error.error_type == "SearchUnavailable"
    assert error.body == {"provider": "searxng", "status": status}
    assert f"HTTP {status}" in error.message


@pytest.mark.parametrize(
    ("reply", "fragment"),
    [
        (Reply(body="<html><body>SearXNG</body></html>"), "did not return JSON"),
        (Reply(body=""), "did not return JSON"),
        (Reply(body='{"results": [', content_type="application/json"), "did not return JSON"),
        (Reply.json({"answers": []}), "without results"),
        (Reply.json([1, 2, 3]), "without results"),
        (Reply.json({"results": {"url": "x"}}), "without results"),
        (Reply.json({"results": [{"url": "https://x.example/", "score": "high"}]}), "malformed"),
        (Reply.json({"results": [], "unresponsive_engines": None}), "malformed"),
        (Reply.json({"results": [], "number_of_results": "many"}), "malformed"),
    ],
)
async def test_unusable_bodies_are_search_unavailable(
    server: LocalServer, client: httpx.AsyncClient, reply: Reply, fragment: str
) -> None:
    server.route("/search", reply)
    error = await failure(SearxngSearchService(server.origin, client))
    assert error.error_type == "SearchUnavailable"
    assert fragment in error.message


@pytest.mark.parametrize("base_url", [None, "", "/"])
async def test_missing_base_url_is_a_settings_error_without_a_request(
    server: LocalServer, client: httpx.AsyncClient, base_url: str | None
) -> None:
    error = await failure(SearxngSearchService(base_url, client))
    assert error.error_type == "PluginSettingsInvalid"
    assert error.body["setting"] == "WORKBENCH_SEARXNG_URL"
    assert server.requests == []


async def test_connection_refused_is_search_unavailable(client: httpx.AsyncClient) -> None:
    base = f"http://127.0.0.1:{closed_port()}"
    error = await failure(SearxngSearchService(base, client))
    assert error.error_type == "SearchUnavailable"
    assert error.body == {"provider": "searxng", "url": base}
    assert error.message.startswith(f"cannot reach {base}")


async def test_slow_server_is_a_search_timeout(server: LocalServer) -> None:
    server.route("/search", Reply(body="{}", content_type="application/json", delay=0.5))
    async with safe_client(allow=["127.0.0.1"], timeout=0.1) as hasty:
        error = await failure(SearxngSearchService(server.origin, hasty))
    assert error.error_type == "SearchTimeout"


async def test_without_the_allow_list_the_guard_refuses_the_local_instance(
    server: LocalServer,
) -> None:
    server.route("/search", Reply.json(RESULTS))
    async with safe_client() as guarded:
        error = await failure(SearxngSearchService(server.origin, guarded))
    assert error.error_type == "RequestRefused"
    assert error.body == {"provider": "searxng", "url": server.origin}
    assert "loopback" in error.message
    assert server.requests == []


async def test_a_redirect_to_metadata_is_refused(
    server: LocalServer, client: httpx.AsyncClient
) -> None:
    server.route("/search", Reply.redirect("http://169.254.169.254/latest/meta-data/"))
    error = await failure(SearxngSearchService(server.origin, client))
    assert error.error_type == "RequestRefused"
    assert server.paths() == ["/search"]


# --- through the runtime ----------------------------------------------------------------------


def runtime(server: LocalServer, client: httpx.AsyncClient) -> WebBrowsingRuntime:
    return WebBrowsingRuntime(SearxngSearchService(server.origin, client), OfflinePageFetcher())


async def test_runtime_search_reports_results_and_unresponsive_engines(
    server: LocalServer, client: httpx.AsyncClient
) -> None:
    server.route("/search", Reply.json(RESULTS))
    result = await runtime(server, client).invoke(
        "search", {"query": "asyncio", "categories": ["it"], "timeRange": "month"}
    )
    assert result.success
    assert result.state["engine"] == "searxng" and result.state["total"] == 2
    assert result.state["unresponsiveEngines"] == ["bing", "google", "brave"]
    assert result.state["results"][0] == {
        "title": "asyncio docs",
        "url": "https://docs.python.org/3/library/asyncio.html",
        "content": "Asynchronous I/O.",
        "engine": "duckduckgo",
        "category": "it",
        "publishedDate": "2026-01-01T00:00:00",
    }
    assert result.content.startswith(
        "Results for 'asyncio':\n1. asyncio docs\n "
        "  https://docs.python.org/3/library/asyncio.html\n "
        "  Asynchronous I/O."
    )
    assert server.requests[0].query["categories"] == ["it"] and server.requests[0].query[
        "time_range"
    ] == ["month"]


async def test_runtime_search_failure_is_typed_with_the_body(
    server: LocalServer, client: httpx.AsyncClient
) -> None:
    server.route("/search", Reply(403))
    result = await runtime(server, client).invoke("search", {"query": "x"})
    assert not result.success and result.error is not None
    assert result.error.type == "PluginSettingsInvalid"
    assert result.error.body["setting"] == "search.formats"
    assert result.state == {"engine": "searxng"}


async def test_runtime_search_without_results(
    server: LocalServer, client: httpx.AsyncClient
) -> None:
    def answer(seen: Seen) -> Reply:
        return Reply.json({"query": seen.query["q"][0], "results": [], "number_of_results": 0})

    server.route("/search", answer)
    result = await runtime(server, client).invoke("search", {"query": "nothing here"})
    assert result.success and result.content == "No results for 'nothing here'."
    assert result.state["total"] == 0


async def test_runtime_search_content_is_sanitised(
    server: LocalServer, client: httpx.AsyncClient
) -> None:
    hostile = {
        "results": [
            {
                "title": "[bold]x[/] \x1b]52;c;aGk=\x07",
                "url": "https://evil.example/\x1b[2J",
                "content": "snippet \x1b[31mred\x1b[0m \x9b1m",
            }
        ]
    }
    server.route("/search", Reply.json(hostile))
    result = await runtime(server, client).invoke("search", {"query": "x"})
    assert result.success
    assert not any(char in result.content for char in "\x1b\x07\x9b")
    assert "[bold]x[/]" in result.content and "snippet red" in result.content
    assert result.state["results"][0]["title"] == "[bold]x[/] \x1b]52;c;aGk=\x07"
