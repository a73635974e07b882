"""The web server behind ``workbench serve``: textual-serve's, with the door locked.

:class:`WorkbenchServer` keeps textual-serve's protocol, its JavaScript client and its static
files, and replaces what faces the network (textual-serve 1.1.3, pinned; every override has a
test): its own routes (no ``/download``, no directory listings), a middleware that checks Host,
then Origin, then the token (:mod:`workbench.serve.access`), security headers and a strict
Content-Security-Policy on the page, its own page (no third-party font, no inline script; its
script keeps the token in the tab and puts it in the WebSocket's path), the WebSocket URL
built from the checked Host, a cap on sessions, clamped terminal sizes and message sizes, a
deadline for request heads and caps on connections (:mod:`workbench.serve.connections`), no
access log (it would print the token), and sessions that are reaped
(:class:`~workbench.serve.session_process.ServedApp`) when the browser leaves or the server
stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import WSMsgType, web
from textual_serve.server import Server

from workbench.serve.access import (
    WILDCARD_ADDRESSES,
    AccessPolicy,
    Refusal,
    host_literal,
    new_token,
)
from workbench.serve.connections import ConnectionLimits, LimitedProtocol
from workbench.serve.session_process import ServedApp

log = logging.getLogger("workbench.serve")

HERE = Path(__file__).parent
MAX_MESSAGE_BYTES = 64 * 1024
"""A browser sends keys, sizes and pings: nothing near this."""
HEARTBEAT_S = 15.0
"""A browser that stops answering pings (a dropped network) is gone after about twice this."""
COLUMNS = (10, 400)
ROWS = (5, 200)
FONT_SIZES = (8, 40)
REFUSALS_LOGGED = 10
"""Refused requests logged one by one; after that only counted (a page may hammer us)."""
HEADER_TIMEOUT_S = 5.0
"""A request head must arrive within this of the connection opening or of the last answer."""
CONNECTIONS_PER_CLIENT = 32
"""Connections that are not sessions, per client address: a browser opens six per host."""
CONNECTIONS_TOTAL = 128
WEBSOCKET_PATH = "/ws"
"""The page's WebSocket is ``/ws/<token>``: textual.js appends the terminal size as a query."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def clamp(value: Any, bounds: tuple[int, int], default: int) -> int:
    """``value`` as an int within ``bounds``; ``default`` when it is not a number."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return default
    return max(bounds[0], min(bounds[1], number))


def content_security_policy(host: str) -> str:
    """The page's CSP: our own scripts, styles and fonts, and one WebSocket to this host.

    xterm.js injects ``<style>`` elements, hence ``'unsafe-inline'`` for styles only.
    """
    return (
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        f"font-src 'self'; img-src 'self' data:; connect-src ws://{host}; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    )


class WorkbenchServer(Server):
    """Serve ``argv`` (a workbench command) to browsers holding the token."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        title: str = "Workbench",
        token: str | None = None,
        host_aliases: Sequence[str] = (),
        max_sessions: int = 8,
        environment: dict[str, str] | None = None,
        connections_per_client: int = CONNECTIONS_PER_CLIENT,
        connections_total: int = CONNECTIONS_TOTAL,
    ) -> None:
        super().__init__(
            " ".join(argv),
            host=host,
            port=port,
            title=title,
            # Absolute paths win over textual-serve's package directory: our page, its static.
            templates_path=HERE / "templates",
        )
        self.argv = list(argv)
        self.token = token or new_token()
        self.host_aliases = tuple(host_aliases)
        self.max_sessions = max_sessions
        self.environment = dict(environment or {})
        self.policy: AccessPolicy | None = None
        self.sessions: set[ServedApp] = set()
        self.sessions_started = 0
        self.refusals: Counter[Refusal] = Counter()
        self.connections = ConnectionLimits(
            per_client=connections_per_client, total=connections_total
        )
        self._opening = 0
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None

    # -- the guard --------------------------------------------------------------------------

    @web.middleware
    async def guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Host, then Origin, then the token; then security headers on what we answer."""
        policy = self.policy
        if policy is None:
            return web.Response(status=503, text="workbench serve: starting\n")
        websocket = request.headers.get("Upgrade", "").lower() == "websocket"
        refusal = policy.refusal(
            host=request.headers.get("Host"),
            origin=request.headers.get("Origin"),
            websocket=websocket,
            local_address=_local_address(request),
        )
        if refusal is None:
            refusal = token_refusal(request, policy, websocket=websocket)
        if refusal is not None:
            return self._refuse(request, refusal)
        response = await handler(request)
        if not response.prepared:  # a WebSocket's headers are already sent
            headers = response.headers
            headers["Referrer-Policy"] = "no-referrer"
            headers["X-Content-Type-Options"] = "nosniff"
            headers["X-Frame-Options"] = "DENY"
            # textual.js, CSS and fonts hold no secret and are the bulk of a page load.
            static = request.path.startswith(("/static/", "/workbench-static/"))
            headers["Cache-Control"] = "private, max-age=3600" if static else "no-store"
            if response.content_type == "text/html":
                headers["Content-Security-Policy"] = content_security_policy(request.host)
        return response

    def _refuse(self, request: web.Request, refusal: Refusal) -> web.Response:
        self.refusals[refusal] += 1
        if sum(self.refusals.values()) <= REFUSALS_LOGGED:
            log.warning(
                "refused %s %s: %s",
                request.method,
                _shown_path(request.path),
                refusal.name.lower().replace("_", " "),
            )
        response = web.Response(status=refusal.status, text=f"workbench serve: {refusal.message}\n")
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response

    # -- the application ------------------------------------------------------------------

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self.guard], client_max_size=MAX_MESSAGE_BYTES)
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get(WEBSOCKET_PATH + "/{token}", self.handle_websocket, name="websocket"),
                # textual.js, xterm.css and the fonts, without a directory listing.
                web.static("/static", self.statics_path, name="static"),
                web.static("/workbench-static", HERE / "static", name="workbench-static"),
            ]
        )
        return app

    async def handle_index(self, request: web.Request) -> web.Response:
        """The page. Its WebSocket URL comes from the (checked) Host the browser used: opening
        ``localhost`` must talk to ``ws://localhost``, or the Origin would not match. The
        page's script adds the token it keeps (``/ws/<token>``); the page itself holds none.
        """
        if self._full():
            # Said here, where a person reads it; the WebSocket's 503 only closes the page.
            raise web.HTTPServiceUnavailable(text=self._full_message())
        context = {
            "title": self.title,
            "font_size": clamp(request.query.get("fontsize"), FONT_SIZES, 16),
            "websocket_url": f"ws://{request.host}{WEBSOCKET_PATH}",
        }
        return aiohttp_jinja2.render_template("index.html", request, context)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One browser tab: one workbench process, for as long as the WebSocket lives."""
        if self._full():
            raise web.HTTPServiceUnavailable(text=self._full_message())
        self._opening += 1
        try:
            websocket = web.WebSocketResponse(heartbeat=HEARTBEAT_S, max_msg_size=MAX_MESSAGE_BYTES)
            await websocket.prepare(request)
            if request.transport is not None:  # a session now: --max-sessions counts it
                self.connections.release(request.transport)
            app = ServedApp(
                self.argv,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,
                download_manager=self.download_manager,
                environment=self.environment,
            )
            self.sessions.add(app)
        finally:
            self._opening -= 1
        self.sessions_started += 1
        try:
            try:
                await app.start(
                    clamp(request.query.get("width"), COLUMNS, 80),
                    clamp(request.query.get("height"), ROWS, 24),
                )
            except OSError as error:
                log.warning("could not start a served session: %s", error)
                return websocket
            with contextlib.suppress(ConnectionError):  # the browser left mid-message
                await self._relay(websocket, app)
        finally:
            self.sessions.discard(app)
            await asyncio.shield(app.stop())
            await websocket.close()
        return websocket

    def _full(self) -> bool:
        return len(self.sessions) + self._opening >= self.max_sessions

    def _full_message(self) -> str:
        return (
            f"workbench serve: all {self.max_sessions} sessions are in use (one per open tab): "
            "close one, or start the server with a larger --max-sessions\n"
        )

    async def _relay(self, websocket: web.WebSocketResponse, app: ServedApp) -> None:
        """The browser's messages to the app: keys, sizes, focus; pings answered here."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = message.json()
                kind, payload = envelope[0], envelope[1] if len(envelope) > 1 else None
            except (ValueError, TypeError, IndexError, KeyError):
                continue  # not the protocol: ignored, not logged one traceback each
            if kind == "stdin" and isinstance(payload, str):
                await app.send_bytes(payload.encode("utf-8"))
            elif kind == "resize" and isinstance(payload, dict):
                await app.set_terminal_size(
                    clamp(payload.get("width"), COLUMNS, 80),
                    clamp(payload.get("height"), ROWS, 24),
                )
            elif kind == "ping" and isinstance(payload, str | int | float):
                await websocket.send_json(["pong", payload])
            elif kind == "blur":
                await app.blur()
            elif kind == "focus":
                await app.focus()

    # -- running --------------------------------------------------------------------------

    async def start(self) -> None:
        """Bind (port 0 picks a free one) and start answering.

        aiohttp's keep-alive deadline closes a connection that is waiting for a request head,
        so set short it is the deadline for request heads. Connections are counted on their
        way in (:class:`~workbench.serve.connections.LimitedProtocol`), hence a listener of
        our own rather than aiohttp's TCPSite.
        """
        runner = web.AppRunner(
            await self._make_app(),
            handle_signals=False,
            access_log=None,
            shutdown_timeout=3.0,
            keepalive_timeout=HEADER_TIMEOUT_S,
            lingering_time=HEADER_TIMEOUT_S,  # an unread request body, after the answer
        )
        await runner.setup()
        handlers = runner.server
        assert handlers is not None
        try:
            self._listener = await asyncio.get_running_loop().create_server(
                lambda: LimitedProtocol(handlers(), self.connections), self.host, self.port
            )
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        self.port = self._listener.sockets[0].getsockname()[1]
        self.policy = AccessPolicy.for_bind(
            self.host,
            self.port,
            token=self.token,
            host_aliases=self.host_aliases,
            machine_names=machine_names() if self.host in WILDCARD_ADDRESSES else (),
        )

    async def stop(self) -> None:
        """End every session (their processes included), then stop listening."""
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        await asyncio.gather(*(app.stop() for app in list(self.sessions)), return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.connections.closed_past_cap:
            log.warning(
                "closed %d connections past the caps (%d per client address, %d in all)",
                self.connections.closed_past_cap,
                self.connections.per_client,
                self.connections.total,
            )

    def urls(self) -> list[str]:
        """The URLs to open, token included: one per name worth printing."""
        if self.host in WILDCARD_ADDRESSES:
            hosts = [*machine_names()[:1], "127.0.0.1"]
        else:
            hosts = [host_literal(self.host)]
        return [f"http://{host}:{self.port}/?token={self.token}" for host in hosts]


async def serve_until_stopped(
    server: WorkbenchServer, on_ready: Callable[[WorkbenchServer], None]
) -> None:
    """Run ``server`` until SIGINT or SIGTERM, then end every session and stop."""
    await server.start()
    stopped = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # not on Windows' event loops
            loop.add_signal_handler(signum, stopped.set)
    try:
        on_ready(server)
        await stopped.wait()
    finally:
        # Sessions first: aiohttp's cleanup would otherwise wait on their open WebSockets.
        await server.stop()


def machine_names() -> list[str]:
    """This machine's names, for a wildcard bind: the host name and its fully qualified one."""
    names = [socket.gethostname(), socket.getfqdn()]
    return [name for name in dict.fromkeys(names) if name and name != "localhost"]


def _local_address(request: web.Request) -> str | None:
    """The address this connection arrived on (a socket fact, not a header)."""
    transport = request.transport
    if transport is None:
        return None
    with contextlib.suppress(TypeError, IndexError):
        sockname = transport.get_extra_info("sockname")
        if sockname:
            return str(sockname[0])
    return None


def token_refusal(request: web.Request, policy: AccessPolicy, *, websocket: bool) -> Refusal | None:
    """The token check: in the page's URL on first load (the page's script keeps it), in the
    WebSocket's path after that. The page and static files need none: they hold no secret."""
    if "token" in request.query:
        if websocket or request.path != "/":
            return Refusal.WRONG_TOKEN  # the WebSocket carries it in its path only
        return None if policy.token_matches(request.query["token"]) else Refusal.WRONG_TOKEN
    path, prefix = request.path, WEBSOCKET_PATH + "/"
    if not (websocket or path == WEBSOCKET_PATH or path.startswith(prefix)):
        return None
    token = path.removeprefix(prefix) if path.startswith(prefix) else ""
    if not token:
        return Refusal.NO_TOKEN
    return None if policy.token_matches(token) else Refusal.WRONG_TOKEN


def _shown_path(path: str) -> str:
    """``path`` for the log: never the token a WebSocket's path carries."""
    if path.startswith(WEBSOCKET_PATH + "/"):
        return WEBSOCKET_PATH + "/…"
    return path[:80]
