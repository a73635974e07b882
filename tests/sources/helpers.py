"""Shared helpers for the live-source tests: running calls, real servers in threads, rendering."""

from __future__ import annotations

import contextlib
import io
import json
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from rich.console import Console

from workbench.core import events as ev
from workbench.core.call_state import CallState
from workbench.core.manifest import ToolManifest
from workbench.core.reducer import reduce_all
from workbench.core.result import ToolResult
from workbench.policy.verdict import ApprovalCheck
from workbench.sources.base import ToolSource
from workbench.sources.call_runner import ApprovalGate, LiveCall
from workbench.sources.mcp_source import McpServerSpec
from workbench.surfaces.card import card_renderable
from workbench.surfaces.context import SurfaceContext
from workbench.surfaces.registry import SurfaceRegistry

SERVERS = Path(__file__).resolve().parent / "servers"
MISBEHAVING = SERVERS / "misbehaving.py"


def misbehaving_spec(*flags: str, name: str = "bad") -> McpServerSpec:
    """The misbehaving test server as a real stdio subprocess of this Python."""
    return McpServerSpec(name=name, command=sys.executable, args=[str(MISBEHAVING), *flags])


@dataclass
class CallRun:
    """Everything one live call produced."""

    call: LiveCall
    result: ToolResult
    events: list[ev.CallEvent] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def names(self) -> list[str]:
        return [type(event).__name__ for event in self.events]

    @property
    def terminals(self) -> list[ev.Terminal]:
        return [event for event in self.events if isinstance(event, ev.Terminal)]

    @property
    def terminal(self) -> ev.Terminal:
        [only] = self.terminals
        return only

    def state(self) -> CallState:
        return reduce_all(CallState(tool=self.call.tool, api=self.call.api), self.events)


def make_call(source: ToolSource, tool: str, api: str, args: dict[str, Any], *, timeout_ms: int = 10_000, manifest: ToolManifest | None = None, approval: ApprovalCheck | None = None, approval_gate: ApprovalGate | None = None) -> tuple[LiveCall, list[ev.CallEvent]]:
    events: list[ev.CallEvent] = []
    manifest = manifest if manifest is not None else source.get_tool(tool)
    call = LiveCall(source, manifest, tool, api, args, on_event=events.append, timeout_ms=timeout_ms, approval=approval, approval_gate=approval_gate)
    return call, events


async def run_call(source: ToolSource, tool: str, api: str, args: dict[str, Any], **options: Any) -> CallRun:
    """Run one call to its terminal event; collects the events and the wall time."""
    call, events = make_call(source, tool, api, args, **options)
    started = time.monotonic()
    result = await call.run()
    return CallRun(call=call, result=result, events=events, seconds=time.monotonic() - started)


def render_card(state: CallState, manifest: ToolManifest | None, *, width: int = 100) -> str:
    """The generic tool card as plain text."""
    console = Console(record=True, width=width, color_system=None, file=io.StringIO())
    console.print(card_renderable(SurfaceContext(state=state, manifest=manifest, width=width), SurfaceRegistry()))
    return console.export_text()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def serve_asgi(app: Any) -> Iterator[str]:
    """Run an ASGI app with uvicorn in a background thread on 127.0.0.1; yields its origin."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, name=f"uvicorn:{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"uvicorn did not start on port {port}")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        assert not thread.is_alive(), "uvicorn did not shut down"


# --- a local HTTP endpoint for HTTP tools -----------------------------------------------------------


@dataclass
class Answer:
    status: int = 200
    body: bytes = b""
    content_type: str | None = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


class Endpoint(ThreadingHTTPServer):
    """A local HTTP server whose routes answer POSTs; every request is recorded."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.routes: dict[str, Answer | Callable[[Received], Answer]] = {}
        self.received: list[Received] = []
        self.lock = threading.Lock()

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    def paths(self) -> list[str]:
        with self.lock:
            return [item.path for item in self.received]

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Clients that hang up early (timeouts, caps) are expected."""


class Handler(BaseHTTPRequestHandler):
    server: Endpoint
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        del format, args

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        received = Received(self.command, self.path, {key.lower(): value for key, value in self.headers.items()}, self.rfile.read(length))
        with self.server.lock:
            self.server.received.append(received)
        route = self.server.routes.get(self.path)
        answer = Answer(404, b'{"detail": "no such route"}') if route is None else route if isinstance(route, Answer) else route(received)
        if answer.delay:
            time.sleep(answer.delay)
        self.send_response(answer.status)
        if answer.content_type:
            self.send_header("Content-Type", answer.content_type)
        for name, value in answer.headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(answer.body)))
        self.end_headers()
        self.wfile.write(answer.body)

    do_POST = _serve  # noqa: N815 - the base class's naming
    do_GET = _serve  # noqa: N815


def as_json(data: Any, status: int = 200) -> Answer:
    return Answer(status=status, body=json.dumps(data).encode())


@contextlib.contextmanager
def running_endpoint() -> Iterator[Endpoint]:
    """An :class:`Endpoint` serving from a background thread; shut down afterwards."""
    server = Endpoint()
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
