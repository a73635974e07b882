"""create_runtime: offline by default, and the settings web.online, web.searxng_url and web.allow
wiring the guarded online services."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from tests.net.local_server import LocalServer, Reply
from workbench.core.runtime import RuntimeServices
from workbench.tools.web_browsing import PACKAGE, create_runtime
from workbench.tools.web_browsing.runtime import WebBrowsingRuntime
from workbench.tools.web_browsing.services import (
    HttpPageFetcher,
    OfflinePageFetcher,
    OfflineSearchService,
    SearxngSearchService,
)

SEARCH = {
    "results": [
        {"title": "Local hit", "url": "https://hit.example/", "content": "from the local instance"}
    ],
    "number_of_results": 1,
}
PAGE = "<html><head><title>Local page</title></head><body><p>Served locally.</p></body></html>"

MakeRuntime = Callable[[RuntimeServices], WebBrowsingRuntime]


@pytest.fixture
async def make_runtime() -> AsyncIterator[MakeRuntime]:
    """create_runtime, closing every online client it made."""
    made: list[WebBrowsingRuntime] = []

    def make(services: RuntimeServices) -> WebBrowsingRuntime:
        runtime = create_runtime(services)
        made.append(runtime)
        return runtime

    yield make
    for runtime in made:
        if isinstance(runtime.fetcher, HttpPageFetcher):
            await runtime.fetcher.client.aclose()


@pytest.fixture
def local(server: LocalServer) -> LocalServer:
    server.route("/search", Reply.json(SEARCH))
    server.route("/page", Reply(body=PAGE))
    return server


def test_package_uses_create_runtime() -> None:
    assert PACKAGE.create_runtime is create_runtime
    assert PACKAGE.identifier == "web-browsing"


@pytest.mark.parametrize(
    "settings",
    [
        {},
        {"web.online": "0"},
        {"web.online": "false"},
        {"web.online": ""},
        {"web.searxng_url": "http://127.0.0.1:1", "web.allow": "127.0.0.1"},
    ],
)
def test_offline_by_default(make_runtime: MakeRuntime, settings: dict[str, str]) -> None:
    runtime = make_runtime(RuntimeServices(settings=settings))
    assert isinstance(runtime.search_service, OfflineSearchService)
    assert isinstance(runtime.fetcher, OfflinePageFetcher) and runtime.fetcher.latency_ms == 0


def test_offline_latency_setting(make_runtime: MakeRuntime) -> None:
    runtime = make_runtime(RuntimeServices(settings={"web.offline_latency_ms": "250"}))
    assert isinstance(runtime.fetcher, OfflinePageFetcher) and runtime.fetcher.latency_ms == 250


@pytest.mark.parametrize(
    ("offline", "settings"),
    [(True, {"web.online": "1"}), (True, {"web.online": "true"}), (False, {})],
)
def test_online_switches_to_searxng_and_http_sharing_one_client(
    make_runtime: MakeRuntime, offline: bool, settings: dict[str, str]
) -> None:
    runtime = make_runtime(
        RuntimeServices(
            offline=offline, settings={**settings, "web.searxng_url": "http://searx.invalid/"}
        )
    )
    assert (
        isinstance(runtime.search_service, SearxngSearchService)
        and runtime.search_service.base_url == "http://searx.invalid"
    )
    assert isinstance(runtime.fetcher, HttpPageFetcher)
    assert runtime.fetcher.client is runtime.search_service.client


@pytest.mark.parametrize(
    "allow", ["127.0.0.1", "127.0.0.0/8", "10.0.0.0/8,127.0.0.1", "localhost,127.0.0.1,"]
)
async def test_online_with_the_local_server_allow_listed(
    make_runtime: MakeRuntime, local: LocalServer, allow: str
) -> None:
    runtime = make_runtime(
        RuntimeServices(
            offline=False, settings={"web.searxng_url": local.origin, "web.allow": allow}
        )
    )
    searched = await runtime.invoke("search", {"query": "anything"})
    assert searched.success and searched.state["engine"] == "searxng"
    assert searched.state["results"][0]["title"] == "Local hit"
    crawled = await runtime.invoke("crawlSinglePage", {"url": local.url("/page")})
    assert crawled.success and crawled.state["results"][0]["title"] == "Local page"
    assert local.paths() == ["/search", "/page"]


async def test_online_without_the_allow_list_refuses_the_local_server(
    make_runtime: MakeRuntime, local: LocalServer
) -> None:
    runtime = make_runtime(
        RuntimeServices(offline=False, settings={"web.searxng_url": local.origin})
    )
    searched = await runtime.invoke("search", {"query": "anything"})
    assert (
        not searched.success
        and searched.error is not None
        and searched.error.type == "RequestRefused"
    )
    crawled = await runtime.invoke("crawlSinglePage", {"url": local.url("/page")})
    assert (
        not crawled.success and crawled.error is not None and crawled.error.type == "RequestRefused"
    )
    assert local.requests == []


async def test_online_without_a_searxng_url_is_a_settings_error(
    make_runtime: MakeRuntime, local: LocalServer
) -> None:
    runtime = make_runtime(RuntimeServices(offline=False, settings={"web.allow": "127.0.0.1"}))
    result = await runtime.invoke("search", {"query": "anything"})
    assert not result.success and result.error is not None
    assert result.error.type == "PluginSettingsInvalid"
    assert result.error.body["setting"] == "WORKBENCH_SEARXNG_URL"
    assert local.requests == []


async def test_from_environment_variables(
    make_runtime: MakeRuntime, local: LocalServer, tmp_path: Path
) -> None:
    services = RuntimeServices.from_environment(
        tmp_path,
        {
            "WORKBENCH_WEB_ONLINE": "1",
            "WORKBENCH_SEARXNG_URL": local.origin,
            "WORKBENCH_WEB_ALLOW": "127.0.0.1",
        },
        variables=PACKAGE.environment,
    )
    runtime = make_runtime(services)
    result = await runtime.invoke("search", {"query": "anything"})
    assert result.success and result.state["results"][0]["url"] == "https://hit.example/"
