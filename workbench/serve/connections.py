"""How many connections ``workbench serve`` keeps open, and for whom.

A connection that is not a session costs a socket and a parser for as long as its client
takes to send a request: a slow client (slow loris) opening hundreds of them would hold them
all. Two bounds stop that. aiohttp's keep-alive deadline, set short, closes a connection whose
request head has not arrived in time (:data:`workbench.serve.server.HEADER_TIMEOUT_S`). And
:class:`ConnectionLimits` caps the connections per client address and in total: past a cap,
the newcomer is let in and the oldest connection of that address (or of all, for the total)
is closed, so a flood of stalled connections holds no more than the cap and keeps no one out:
a browser's own request is always newer than the flood. Sessions (upgraded WebSockets) leave
the count once open: ``--max-sessions`` caps them.

Plain asyncio: no aiohttp here, so the rule is tested on its own.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from typing import cast

log = logging.getLogger("workbench.serve")


def peer_address(transport: asyncio.BaseTransport) -> str:
    """The client's address (no port): what the per-client cap counts by."""
    peer = transport.get_extra_info("peername")
    if isinstance(peer, tuple) and peer:
        return str(peer[0])
    return "?"


class ConnectionLimits:
    """The open connections that are not sessions, oldest first, within two caps."""

    def __init__(self, *, per_client: int, total: int) -> None:
        if per_client < 1 or total < per_client:
            raise ValueError(f"caps must be 1 <= per_client <= total, not {per_client}, {total}")
        self.per_client = per_client
        self.total = total
        self.closed_past_cap = 0
        """Connections closed to make room for newer ones."""
        self._open: dict[asyncio.Transport, str] = {}  # insertion order: oldest first
        self._per_address: Counter[str] = Counter()

    def __len__(self) -> int:
        return len(self._open)

    def open_from(self, address: str) -> int:
        return self._per_address[address]

    def admit(self, transport: asyncio.Transport) -> None:
        """Count a new connection; first close the oldest ones it would put past a cap."""
        address = peer_address(transport)
        if self._per_address[address] >= self.per_client:
            self._close_oldest(address)
        if len(self._open) >= self.total:
            self._close_oldest(None)
        self._open[transport] = address
        self._per_address[address] += 1

    def release(self, transport: asyncio.BaseTransport) -> None:
        """Stop counting a connection: it closed, or it became a session."""
        address = self._open.pop(cast(asyncio.Transport, transport), None)
        if address is not None:
            self._per_address[address] -= 1
            if not self._per_address[address]:
                del self._per_address[address]

    def _close_oldest(self, address: str | None) -> None:
        oldest = next(
            (held for held, owner in self._open.items() if address in (None, owner)), None
        )
        if oldest is None:
            return
        self.release(oldest)
        # abort, not close: a client that reads nothing must not keep the socket either.
        oldest.abort()
        self.closed_past_cap += 1
        if self.closed_past_cap == 1:
            log.warning(
                "more connections than the caps (%d per client address, %d in all): "
                "closing the oldest to make room",
                self.per_client,
                self.total,
            )


class LimitedProtocol(asyncio.Protocol):
    """The protocol aiohttp made for one connection, counted by :class:`ConnectionLimits`
    while it lives. Every event is handed to it unchanged."""

    def __init__(self, inner: asyncio.Protocol, limits: ConnectionLimits) -> None:
        self.inner = inner
        self.limits = limits
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # A stream server's transports are Transports (aiohttp's handler casts the same way).
        self.transport = cast(asyncio.Transport, transport)
        self.limits.admit(self.transport)
        self.inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.transport is not None:
            self.limits.release(self.transport)
        self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()
