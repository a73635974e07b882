"""The connection caps of `workbench serve`, on their own: per client address, in total, and
who makes room (the oldest), over any sequence of arrivals and departures."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench.serve.connections import ConnectionLimits, LimitedProtocol


class FakeTransport:
    """Just what the caps look at: the peer's address, and abort()."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.aborted = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return (self.address, 50000) if name == "peername" else default

    def abort(self) -> None:
        self.aborted = True


def arrive(limits: ConnectionLimits, address: str) -> FakeTransport:
    transport = FakeTransport(address)
    limits.admit(cast(asyncio.Transport, transport))
    return transport


def test_past_the_per_client_cap_the_oldest_of_that_address_makes_room() -> None:
    limits = ConnectionLimits(per_client=3, total=10)
    first = [arrive(limits, "127.0.0.1") for _ in range(3)]
    other = arrive(limits, "127.0.0.2")
    newest = arrive(limits, "127.0.0.1")
    assert [t.aborted for t in first] == [True, False, False]
    assert not other.aborted and not newest.aborted
    assert limits.open_from("127.0.0.1") == 3 and limits.open_from("127.0.0.2") == 1
    assert limits.closed_past_cap == 1


def test_past_the_total_cap_the_oldest_of_all_makes_room() -> None:
    limits = ConnectionLimits(per_client=3, total=4)
    early = arrive(limits, "10.0.0.1")
    rest = [arrive(limits, address) for address in ("10.0.0.2", "10.0.0.3", "10.0.0.4")]
    arrive(limits, "10.0.0.5")
    assert early.aborted and not any(t.aborted for t in rest)
    assert len(limits) == 4


def test_a_connection_that_left_or_became_a_session_is_not_counted() -> None:
    limits = ConnectionLimits(per_client=2, total=4)
    session = arrive(limits, "127.0.0.1")
    limits.release(cast(asyncio.Transport, session))  # upgraded: --max-sessions counts it
    pending = [arrive(limits, "127.0.0.1") for _ in range(3)]
    assert not session.aborted  # a session is never the one to make room
    assert [t.aborted for t in pending] == [True, False, False]
    limits.release(cast(asyncio.Transport, pending[0]))  # its close, after the abort: no-op
    assert limits.open_from("127.0.0.1") == 2


@pytest.mark.parametrize(("per_client", "total"), [(0, 5), (5, 4), (-1, -1)])
def test_caps_must_make_sense(per_client: int, total: int) -> None:
    with pytest.raises(ValueError, match="caps must be"):
        ConnectionLimits(per_client=per_client, total=total)


@given(
    st.integers(1, 5),
    st.integers(0, 6),
    st.lists(st.tuples(st.booleans(), st.integers(0, 3)), max_size=80),
)
def test_any_sequence_stays_within_the_caps_and_lets_the_newcomer_in(
    per_client: int, extra: int, steps: list[tuple[bool, int]]
) -> None:
    limits = ConnectionLimits(per_client=per_client, total=per_client + extra)
    live: list[FakeTransport] = []
    for arriving, which in steps:
        if arriving or not live:
            newcomer = arrive(limits, f"127.0.0.{which + 1}")
            assert not newcomer.aborted
            live.append(newcomer)
        else:
            leaving = live.pop(which % len(live))
            limits.release(cast(asyncio.Transport, leaving))
        live = [t for t in live if not t.aborted]
        assert len(limits) == len(live) <= limits.total
        for address in {t.address for t in live}:
            counted = sum(t.address == address for t in live)
            assert limits.open_from(address) == counted <= per_client


class RecordingProtocol(asyncio.Protocol):
    def __init__(self) -> None:
        self.events: list[str] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.events.append("made")

    def data_received(self, data: bytes) -> None:
        self.events.append(f"data {data!r}")

    def eof_received(self) -> bool | None:
        self.events.append("eof")
        return True

    def pause_writing(self) -> None:
        self.events.append("pause")

    def resume_writing(self) -> None:
        self.events.append("resume")

    def connection_lost(self, exc: Exception | None) -> None:
        self.events.append("lost")


def test_the_counted_protocol_hands_every_event_on() -> None:
    inner = RecordingProtocol()
    limits = ConnectionLimits(per_client=2, total=2)
    protocol = LimitedProtocol(inner, limits)
    protocol.connection_made(cast(asyncio.Transport, FakeTransport("127.0.0.1")))
    assert len(limits) == 1
    protocol.data_received(b"GET")
    assert protocol.eof_received() is True
    protocol.pause_writing()
    protocol.resume_writing()
    protocol.connection_lost(None)
    assert inner.events == ["made", "data b'GET'", "eof", "pause", "resume", "lost"]
    assert len(limits) == 0
