"""An SSRF-safe httpx transport: resolve first, check every address, connect to what was checked.

A naive ``ipaddress.ip_address(url.host)`` check misses ``2130706433``, ``0x7f000001`` and
``127.1`` (all 127.0.0.1 to the resolver) and names that resolve to private addresses, and
``follow_redirects`` would happily follow a 302 to 169.254.169.254. This transport:

1. resolves the host with the system resolver (which understands all those spellings);
2. refuses if *any* resolved address is loopback, private, link-local (cloud metadata),
   multicast, reserved or unspecified — IPv4-mapped IPv6 addresses are unwrapped first —
   unless an explicit allow-list opens it;
3. connects to the checked address itself (the URL's host is swapped for the IP, with the
   ``Host`` header and TLS SNI kept), so a second DNS answer cannot differ from the first;
4. runs again for every redirect hop, because httpx sends each hop through the transport.

Response bodies are capped by :func:`read_capped`, counted after decompression.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import httpx

from workbench.core.limits import Limits
from workbench.net.decoding import ACCEPT_ENCODING, BodyDecoder, UndecodableBody

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

DEFAULT_MAX_BYTES = Limits().max_body_bytes
MAX_POOLS = 32
METADATA_ADDRESSES = frozenset(
    {
        ipaddress.ip_address("169.254.169.254"),
        ipaddress.ip_address("fd00:ec2::254"),
        ipaddress.ip_address("100.100.100.200"),
    }
)


class RequestRefused(httpx.TransportError):
    """The guard refused a request; ``reason`` says which address and why."""

    def __init__(
        self, message: str, *, request: httpx.Request | None = None, reason: str = ""
    ) -> None:
        super().__init__(message, request=request)
        self.reason = reason or message


def _unwrap(address: IPAddress) -> IPAddress:
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return address.ipv4_mapped
        if address.sixtofour is not None:
            return address.sixtofour
    return address


def blocked_reason(address: IPAddress) -> str | None:
    """Why ``address`` is not a public destination, or ``None`` if it is."""
    address = _unwrap(address)
    if address in METADATA_ADDRESSES:
        return "a cloud metadata address"
    checks = (
        ("is_loopback", "a loopback address"),
        ("is_link_local", "a link-local address"),
        ("is_private", "a private address"),
        ("is_multicast", "a multicast address"),
        ("is_unspecified", "an unspecified address"),
        ("is_reserved", "a reserved address"),
    )
    for attribute, reason in checks:
        if getattr(address, attribute):
            return reason
    if isinstance(address, ipaddress.IPv4Address) and address in ipaddress.ip_network(
        "100.64.0.0/10"
    ):
        return "a carrier-grade NAT address"
    if isinstance(address, ipaddress.IPv6Address) and address.is_site_local:
        return "a site-local address"
    return None


@dataclass(frozen=True)
class SSRFPolicy:
    """What may be reached besides the public internet."""

    allow_networks: tuple[IPNetwork, ...] = ()
    allow_hosts: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def from_entries(cls, entries: Iterable[str]) -> SSRFPolicy:
        """Entries are CIDRs/addresses (``127.0.0.1``, ``10.0.0.0/8``) or host names."""
        networks: list[IPNetwork] = []
        hosts: set[str] = set()
        for entry in entries:
            entry = entry.strip()
            if not entry:
                continue
            try:
                networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                hosts.add(entry.lower())
        return cls(tuple(networks), frozenset(hosts))

    def allows(self, host: str, address: IPAddress) -> bool:
        if host.lower() in self.allow_hosts:
            return True
        unwrapped = _unwrap(address)
        return any(unwrapped in network or address in network for network in self.allow_networks)


async def resolve(host: str, port: int) -> list[IPAddress]:
    """Every address the system resolver gives for ``host``."""
    loop = asyncio.get_running_loop()
    try:
        infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise httpx.ConnectError(f"cannot resolve {host}: {error.strerror}") from None
    addresses: list[IPAddress] = []
    for _family, _type, _proto, _name, sockaddr in infos:
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        if address not in addresses:
            addresses.append(address)
    return addresses


class SSRFSafeTransport(httpx.AsyncBaseTransport):
    """Wraps a real transport; every request (and redirect hop) is resolved and checked."""

    def __init__(
        self, policy: SSRFPolicy | None = None, *, transport: httpx.AsyncBaseTransport | None = None
    ) -> None:
        self.policy = policy or SSRFPolicy()
        self._shared = transport
        # Requests go to the checked IP, and a connection pool keys connections by the URL it
        # was opened for: one pool per (scheme, host, port) so a TLS connection opened (and
        # verified) for one name is never reused for another name on the same address.
        self._pools: OrderedDict[tuple[str, str, int], httpx.AsyncBaseTransport] = OrderedDict()

    async def _transport_for(self, scheme: str, host: str, port: int) -> httpx.AsyncBaseTransport:
        if self._shared is not None:
            return self._shared
        key = (scheme, host.lower(), port)
        pool = self._pools.pop(key, None) or httpx.AsyncHTTPTransport()
        self._pools[key] = pool
        while len(self._pools) > MAX_POOLS:
            _, oldest = self._pools.popitem(last=False)
            await oldest.aclose()
        return pool

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        if url.scheme not in ("http", "https"):
            raise RequestRefused(f"refused {url.scheme}:// (only http and https)", request=request)
        host = url.host
        port = url.port or (443 if url.scheme == "https" else 80)
        addresses = await resolve(host, port)
        if not addresses:
            raise httpx.ConnectError(f"{host} has no addresses", request=request)
        for address in addresses:
            reason = blocked_reason(address)
            if reason is not None and not self.policy.allows(host, address):
                message = (
                    f"refused {host} ({address}): {reason}; add it to the allow-list to reach it"
                )
                raise RequestRefused(message, request=request, reason=reason)
        chosen = addresses[0]
        ip_host = str(chosen)
        if ip_host != host:
            # Connect to the address we checked; keep Host and SNI so virtual hosts and TLS work.
            # A copy goes to the wire: the caller's request (and so response.url and every
            # relative redirect) keeps the original name, which the allow-list may name.
            extensions = (
                {**request.extensions, "sni_hostname": host}
                if url.scheme == "https"
                else request.extensions
            )
            request = httpx.Request(
                request.method,
                url.copy_with(host=ip_host),
                headers=request.headers,
                stream=request.stream,
                extensions=extensions,
            )
        transport = await self._transport_for(url.scheme, host, port)
        return await transport.handle_async_request(request)

    async def aclose(self) -> None:
        pools = list(self._pools.values())
        self._pools.clear()
        for pool in pools:
            await pool.aclose()
        if self._shared is not None:
            await self._shared.aclose()


def safe_client(
    *,
    allow: Sequence[str] = (),
    timeout: float = 20.0,
    max_redirects: int = 5,
    headers: dict[str, str] | None = None,
) -> httpx.AsyncClient:
    """An ``httpx.AsyncClient`` whose every request and redirect goes through the guard."""
    return httpx.AsyncClient(
        transport=SSRFSafeTransport(SSRFPolicy.from_entries(allow)),
        follow_redirects=True,
        max_redirects=max_redirects,
        timeout=timeout,
        # Only encodings read_capped inflates in bounded pieces: the cap counts decoded bytes.
        headers={
            "User-Agent": "workbench/0.1",
            "Accept-Encoding": ACCEPT_ENCODING,
            **(headers or {}),
        },
    )


async def read_capped(
    response: httpx.Response, max_bytes: int = DEFAULT_MAX_BYTES
) -> tuple[bytes, bool]:
    """Read at most ``max_bytes`` of a streamed response, decoded; returns ``(body, truncated)``.

    Bytes are counted after decompression, and decompression happens in bounded pieces
    (:class:`~workbench.net.decoding.BodyDecoder`), so a compressed bomb stops at the cap
    instead of expanding in memory first. An encoding it cannot undo is an
    ``httpx.DecodingError``.
    """
    chunks: list[bytes] = []
    size = 0
    truncated = False
    try:
        try:
            decoder = BodyDecoder.from_header_values(response.headers.get_list("content-encoding"))
        except UndecodableBody as error:
            raise httpx.DecodingError(str(error), request=response.request) from None

        def keep(pieces: Iterable[bytes]) -> bool:
            nonlocal size, truncated
            for piece in pieces:
                remaining = max_bytes - size
                if len(piece) > remaining:
                    chunks.append(piece[:remaining])
                    size = max_bytes
                    truncated = True
                    return False
                chunks.append(piece)
                size += len(piece)
            return True

        try:
            async for raw in response.aiter_raw():
                if not keep(decoder.feed(raw)):
                    break
            else:
                keep(decoder.flush())
        except UndecodableBody as error:
            raise httpx.DecodingError(str(error), request=response.request) from None
    finally:
        await response.aclose()
    return b"".join(chunks), truncated
