"""The SSRF guard against a real local server: loopback spellings, redirects, allow-lists, Host,
schemes, body caps."""

from __future__ import annotations

import asyncio
import ipaddress
import json
import socket
from collections.abc import Iterator

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.net.local_server import LocalServer, Reply, Seen, running_server
from workbench.net.ssrf import (
    DEFAULT_MAX_BYTES,
    RequestRefused,
    SSRFPolicy,
    SSRFSafeTransport,
    blocked_reason,
    read_capped,
    safe_client,
)

LOOPBACK = "a loopback address"


class RecordingTransport(httpx.AsyncBaseTransport):
    """Records what the guard hands on; forwards to ``inner`` or answers 200 itself."""

    def __init__(self, inner: httpx.AsyncBaseTransport | None = None) -> None:
        self.inner = inner
        self.seen: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(request)
        if self.inner is None:
            return httpx.Response(200, text="ok")
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        if self.inner is not None:
            await self.inner.aclose()


def echo(seen: Seen) -> Reply:
    return Reply.json(
        {
            "host": seen.headers.get("host"),
            "peer": seen.peer,
            "path": seen.path,
            "user_agent": seen.headers.get("user-agent"),
            "x_test": seen.headers.get("x-test"),
        }
    )


def guarded_client(allow: list[str], inner: httpx.AsyncBaseTransport) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=SSRFSafeTransport(SSRFPolicy.from_entries(allow), transport=inner),
        follow_redirects=True,
    )


def first_localhost_address() -> str:
    return str(socket.getaddrinfo("localhost", 0, type=socket.SOCK_STREAM)[0][4][0])


@pytest.fixture
def localhost_server() -> Iterator[LocalServer]:
    """A server on the address ``localhost`` resolves to first (so ``http://localhost`` reaches
    it)."""
    with running_server(first_localhost_address()) as local:
        local.route("/echo", echo)
        yield local


# --- loopback is refused by default, in every spelling ------------------------------------------


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1",
        "localhost",
        "2130706433",
        "0x7f000001",
        "127.1",
        "[::ffff:127.0.0.1]",
        "017700000001",
        "0x7f.1",
    ],
)
async def test_loopback_is_refused_by_default_in_every_spelling(
    server: LocalServer, host: str
) -> None:
    server.route("/", Reply(body="secret"))
    async with safe_client() as client:
        with pytest.raises(RequestRefused) as refused:
            await client.get(f"http://{host}:{server.port}/")
    assert refused.value.reason == LOOPBACK
    assert "allow-list" in str(refused.value)
    assert server.requests == []


@pytest.mark.parametrize(
    "url",
    [
        "http://[::1]:9/",
        "http://0.0.0.0:9/",
        "http://[::]:9/",
        "http://10.0.0.1/",
        "http://192.168.1.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://100.64.0.1/",
    ],
)
async def test_other_non_public_destinations_are_refused_before_connecting(url: str) -> None:
    inner = RecordingTransport()
    async with guarded_client([], inner) as client:
        with pytest.raises(RequestRefused):
            await client.get(url)
    assert inner.seen == []


async def test_refusal_is_an_httpx_transport_error_with_the_request(server: LocalServer) -> None:
    async with safe_client() as client:
        with pytest.raises(httpx.TransportError) as refused:
            await client.get(server.url("/x"))
    assert isinstance(refused.value, RequestRefused)
    assert refused.value.request.url.path == "/x"


# --- redirects are checked hop by hop ----------------------------------------------------------


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
async def test_redirect_to_cloud_metadata_is_refused(server: LocalServer, status: int) -> None:
    server.route("/hop", Reply.redirect("http://169.254.169.254/latest/meta-data/iam/", status))
    async with safe_client(allow=["127.0.0.1"]) as client:
        with pytest.raises(RequestRefused) as refused:
            await client.get(server.url("/hop"))
    assert refused.value.reason == "a cloud metadata address"
    assert refused.value.request.url.host == "169.254.169.254"
    assert server.paths() == ["/hop"]


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        ("http://10.1.2.3/admin", "a private address"),
        ("http://192.168.0.1/", "a private address"),
        ("http://[::1]/", LOOPBACK),
        ("http://[fe80::1]/", "a link-local address"),
        ("http://100.100.100.200/", "a cloud metadata address"),
    ],
)
async def test_redirect_to_private_addresses_is_refused(
    server: LocalServer, target: str, reason: str
) -> None:
    server.route("/hop", Reply.redirect(target))
    async with safe_client(allow=["127.0.0.1"]) as client:
        with pytest.raises(RequestRefused) as refused:
            await client.get(server.url("/hop"))
    assert refused.value.reason == reason


async def test_redirect_to_a_loopback_spelling_the_allow_list_does_not_name_is_refused(
    localhost_server: LocalServer,
) -> None:
    """``localhost`` is allowed by name; a hop to its address spelled as an integer is not."""
    as_integer = (
        int(ipaddress.ip_address(localhost_server.host))
        if ":" not in localhost_server.host
        else None
    )
    if as_integer is None:
        pytest.skip("localhost resolves to IPv6 here")
    localhost_server.route(
        "/hop", Reply.redirect(f"http://{as_integer}:{localhost_server.port}/echo")
    )
    async with safe_client(allow=["localhost"]) as client:
        with pytest.raises(RequestRefused):
            await client.get(f"http://localhost:{localhost_server.port}/hop")
    assert localhost_server.paths() == ["/hop"]


async def test_redirect_to_a_non_http_scheme_is_refused(server: LocalServer) -> None:
    server.route("/hop", Reply.redirect("file:///etc/passwd"))
    async with safe_client(allow=["127.0.0.1"]) as client:
        with pytest.raises(RequestRefused):
            await client.get(server.url("/hop"))


async def test_redirects_within_the_allowed_host_are_followed(server: LocalServer) -> None:
    server.route("/a", Reply.redirect("/b"))
    server.route("/b", Reply.redirect(server.url("/echo"), 307))
    server.route("/echo", echo)
    async with safe_client(allow=["127.0.0.1"]) as client:
        response = await client.get(server.url("/a"))
    assert response.status_code == 200
    assert [hop.status_code for hop in response.history] == [302, 307]
    assert response.json()["path"] == "/echo"
    assert server.paths() == ["/a", "/b", "/echo"]


async def test_relative_redirect_from_a_host_allowed_by_name_keeps_the_name(
    localhost_server: LocalServer,
) -> None:
    localhost_server.route("/hop", Reply.redirect("/echo"))
    async with safe_client(allow=["localhost"]) as client:
        response = await client.get(f"http://localhost:{localhost_server.port}/hop")
    assert response.status_code == 200
    assert response.url.host == "localhost"
    assert response.json()["host"] == f"localhost:{localhost_server.port}"


async def test_redirect_loops_stop_at_max_redirects(server: LocalServer) -> None:
    server.route("/loop", Reply.redirect("/loop"))
    async with safe_client(allow=["127.0.0.1"], max_redirects=3) as client:
        with pytest.raises(httpx.TooManyRedirects):
            await client.get(server.url("/loop"))
    assert server.paths() == ["/loop"] * 4


# --- the allow-list opens exactly what it names ------------------------------------------------


@pytest.mark.parametrize(
    "allow",
    [
        ["127.0.0.1"],
        ["127.0.0.0/8"],
        ["127.0.0.1/32"],
        ["10.0.0.0/8", "127.0.0.0/8"],
        [" 127.0.0.0/8 ", ""],
    ],
)
async def test_allow_list_cidr_opens_the_local_server(
    server: LocalServer, allow: list[str]
) -> None:
    server.route("/echo", echo)
    async with safe_client(allow=allow) as client:
        response = await client.get(server.url("/echo"))
    assert response.status_code == 200
    assert response.json()["peer"] == "127.0.0.1"


@pytest.mark.parametrize("host", ["2130706433", "0x7f000001", "127.1", "017700000001"])
async def test_allowed_address_is_reached_through_any_spelling(
    server: LocalServer, host: str
) -> None:
    server.route("/echo", echo)
    async with safe_client(allow=["127.0.0.1"]) as client:
        response = await client.get(f"http://{host}:{server.port}/echo")
    assert response.status_code == 200
    assert response.json()["host"] == f"{host}:{server.port}"
    assert response.json()["peer"] == "127.0.0.1"


async def test_allow_list_hostname_opens_that_name_only(localhost_server: LocalServer) -> None:
    async with safe_client(allow=["LocalHost"]) as client:
        response = await client.get(f"http://localhost:{localhost_server.port}/echo")
        assert response.status_code == 200
        with pytest.raises(RequestRefused):
            await client.get(f"{localhost_server.origin}/echo")
    assert localhost_server.paths() == ["/echo"]


@pytest.mark.parametrize(
    "allow", [["10.0.0.0/8"], ["127.0.0.2"], ["192.168.0.0/16", "example.org"], ["not-localhost"]]
)
async def test_allow_list_entries_for_other_destinations_do_not_open_loopback(
    server: LocalServer, allow: list[str]
) -> None:
    async with safe_client(allow=allow) as client:
        with pytest.raises(RequestRefused):
            await client.get(server.url("/"))
    assert server.requests == []


def test_policy_from_entries_splits_networks_and_host_names() -> None:
    policy = SSRFPolicy.from_entries(
        ["10.0.0.0/8", " 127.0.0.1 ", "Intranet.Example", "", "  ", "fd00::/8"]
    )
    assert policy.allow_networks == (
        ipaddress.ip_network("10.0.0.0/8"),
        ipaddress.ip_network("127.0.0.1/32"),
        ipaddress.ip_network("fd00::/8"),
    )
    assert policy.allow_hosts == frozenset({"intranet.example"})
    assert policy.allows("INTRANET.example", ipaddress.ip_address("192.168.1.1"))
    assert policy.allows("anything", ipaddress.ip_address("10.9.8.7"))
    assert policy.allows("anything", ipaddress.ip_address("::ffff:10.9.8.7"))
    assert policy.allows("anything", ipaddress.ip_address("fd00::1"))
    assert not policy.allows("anything", ipaddress.ip_address("11.0.0.1"))
    assert not SSRFPolicy().allows("localhost", ipaddress.ip_address("127.0.0.1"))


def test_policy_from_entries_is_not_strict_about_host_bits() -> None:
    assert SSRFPolicy.from_entries(["10.1.2.3/8"]).allow_networks == (
        ipaddress.ip_network("10.0.0.0/8"),
    )


# --- the connection goes to the checked address, Host keeps the name ---------------------------


async def test_connection_goes_to_the_checked_ip_and_host_keeps_the_name(
    localhost_server: LocalServer,
) -> None:
    wire = RecordingTransport(httpx.AsyncHTTPTransport())
    async with guarded_client(["localhost"], wire) as client:
        response = await client.get(f"http://localhost:{localhost_server.port}/echo")
    assert response.status_code == 200
    assert [str(request.url.host) for request in wire.seen] == [localhost_server.host]
    assert wire.seen[0].headers["host"] == f"localhost:{localhost_server.port}"
    assert response.json() == {
        "host": f"localhost:{localhost_server.port}",
        "peer": localhost_server.host,
        "path": "/echo",
        "user_agent": "python-httpx/" + httpx.__version__,
        "x_test": None,
    }
    assert response.url.host == "localhost"
    assert response.request.url.host == "localhost"


async def test_https_keeps_the_name_for_sni() -> None:
    wire = RecordingTransport()
    async with guarded_client(["localhost"], wire) as client:
        response = await client.get("https://localhost:8443/x")
    assert response.text == "ok"
    request = wire.seen[0]
    assert (
        request.url.scheme == "https"
        and request.url.host == first_localhost_address()
        and request.url.port == 8443
    )
    assert request.extensions["sni_hostname"] == "localhost"
    assert request.headers["host"] == "localhost:8443"


async def test_ip_literal_is_handed_on_unchanged() -> None:
    wire = RecordingTransport()
    async with guarded_client(["127.0.0.1"], wire) as client:
        await client.get("http://127.0.0.1:8080/y?q=1")
    assert str(wire.seen[0].url) == "http://127.0.0.1:8080/y?q=1"
    assert "sni_hostname" not in wire.seen[0].extensions


async def test_request_body_and_method_reach_the_checked_address() -> None:
    wire = RecordingTransport()
    async with guarded_client(["localhost"], wire) as client:
        await client.post("http://localhost:8080/submit", json={"a": 1})
    request = wire.seen[0]
    assert request.method == "POST" and request.url.host == first_localhost_address()
    assert json.loads(await request.aread()) == {"a": 1}
    assert request.headers["content-type"] == "application/json"


async def test_safe_client_sends_its_user_agent_and_extra_headers(server: LocalServer) -> None:
    server.route("/echo", echo)
    async with safe_client(allow=["127.0.0.1"], headers={"X-Test": "yes"}) as client:
        data = (await client.get(server.url("/echo"))).json()
    assert data["user_agent"].startswith("workbench/")
    assert data["x_test"] == "yes"


# --- schemes ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "ftp://127.0.0.1/x",
        "file:///etc/passwd",
        "gopher://127.0.0.1:70/_",
        "ws://127.0.0.1/",
        "data:text/plain,hi",
        "javascript:alert(1)",
    ],
)
async def test_non_http_schemes_are_refused_even_when_allowed(url: str) -> None:
    wire = RecordingTransport()
    transport = SSRFSafeTransport(
        SSRFPolicy.from_entries(["0.0.0.0/0", "::/0", "localhost"]), transport=wire
    )
    with pytest.raises(RequestRefused) as refused:
        await transport.handle_async_request(httpx.Request("GET", url))
    assert "only http and https" in str(refused.value)
    assert wire.seen == []


@pytest.mark.parametrize(
    "url", ["ftp://127.0.0.1/x", "file:///etc/passwd", "gopher://127.0.0.1:70/_"]
)
async def test_non_http_schemes_are_refused_through_the_client(url: str) -> None:
    async with safe_client(allow=["127.0.0.1"]) as client:
        with pytest.raises(RequestRefused):
            await client.get(url)


# --- read_capped ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "cap", "truncated"),
    [
        (3 * 1024 * 1024, 1024 * 1024, True),
        (1000, 1000, False),
        (1001, 1000, True),
        (10, 1000, False),
        (0, 1000, False),
    ],
)
async def test_read_capped_stops_at_the_cap(
    server: LocalServer, size: int, cap: int, truncated: bool
) -> None:
    payload = bytes(index % 251 for index in range(size))
    server.route("/big", Reply(body=payload, content_type="application/octet-stream"))
    async with (
        safe_client(allow=["127.0.0.1"]) as client,
        client.stream("GET", server.url("/big")) as response,
    ):
        body, was_truncated = await read_capped(response, cap)
        assert response.is_closed
    assert was_truncated is truncated
    assert len(body) == min(size, cap)
    assert body == payload[:cap]


async def test_read_capped_default_cap_passes_small_bodies(server: LocalServer) -> None:
    server.route("/small", Reply(body="hello"))
    async with (
        safe_client(allow=["127.0.0.1"]) as client,
        client.stream("GET", server.url("/small")) as response,
    ):
        assert await read_capped(response) == (b"hello", False)
    assert DEFAULT_MAX_BYTES == 5 * 1024 * 1024


# --- blocked_reason ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("10.0.0.1", "a private address"),
        ("10.255.255.255", "a private address"),
        ("172.16.0.1", "a private address"),
        ("172.31.255.254", "a private address"),
        ("192.168.0.1", "a private address"),
        ("192.168.255.255", "a private address"),
        ("127.0.0.1", LOOPBACK),
        ("127.255.255.254", LOOPBACK),
        ("169.254.0.1", "a link-local address"),
        ("169.254.169.254", "a cloud metadata address"),
        ("100.100.100.200", "a cloud metadata address"),
        ("fd00:ec2::254", "a cloud metadata address"),
        ("::1", LOOPBACK),
        ("fe80::1", "a link-local address"),
        ("fc00::1", "a private address"),
        ("fd12:3456::1", "a private address"),
        ("::ffff:127.0.0.1", LOOPBACK),
        ("::ffff:10.0.0.1", "a private address"),
        ("::ffff:169.254.169.254", "a cloud metadata address"),
        ("2002:7f00:1::", LOOPBACK),
        ("2002:a9fe:a9fe::", "a cloud metadata address"),
        ("100.64.0.1", "a carrier-grade NAT address"),
        ("100.127.255.254", "a carrier-grade NAT address"),
        ("224.0.0.1", "a multicast address"),
        ("ff02::1", "a multicast address"),
        ("93.184.216.34", None),
        ("8.8.8.8", None),
        ("172.32.0.1", None),
        ("100.128.0.1", None),
        ("::ffff:93.184.216.34", None),
        ("2606:4700:4700::1111", None),
    ],
)
def test_blocked_reason_table(address: str, reason: str | None) -> None:
    assert blocked_reason(ipaddress.ip_address(address)) == reason


@pytest.mark.parametrize(
    "address", ["0.0.0.0", "::", "240.0.0.1", "255.255.255.255", "192.0.2.1", "64:ff9b::7f00:1"]
)
def test_blocked_reason_refuses_special_purpose_addresses(address: str) -> None:
    assert blocked_reason(ipaddress.ip_address(address)) is not None


# --- property: 127.0.0.0/8 as a 32-bit integer host never passes -------------------------------


class NeverConnect(httpx.AsyncBaseTransport):
    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        raise AssertionError(f"the guard let {request.url} through")


@settings(max_examples=150, deadline=None)
@given(
    number=st.integers(min_value=0x7F000000, max_value=0x7FFFFFFF),
    spelling=st.sampled_from(["{:d}", "0x{:x}", "0X{:08X}", "0{:o}"]),
)
def test_any_loopback_integer_host_is_refused(number: int, spelling: str) -> None:
    host = spelling.format(number)
    transport = SSRFSafeTransport(transport=NeverConnect())
    with pytest.raises(RequestRefused) as refused:
        asyncio.run(transport.handle_async_request(httpx.Request("GET", f"http://{host}/")))
    assert refused.value.reason == LOOPBACK


@settings(max_examples=60, deadline=None)
@given(number=st.integers(min_value=0x7F000000, max_value=0x7FFFFFFF))
def test_allowed_loopback_integer_host_connects_to_the_same_address(number: int) -> None:
    wire = RecordingTransport()
    transport = SSRFSafeTransport(SSRFPolicy.from_entries(["127.0.0.0/8"]), transport=wire)
    asyncio.run(transport.handle_async_request(httpx.Request("GET", f"http://{number}:81/")))
    assert wire.seen[0].url.host == str(ipaddress.IPv4Address(number))
    assert wire.seen[0].headers["host"] == f"{number}:81"


def test_site_local_ipv6_is_refused() -> None:
    import ipaddress

    from workbench.net.ssrf import blocked_reason

    assert blocked_reason(ipaddress.ip_address("fec0::1")) == "a site-local address"


async def test_each_host_name_gets_its_own_connection_pool() -> None:
    """Connections go to the checked IP; pooling by IP would reuse a TLS connection verified for one
    name for another."""
    from workbench.net.ssrf import SSRFPolicy, SSRFSafeTransport

    transport = SSRFSafeTransport(SSRFPolicy())
    first = await transport._transport_for("https", "a.example", 443)
    second = await transport._transport_for("https", "b.example", 443)
    again = await transport._transport_for("https", "A.example", 443)
    assert first is not second and first is again
    await transport.aclose()
