"""Who may talk to ``workbench serve``: the session token, the Host and the Origin rules.

A served workbench can run tools, so it is guarded like any local server that can run
commands (MCP Inspector's CVE-2025-49596 shows what happens otherwise). Every request passes
the first two checks, and whatever opens a session the third too:

1. **Host** must name this server: a loopback name or the bound address with the bound port,
   an address the connection really arrived on, or a name given with ``--host-alias``. A page
   on ``attacker.example`` that rebinds its DNS to 127.0.0.1 still sends
   ``Host: attacker.example`` and is refused (421).
2. **Origin**, when sent, must be this server's own (``http://`` + the checked Host); a
   WebSocket upgrade must send it, as every browser does. A page on another site cannot open
   the session's WebSocket (403).
3. **Token**: a random secret in the printed URL. The page keeps it in the tab (session
   storage, which only this origin, port included, can read) and its WebSocket carries it in
   its path: ``/ws/<token>`` (403 without it). Never in a cookie: cookies ignore ports, so a
   browser would send one to every other server on 127.0.0.1 too. The page and its static
   files hold no secret; they are served without the token.

Pure: no aiohttp here, so the rules are tested on their own.
"""

from __future__ import annotations

import enum
import hmac
import ipaddress
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]"})
WILDCARD_ADDRESSES = frozenset({"0.0.0.0", "::", ""})


class Refusal(enum.Enum):
    """Why a request was refused: the status code and the one line the refused client reads."""

    UNKNOWN_HOST = (421, "this Host is not one this server answers to (see --host-alias)")
    FOREIGN_ORIGIN = (403, "requests from another site are refused")
    NO_TOKEN = (403, "a session needs the token: open the URL `workbench serve` printed")
    WRONG_TOKEN = (403, "wrong token: open the URL `workbench serve` printed")

    @property
    def status(self) -> int:
        return self.value[0]

    @property
    def message(self) -> str:
        return self.value[1]


def new_token() -> str:
    """A session token: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` keeps the server on this machine (``localhost`` or 127/8, ::1)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def host_literal(host: str) -> str:
    """``host`` as it appears in a Host header or URL: IPv6 addresses in brackets, lower case."""
    host = host.lower()
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def split_host_header(value: str) -> tuple[str, int | None]:
    """``("name", port)`` from a Host header value; the port is ``None`` when absent or bad."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return value, None
        name, rest = value[: end + 1], value[end + 1 :]
        port_text = rest[1:] if rest.startswith(":") else None
    else:
        name, colon, port_text_or_empty = value.rpartition(":")
        if not colon:
            return value, None
        port_text = port_text_or_empty
    if port_text is None or not port_text.isdigit() or len(port_text) > 5:
        return name, None
    return name, int(port_text)


def _same_address(literal: str, address: str | None) -> bool:
    """Whether a Host name that is an IP literal is ``address`` (IPv4-mapped IPv6 included)."""
    if address is None:
        return False
    try:
        named = ipaddress.ip_address(literal.strip("[]"))
        local = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(local, ipaddress.IPv6Address) and local.ipv4_mapped is not None:
        local = local.ipv4_mapped
    return named == local


@dataclass(frozen=True)
class AccessPolicy:
    """The rules for one bound server: its token, port and the Host names it answers to."""

    token: str
    port: int
    names: frozenset[str]
    """Host names without a port (lower case, IPv6 in brackets), served on :attr:`port`."""
    aliases: frozenset[str] = frozenset()
    """``name:port`` Host values given with ``--host-alias NAME:PORT`` (a proxy's port)."""

    @classmethod
    def for_bind(
        cls,
        host: str,
        port: int,
        *,
        token: str,
        host_aliases: Iterable[str] = (),
        machine_names: Iterable[str] = (),
    ) -> AccessPolicy:
        """The policy of a server bound to ``host:port``.

        Loopback binds answer to every loopback name; a wildcard bind (0.0.0.0, ::) also to
        ``machine_names`` (the host name) and to whatever address a connection arrived on;
        any other address to itself. ``--host-alias`` adds names, with or without a port.
        """
        names: set[str] = set()
        if is_loopback(host) or host in WILDCARD_ADDRESSES:
            names |= LOOPBACK_NAMES
        if host in WILDCARD_ADDRESSES:
            names |= {host_literal(name) for name in machine_names if name}
        else:
            names.add(host_literal(host))
        aliases: set[str] = set()
        for alias in host_aliases:
            name, alias_port = split_host_header(alias)
            if alias_port is None:
                names.add(host_literal(name))
            else:
                aliases.add(f"{host_literal(name)}:{alias_port}")
        return cls(token=token, port=port, names=frozenset(names), aliases=frozenset(aliases))

    def host_allowed(self, host_header: str | None, local_address: str | None = None) -> bool:
        """Whether a request with this Host header is for this server.

        ``local_address`` is the address the connection arrived on: a Host that is exactly
        that IP literal is this server whatever else it is called (a DNS name never equals it).
        """
        if not host_header:
            return False
        name, port = split_host_header(host_header)
        if port is None:
            return False
        if f"{name}:{port}" in self.aliases:
            return True
        if port != self.port:
            return False
        return name in self.names or _same_address(name, local_address)

    @staticmethod
    def origin_allowed(origin: str | None, host_header: str, *, websocket: bool) -> bool:
        """Whether the Origin (if any) is this server's own; a WebSocket must send one.

        ``https://`` counts too, for a TLS proxy in front (``--host-alias``): only whoever
        holds this exact host and port can serve that origin.
        """
        if origin is None:
            return not websocket
        host = host_header.strip().lower()
        return origin.strip().lower() in (f"http://{host}", f"https://{host}")

    def token_matches(self, candidate: str | None) -> bool:
        """Constant-time comparison with the session token."""
        if candidate is None:
            return False
        return hmac.compare_digest(candidate.encode("utf-8"), self.token.encode("utf-8"))

    def refusal(
        self,
        *,
        host: str | None,
        origin: str | None,
        websocket: bool,
        local_address: str | None = None,
    ) -> Refusal | None:
        """The first of the Host and Origin checks this request fails, or ``None``."""
        if not self.host_allowed(host, local_address):
            return Refusal.UNKNOWN_HOST
        assert host is not None
        if not self.origin_allowed(origin, host, websocket=websocket):
            return Refusal.FOREIGN_ORIGIN
        return None
