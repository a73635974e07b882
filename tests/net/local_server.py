"""A real HTTP server on a loopback address for network tests: routes, recorded requests,
concurrency."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


@dataclass(frozen=True)
class Seen:
    """One request the server received."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    peer: str
    body: bytes = b""


@dataclass
class Reply:
    """What a route answers; ``delay`` is slept (in the server thread) before answering."""

    status: int = 200
    body: bytes | str = b""
    content_type: str | None = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0

    @classmethod
    def json(cls, data: Any, status: int = 200) -> Reply:
        return cls(status=status, body=json.dumps(data), content_type="application/json")

    @classmethod
    def redirect(cls, location: str, status: int = 302) -> Reply:
        return cls(status=status, headers={"Location": location}, content_type=None)


Route = Reply | Callable[[Seen], Reply]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    owner: LocalServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Clients that hang up early (body caps, timeouts) are expected; keep the output quiet."""


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        del format, args

    def _serve(self) -> None:
        owner = self.server.owner
        parts = urlsplit(self.path)
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        seen = Seen(
            self.command,
            parts.path,
            parse_qs(parts.query, keep_blank_values=True),
            {key.lower(): value for key, value in self.headers.items()},
            str(self.client_address[0]),
            body,
        )
        with owner.lock:
            owner.requests.append(seen)
            owner.in_flight += 1
            owner.max_in_flight = max(owner.max_in_flight, owner.in_flight)
        try:
            route = owner.routes.get(parts.path)
            reply = (
                Reply(
                    404,
                    "<html><head><title>Not found</title></head><body><p>no "
                    "such page</p></body></html>",
                )
                if route is None
                else route
                if isinstance(route, Reply)
                else route(seen)
            )
            if reply.delay:
                time.sleep(reply.delay)
            body = reply.body.encode("utf-8") if isinstance(reply.body, str) else reply.body
            self.send_response(reply.status)
            if reply.content_type is not None:
                self.send_header("Content-Type", reply.content_type)
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        finally:
            with owner.lock:
                owner.in_flight -= 1

    do_GET = _serve
    do_POST = _serve


class LocalServer:
    """A threaded HTTP server bound to ``host`` on a free port; routes are set per test."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.host = host
        self.routes: dict[str, Route] = {}
        self.requests: list[Seen] = []
        self.lock = threading.Lock()
        self.in_flight = 0
        self.max_in_flight = 0
        server_class = (
            type("_Server6", (_Server,), {"address_family": socket.AF_INET6})
            if ":" in host
            else _Server
        )
        self._server = server_class((host, 0), _Handler)
        self._server.owner = self
        self.port: int = self._server.server_address[1]
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )

    @property
    def origin(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def url(self, path: str = "/", host: str | None = None) -> str:
        """``path`` on this server; ``host`` names it another way (e.g. ``localhost``)."""
        if host is None:
            return self.origin + path
        return f"http://{host}:{self.port}{path}"

    def route(self, path: str, reply: Route) -> None:
        self.routes[path] = reply

    def paths(self) -> list[str]:
        with self.lock:
            return [seen.path for seen in self.requests]

    def start(self) -> LocalServer:
        self._thread.start()
        return self

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


@contextmanager
def running_server(host: str = "127.0.0.1") -> Iterator[LocalServer]:
    server = LocalServer(host).start()
    try:
        yield server
    finally:
        server.close()


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
