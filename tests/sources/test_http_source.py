"""HttpToolSource against a real local HTTP server: JSON POSTs, answer shapes, HTTP errors and the
SSRF guard."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from tests.net.local_server import LocalServer, Reply, running_server
from tests.sources.helpers import LOAD_SLACK_S, run_call
from workbench.core import events as ev
from workbench.core.manifest import ToolApi, ToolManifest, ToolMeta
from workbench.core.result import ErrorType
from workbench.core.runtime import CallContext
from workbench.sources.base import SourceState
from workbench.sources.http_source import HttpToolSource


@pytest.fixture
def endpoint() -> Iterator[LocalServer]:
    with running_server() as server:
        yield server


def http_tool(endpoint: LocalServer, *routes: str, host: str = "127.0.0.1") -> ToolManifest:
    apis = [
        ToolApi(
            name=route.strip("/").replace("/", "_").replace("-", "_"), url=endpoint.url(route, host)
        )
        for route in routes
    ]
    return ToolManifest(
        identifier="remote", meta=ToolMeta(title="Remote"), api=[*apis, ToolApi(name="local_only")]
    )


@pytest.fixture
async def allowed(endpoint: LocalServer) -> AsyncIterator[HttpToolSource]:
    routes = [
        "/contract",
        "/contract-fail",
        "/plain",
        "/list",
        "/text",
        "/empty",
        "/boom",
        "/echo",
        "/big",
        "/slow",
        "/to-metadata",
        "/hop",
    ]
    source = HttpToolSource(
        "http",
        [http_tool(endpoint, *routes)],
        allow=["127.0.0.1"],
        headers={"X-Api-Key": "k-123"},
        max_bytes=4096,
    )
    await source.start()
    yield source
    await source.stop()


async def call(
    source: HttpToolSource, api: str, args: dict[str, Any] | None = None, *, timeout_s: float = 5.0
) -> Any:
    return await source.invoke("remote", api, args or {}, CallContext(timeout_s=timeout_s))


async def test_only_apis_with_a_url_are_listed(allowed: HttpToolSource) -> None:
    assert (
        allowed.status.state is SourceState.READY and allowed.status.detail == "12 HTTP endpoints"
    )
    [tool] = allowed.list_tools()
    assert (
        tool.type == "http"
        and "local_only" not in tool.api_names()
        and "contract" in tool.api_names()
    )
    missing = await call(allowed, "local_only")
    assert missing.error is not None and missing.error.type == ErrorType.API_NOT_FOUND


async def test_args_are_posted_as_json_with_the_configured_headers(
    allowed: HttpToolSource, endpoint: LocalServer
) -> None:
    endpoint.routes["/echo"] = lambda received: Reply.json(
        {
            "got": json.loads(received.body),
            "type": received.headers["content-type"],
            "key": received.headers.get("x-api-key"),
            "method": received.method,
        }
    )
    result = await call(allowed, "echo", {"query": "rust async", "limit": 3, "tags": ["a", "ü"]})
    assert result.success is True
    assert result.state == {
        "got": {"query": "rust async", "limit": 3, "tags": ["a", "ü"]},
        "type": "application/json",
        "key": "k-123",
        "method": "POST",
    }


async def test_a_contract_shaped_answer_passes_through(
    allowed: HttpToolSource, endpoint: LocalServer
) -> None:
    endpoint.routes["/contract"] = Reply.json(
        {"success": True, "content": "3 results for 'x'", "state": {"items": [1, 2, 3]}}
    )
    endpoint.routes["/contract-fail"] = Reply.json(
        {
            "success": False,
            "content": "No such city",
            "error": {
                "type": "CityNotFound",
                "message": "atlantis is not a city",
                "body": {"city": "atlantis"},
            },
        }
    )
    ok = await call(allowed, "contract")
    assert (ok.success, ok.content, ok.state, ok.error) == (
        True,
        "3 results for 'x'",
        {"items": [1, 2, 3]},
        None,
    )
    failed = await call(allowed, "contract_fail")
    assert failed.success is False and failed.content == "No such city"
    assert failed.error is not None and (
        failed.error.type,
        failed.error.message,
        failed.error.body,
    ) == ("CityNotFound", "atlantis is not a city", {"city": "atlantis"})


async def test_plain_json_becomes_state_and_text_becomes_content(
    allowed: HttpToolSource, endpoint: LocalServer
) -> None:
    endpoint.routes["/plain"] = Reply.json({"temp": 21, "success": "maybe"})
    endpoint.routes["/list"] = Reply(body=b"[1, 2, 3]", content_type="text/plain")
    endpoint.routes["/text"] = Reply(
        body="Hello from the endpoint — ünïcode".encode(), content_type="text/plain; charset=utf-8"
    )
    endpoint.routes["/empty"] = Reply(status=204, body=b"", content_type=None)
    plain = await call(allowed, "plain")
    assert plain.success is True and plain.state == {"temp": 21, "success": "maybe"}
    assert json.loads(plain.content) == {"temp": 21, "success": "maybe"}
    listed = await call(allowed, "list")
    assert listed.state == [1, 2, 3]
    text = await call(allowed, "text")
    assert (text.success, text.content, text.state) == (
        True,
        "Hello from the endpoint — ünïcode",
        None,
    )
    empty = await call(allowed, "empty")
    assert (
        empty.success is True
        and empty.content == f"{endpoint.url('/empty')} answered 204 with an empty body"
    )


async def test_an_http_500_is_an_http_error_with_the_status(
    allowed: HttpToolSource, endpoint: LocalServer
) -> None:
    endpoint.routes["/boom"] = Reply(
        status=500, body=b"Traceback: database exploded", content_type="text/plain"
    )
    result = await call(allowed, "boom")
    assert result.success is False
    assert result.error is not None and result.error.type == ErrorType.HTTP_ERROR
    assert result.error.message == f"HTTP 500 from {endpoint.url('/boom')}"
    assert result.error.body == {"status": 500, "body": "Traceback: database exploded"}
    assert result.content == f"{endpoint.url('/boom')} answered HTTP 500"


async def test_a_big_answer_is_cut_at_max_bytes(
    allowed: HttpToolSource, endpoint: LocalServer
) -> None:
    endpoint.routes["/big"] = Reply(body=b"a" * 10_000, content_type="text/plain")
    result = await call(allowed, "big")
    assert result.success is False
    assert result.error is not None and result.error.type == ErrorType.LIMIT_EXCEEDED
    assert result.error.body == {"cap": "max_body_bytes", "limit": 4096}
    assert result.content.startswith("a" * 4096 + "\n[the answer of ")
    assert "exceeded max_body_bytes = 4 KiB (counted after decompression)" in result.content
    assert 'max_body_bytes = "8KiB" under [tool.workbench.limits]' in result.content


async def test_a_slow_endpoint_times_out(allowed: HttpToolSource, endpoint: LocalServer) -> None:
    # The endpoint answers after 5 s; the 0.3 s deadline ends the call long before.
    endpoint.routes["/slow"] = Reply(body=b"{}", delay=5.0, content_type="application/json")
    started = time.monotonic()
    result = await call(allowed, "slow", timeout_s=0.3)
    assert time.monotonic() - started < 0.3 + LOAD_SLACK_S
    assert result.error is not None and result.error.type == ErrorType.TIMEOUT
    assert result.content == f"{endpoint.url('/slow')} did not answer in time"


async def test_without_a_call_deadline_the_clients_own_timeout_applies(
    endpoint: LocalServer,
) -> None:
    from workbench.net.ssrf import safe_client

    endpoint.routes["/slow"] = Reply(body=b"{}", delay=5.0, content_type="application/json")
    source = await started(
        HttpToolSource(
            "http",
            [http_tool(endpoint, "/slow")],
            client=safe_client(allow=["127.0.0.1"], timeout=0.3),
        )
    )
    try:
        started_at = time.monotonic()
        result = await source.invoke("remote", "slow", {}, CallContext())  # timeout_s is None
        assert time.monotonic() - started_at < 0.3 + LOAD_SLACK_S
    finally:
        await source.stop()
    assert result.error is not None and result.error.type == ErrorType.TIMEOUT


async def test_a_live_call_over_http_completes(
    allowed: HttpToolSource, endpoint: LocalServer
) -> None:
    endpoint.routes["/contract"] = Reply.json({"success": True, "content": "done"})
    run = await run_call(allowed, "remote", "contract", {"q": 1})
    assert run.names[-2:] == ["Started", "Completed"] and isinstance(run.terminal, ev.Completed)
    assert run.result.content == "done"


# --- the SSRF guard ------------------------------------------------------------------------------


async def started(source: HttpToolSource) -> HttpToolSource:
    await source.start()
    return source


async def test_a_loopback_address_is_refused_without_an_allow_list(endpoint: LocalServer) -> None:
    endpoint.routes["/plain"] = Reply.json({"secret": True})
    source = await started(HttpToolSource("http", [http_tool(endpoint, "/plain")]))
    try:
        result = await call(source, "plain")
    finally:
        await source.stop()
    assert result.success is False
    assert result.error is not None and result.error.type == ErrorType.REQUEST_REFUSED
    assert (
        result.error.message
        == "refused 127.0.0.1 (127.0.0.1): a loopback address; add it to the allow-list to reach it"
    )
    assert result.error.body == {"url": endpoint.url("/plain")}
    assert endpoint.paths() == []


async def test_a_name_that_resolves_to_loopback_is_refused(endpoint: LocalServer) -> None:
    source = await started(
        HttpToolSource("http", [http_tool(endpoint, "/plain", host="localhost")])
    )
    try:
        result = await call(source, "plain")
    finally:
        await source.stop()
    assert result.error is not None and result.error.type == ErrorType.REQUEST_REFUSED
    assert (
        result.error.message.startswith("refused localhost (")
        and "a loopback address" in result.error.message
    )
    assert endpoint.paths() == []


@pytest.mark.parametrize(
    "target", ["http://169.254.169.254/latest/meta-data/", "http://10.1.2.3/admin"]
)
async def test_a_redirect_is_reported_never_followed(
    allowed: HttpToolSource, endpoint: LocalServer, target: str
) -> None:
    """A 307/308 would re-POST the arguments to the new place: HTTP tools do not follow."""
    endpoint.routes["/to-metadata"] = Reply(
        status=302, body=b"", content_type=None, headers={"Location": target}
    )
    result = await call(allowed, "to_metadata")
    assert result.error is not None and result.error.type == ErrorType.HTTP_ERROR
    assert f"redirected (HTTP 302) to {target}" in result.content
    assert endpoint.paths() == ["/to-metadata"]


async def test_even_an_allow_listed_redirect_does_not_resend_the_arguments(
    allowed: HttpToolSource, endpoint: LocalServer
) -> None:
    endpoint.routes["/hop"] = Reply(
        status=307, body=b"", content_type=None, headers={"Location": "/plain"}
    )
    endpoint.routes["/plain"] = Reply.json({"arrived": True})
    result = await call(allowed, "hop", {"n": 1})
    assert not result.success and "the arguments were not re-sent there" in result.content
    assert endpoint.paths() == ["/hop"]


async def test_an_allow_listed_network_is_reachable(endpoint: LocalServer) -> None:
    endpoint.routes["/plain"] = Reply.json({"via": "network"})
    source = await started(
        HttpToolSource("http", [http_tool(endpoint, "/plain")], allow=["127.0.0.0/8"])
    )
    try:
        result = await call(source, "plain")
    finally:
        await source.stop()
    assert result.state == {"via": "network"}
