"""The access rules of `workbench serve`, on their own: Host, Origin, token, binds."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench.serve.access import (
    AccessPolicy,
    Refusal,
    is_loopback,
    new_token,
    split_host_header,
)

TOKEN = "s3cret-token"


def loopback(port: int = 8123, **kwargs: object) -> AccessPolicy:
    return AccessPolicy.for_bind("127.0.0.1", port, token=TOKEN, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1:8123", "localhost:8123", "LOCALHOST:8123", "[::1]:8123"],
)
def test_a_loopback_server_answers_to_every_loopback_name(host: str) -> None:
    assert loopback().host_allowed(host)


@pytest.mark.parametrize(
    "host",
    [
        None,
        "",
        "evil.example:8123",  # DNS rebinding: the attacker's name, resolved to 127.0.0.1
        "127.0.0.1",  # no port
        "127.0.0.1:80",  # another port
        "127.0.0.1:8123.evil.example",
        "localhost.evil.example:8123",
        "127.0.0.2:8123",  # loopback, but not the name we print or bound
        "[::1]",
        "[::1:8123",
        "127.0.0.1:08123x",
    ],
)
def test_a_loopback_server_refuses_other_hosts(host: str | None) -> None:
    assert not loopback().host_allowed(host)
    assert loopback().refusal(host=host, origin=None, websocket=False) is Refusal.UNKNOWN_HOST


def test_an_ip_literal_is_allowed_when_the_connection_arrived_on_that_address() -> None:
    exposed = AccessPolicy.for_bind("0.0.0.0", 9000, token=TOKEN, machine_names=["build-box"])
    assert exposed.host_allowed("192.0.2.7:9000", local_address="192.0.2.7")
    assert exposed.host_allowed("192.0.2.7:9000", local_address="::ffff:192.0.2.7")
    assert exposed.host_allowed("build-box:9000")
    assert exposed.host_allowed("localhost:9000")
    # Another machine's address, or a name that resolves here, is not this server.
    assert not exposed.host_allowed("192.0.2.8:9000", local_address="192.0.2.7")
    assert not exposed.host_allowed("attacker.example:9000", local_address="192.0.2.7")


def test_a_specific_address_answers_to_itself_and_its_aliases() -> None:
    policy = AccessPolicy.for_bind(
        "192.0.2.7", 9000, token=TOKEN, host_aliases=["review.example", "proxy.example:443"]
    )
    assert policy.host_allowed("192.0.2.7:9000")
    assert policy.host_allowed("review.example:9000")
    assert policy.host_allowed("proxy.example:443")
    assert not policy.host_allowed("proxy.example:9000")
    assert not policy.host_allowed("localhost:9000")  # not bound on loopback


def test_ipv6_binds_use_brackets() -> None:
    policy = AccessPolicy.for_bind("::1", 9000, token=TOKEN)
    assert policy.host_allowed("[::1]:9000")
    assert policy.host_allowed("localhost:9000")


@pytest.mark.parametrize(
    ("origin", "websocket", "allowed"),
    [
        (None, False, True),  # a same-origin page load or script sends no Origin
        (None, True, False),  # every browser sends Origin on a WebSocket upgrade
        ("http://127.0.0.1:8123", True, True),
        ("HTTP://127.0.0.1:8123", True, True),
        ("http://localhost:8123", True, False),  # another origin, though the same machine
        ("http://evil.example", True, False),
        ("http://127.0.0.1:8124", True, False),
        ("null", True, False),  # sandboxed iframes, file:// pages
        ("http://evil.example", False, False),
    ],
)
def test_origin_must_be_this_server(origin: str | None, websocket: bool, allowed: bool) -> None:
    refusal = loopback().refusal(host="127.0.0.1:8123", origin=origin, websocket=websocket)
    assert (refusal is None) is allowed
    if not allowed:
        assert refusal is Refusal.FOREIGN_ORIGIN


def test_the_token_is_compared_whole() -> None:
    policy = loopback()
    assert policy.token_matches(TOKEN)
    for wrong in (None, "", TOKEN[:-1], TOKEN + "x", TOKEN.upper(), "ß" * 12):
        assert not policy.token_matches(wrong)


def test_tokens_are_long_and_random() -> None:
    tokens = {new_token() for _ in range(50)}
    assert len(tokens) == 50
    assert all(len(token) >= 43 for token in tokens)  # 256 bits, URL-safe base64


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.0.2.7", False),
        ("example.org", False),
    ],
)
def test_loopback_binds(host: str, expected: bool) -> None:
    assert is_loopback(host) is expected


@given(st.text(max_size=60))
def test_host_headers_never_crash_the_check(value: str) -> None:
    _name, port = split_host_header(value)
    assert port is None or 0 <= port <= 99999
    loopback().refusal(host=value, origin=value, websocket=True, local_address=value)
