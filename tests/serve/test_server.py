"""The server of `workbench serve` over real HTTP and WebSockets on loopback, serving a stub
app that speaks textual-serve's protocol: every refusal, where the token travels, the page,
the routes, the session relay and caps, slow and greedy clients, and that no process outlives
its session."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import make_mocked_request
from hypothesis import assume, given
from hypothesis import strategies as st
from yarl import URL

from tests.serve.helpers import MARK, marked_processes, new_mark, processes_after, stub_argv
from workbench.serve import session_process
from workbench.serve.access import AccessPolicy
from workbench.serve.server import WorkbenchServer, token_refusal

pytestmark = pytest.mark.timeout(60)


@dataclass
class Running:
    server: WorkbenchServer
    mark: str
    http: aiohttp.ClientSession

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.server.port}"

    def ws_headers(self, **extra: str) -> dict[str, str]:
        return {"Origin": f"http://{self.host}", **extra}

    async def connect(self, query: str = "width=100&height=30", **headers: str) -> Any:
        return await self.http.ws_connect(
            f"{self.base}/ws/{self.server.token}?{query}", headers=self.ws_headers(**headers)
        )


async def start(argv: list[str], **kwargs: Any) -> AsyncIterator[Running]:
    mark = new_mark()
    server = WorkbenchServer(argv, environment={MARK: mark}, **kwargs)
    await server.start()
    async with aiohttp.ClientSession() as http:
        try:
            yield Running(server, mark, http)
        finally:
            await server.stop()
    assert await processes_after(mark, 10) == []


@pytest.fixture
async def running() -> AsyncIterator[Running]:
    async for value in start(stub_argv()):
        yield value


async def read_until(ws: Any, needle: str, timeout: float = 15.0) -> str:
    """Terminal bytes from the app until ``needle`` shows; the text received."""
    seen = ""
    async with asyncio.timeout(timeout):
        while needle not in seen:
            message = await ws.receive()
            if message.type == aiohttp.WSMsgType.BINARY:
                seen += message.data.decode()
            elif message.type == aiohttp.WSMsgType.TEXT:
                seen += message.data
            else:
                raise AssertionError(f"closed before {needle!r}: {seen!r}")
    return seen


# -- refusals -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "headers", "status", "says"),
    [
        pytest.param("/?token=wrong", {}, 403, "wrong token", id="page-with-wrong-token"),
        pytest.param("/ws", {}, 403, "needs the token", id="websocket-path-without-token"),
        pytest.param("/ws/wrong", {}, 403, "wrong token", id="websocket-path-wrong-token"),
        pytest.param("/static/x.js?token=t", {}, 403, "wrong token", id="token-not-on-page"),
        pytest.param("/", {"Host": "evil.example:{port}"}, 421, "not one this", id="foreign-host"),
        pytest.param("/", {"Host": "127.0.0.1"}, 421, "not one this", id="host-without-port"),
        pytest.param("/", {"Origin": "http://evil.example"}, 403, "another site", id="origin"),
        pytest.param(
            "/static/js/textual.js", {"Host": "evil.example:{port}"}, 421, "not one", id="static"
        ),
    ],
)
async def test_requests_are_refused_without_the_token_or_from_elsewhere(
    running: Running, path: str, headers: dict[str, str], status: int, says: str
) -> None:
    headers = {name: value.format(port=running.server.port) for name, value in headers.items()}
    async with running.http.get(
        running.base + path, headers=headers, allow_redirects=False
    ) as response:
        assert response.status == status
        assert says in await response.text()
        assert response.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize(
    ("path", "headers", "status"),
    [
        pytest.param("/ws/{token}", {"Origin": None}, 403, id="no-origin"),
        pytest.param("/ws/{token}", {"Origin": "http://evil.example"}, 403, id="foreign-origin"),
        pytest.param(
            "/ws/{token}", {"Origin": "http://localhost:{port}"}, 403, id="sibling-origin"
        ),
        pytest.param("/ws", {}, 403, id="no-token"),
        pytest.param("/ws/", {}, 403, id="empty-token"),
        pytest.param("/ws/wrong", {}, 403, id="wrong-token"),
        pytest.param("/ws/{token}x", {}, 403, id="longer-token"),
        pytest.param("/ws?token={token}", {}, 403, id="token-in-query"),
        pytest.param("/ws", {"Cookie": "workbench-session-{port}={token}"}, 403, id="cookie"),
        pytest.param("/ws/{token}", {"Host": "evil.example:{port}"}, 421, id="foreign-host"),
    ],
)
async def test_websocket_upgrades_are_refused_and_start_nothing(
    running: Running, path: str, headers: dict[str, str | None], status: int
) -> None:
    """The WebSocket opens a session only with the token in its path, from this origin: a
    cookie, however named, opens nothing."""
    values = {"port": running.server.port, "token": running.server.token}
    sent = running.ws_headers()
    for name, value in headers.items():
        if value is None:
            sent.pop(name)
        else:
            sent[name] = value.format(**values)
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await running.http.ws_connect(running.base + path.format(**values), headers=sent)
    assert refused.value.status == status
    assert running.server.sessions_started == 0
    assert marked_processes(running.mark) == []


async def test_the_refusal_log_never_shows_the_token(
    running: Running, caplog: pytest.LogCaptureFixture
) -> None:
    token = running.server.token
    with pytest.raises(aiohttp.WSServerHandshakeError):
        await running.http.ws_connect(
            f"{running.base}/ws/{token}", headers={"Origin": "http://evil.example"}
        )
    assert "refused GET /ws/…: foreign origin" in caplog.text
    assert token not in caplog.text


@given(st.text(alphabet=st.characters(codec="ascii", exclude_characters="#"), max_size=60))
def test_no_websocket_opens_but_at_the_path_carrying_the_token(tail: str) -> None:
    """Any path, query included: a WebSocket is let past the token check only at /ws/TOKEN."""
    policy = AccessPolicy.for_bind("127.0.0.1", 8123, token="T0ken")
    try:
        request = make_mocked_request("GET", "/" + tail, headers={"Upgrade": "websocket"})
    except ValueError:
        # "//[": yarl reads a request target starting "//" as a host, and refuses it before
        # any server code runs; there is no request to judge.
        assume(False)
    refusal = token_refusal(request, policy, websocket=True)
    exact = request.path == "/ws/T0ken" and "token" not in request.query
    assert (refusal is None) is exact


# -- where the token travels, and the page --------------------------------------------------


async def test_the_server_sets_no_cookie_and_the_page_holds_no_token(running: Running) -> None:
    """No cookie: a browser would send it to every port on 127.0.0.1. The page (its script
    keeps the token in the tab) carries none, and may be cached by nothing."""
    token = running.server.token
    url = f"{running.base}/?token={token}&fontsize=20"
    async with running.http.get(url, allow_redirects=False) as response:
        assert response.status == 200
        assert "Set-Cookie" not in response.headers
        assert response.headers["Cache-Control"] == "no-store"
        page = await response.text()
    assert token not in page and 'data-font-size="20"' in page
    for path in ("/", "/static/js/textual.js", "/workbench-static/page.js"):
        async with running.http.get(running.base + path) as response:
            assert response.status == 200
            assert "Set-Cookie" not in response.headers
            assert token not in await response.text()


async def test_the_page_without_a_token_says_what_to_open(running: Running) -> None:
    async with running.http.get(running.base + "/") as response:
        assert response.status == 200  # a reload comes here: the tab's script has the token
        page = await response.text()
    assert "This address needs its token" in page
    assert "open the URL <code>workbench serve</code> printed" in page


async def test_the_page_is_locked_down(running: Running) -> None:
    async with running.http.get(running.base + "/?fontsize=999") as response:
        assert response.status == 200
        page = await response.text()
        headers = response.headers
    csp = headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "default-src 'none'" in csp
    assert f"connect-src ws://{running.host};" in csp
    assert "frame-ancestors 'none'" in csp
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["Cache-Control"] == "no-store"
    assert f'data-session-websocket-url="ws://{running.host}/ws"' in page
    assert 'data-font-size="40"' in page  # clamped
    assert "https://" not in page and "<script>" not in page  # nothing third-party, no inline
    assert "token=" not in page and running.server.token not in page


async def test_the_websocket_url_follows_the_name_the_browser_used(running: Running) -> None:
    host = f"localhost:{running.server.port}"
    async with running.http.get(running.base + "/", headers={"Host": host}) as response:
        assert f"ws://{host}/ws" in await response.text()


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/static/", 403),  # no directory listing
        ("/static/js/", 403),
        ("/static/js/textual.js", 200),
        ("/static/css/xterm.css", 200),
        ("/workbench-static/page.js", 200),
        ("/static/%2e%2e/server.py", 404),  # no way out of the static folder
        ("/static/../server.py", 404),
        ("/download/anything", 404),  # this server delivers no files
    ],
)
async def test_routes(running: Running, path: str, status: int) -> None:
    url = URL(running.base + path, encoded=True)
    async with running.http.get(url) as response:
        assert response.status == status
        if status == 200:
            assert response.headers["X-Content-Type-Options"] == "nosniff"


# -- sessions -------------------------------------------------------------------------------


async def test_a_session_relays_keys_and_sizes_within_bounds(running: Running) -> None:
    ws = await running.connect("width=100000&height=-3")
    assert "stub ready 400x5" in await read_until(ws, "stub ready")
    await ws.send_str('["stdin", "hello"]')
    await read_until(ws, "got hello")
    for garbage in ("not json", "[]", '{"a": 1}', '["stdin", 42]', '["resize", "big"]', "[1, 2]"):
        await ws.send_str(garbage)  # ignored: the session goes on
    await ws.send_str('["resize", {"width": 5000, "height": "x"}]')
    await read_until(ws, "size 400x24")
    await ws.send_str('["ping", "abc"]')
    assert '["pong", "abc"]' in await read_until(ws, "pong")
    await ws.close()
    assert await processes_after(running.mark, 10) == []


async def test_only_http_urls_reach_the_browser(running: Running) -> None:
    ws = await running.connect()
    await read_until(ws, "stub ready")
    await ws.send_str('["stdin", "open:javascript:alert(1)"]')
    await ws.send_str('["stdin", "open:https://example.org/docs"]')
    seen = await read_until(ws, "got open:https")
    assert "javascript:" not in seen.replace("got open:javascript:alert(1)", "")
    assert '["open_url", {"url": "https://example.org/docs", "new_tab": true}]' in seen
    await ws.close()


async def test_sessions_are_capped() -> None:
    async for running in start(stub_argv(), max_sessions=2):
        first, second = await running.connect(), await running.connect()
        await read_until(first, "stub ready")
        await read_until(second, "stub ready")
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await running.connect()
        assert refused.value.status == 503
        async with running.http.get(running.base + "/") as page:
            assert page.status == 503
            assert "all 2 sessions are in use" in await page.text()
        await first.close()
        assert len(await processes_after(running.mark, 10, expected=3)) == 3  # the second runs
        third = await running.connect()  # a place is free again
        await read_until(third, "stub ready")
        await second.close()
        await third.close()


async def test_an_app_that_cannot_start_says_why_without_escapes() -> None:
    async for running in start(stub_argv("--fail")):
        ws = await running.connect()
        seen = await read_until(ws, "broken fixture")
        assert "the app did not start" in seen
        assert "\x1b" not in seen and "\x07" not in seen
        message = await ws.receive()
        assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)


# -- nothing left behind --------------------------------------------------------------------


async def session_processes(running: Running, ws: Any) -> list[int]:
    await read_until(ws, "stub ready")
    for _ in range(100):  # the grandchild may still be starting
        processes = marked_processes(running.mark)
        if len(processes) >= 3:
            break
        await asyncio.sleep(0.05)
    assert len(processes) == 3  # the group leader, the app, its grandchild
    return processes


async def test_a_closed_tab_leaves_no_process(running: Running) -> None:
    ws = await running.connect()
    await session_processes(running, ws)
    await ws.close()
    assert await processes_after(running.mark, 10) == []


@pytest.fixture
def short_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session_process, "QUIT_GRACE_S", 0.5)


async def test_a_dropped_connection_leaves_no_process_even_from_a_stubborn_app(
    short_grace: None,
) -> None:
    """The stub ignores quit, SIGTERM and the end of its input: SIGKILL ends its group."""
    async for running in start(stub_argv("--stubborn")):
        ws = await running.connect()
        await session_processes(running, ws)
        # Drop the TCP connection without a closing handshake, as a lost network would.
        connection = ws._response.connection
        assert connection is not None and connection.transport is not None
        connection.transport.abort()
        assert await processes_after(running.mark, 15) == []
        assert running.server.sessions == set()


async def test_stopping_the_server_ends_every_session(short_grace: None) -> None:
    async for running in start(stub_argv("--stubborn")):
        sockets = [await running.connect() for _ in range(2)]
        for ws in sockets:
            await read_until(ws, "stub ready")
        # Three processes a session; on a loaded machine the last may show in /proc a moment
        # after its session said it was ready.
        for _ in range(100):
            if len(marked_processes(running.mark)) == 6:
                break
            await asyncio.sleep(0.1)
        assert len(marked_processes(running.mark)) == 6
        await running.server.stop()
        assert await processes_after(running.mark, 15) == []
        assert os.environ.get(MARK) is None


# -- slow and greedy clients ----------------------------------------------------------------


class RawClient:
    """A TCP connection that sends a request head a line at a time, as slowly as it likes."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.closed = False

    @classmethod
    async def open(cls, port: int, source: str = "127.0.0.1") -> RawClient:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        writer.write(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
        return cls(reader, writer)

    async def dribble(self) -> None:
        """One more header line (never the blank line that ends the head)."""
        if not self.closed:
            with contextlib.suppress(ConnectionError):
                self.writer.write(b"X-Slow: 1\r\n")
                await self.writer.drain()

    async def check(self) -> bool:
        """Whether the server still holds this connection open."""
        if not self.closed:
            try:
                while await asyncio.wait_for(self.reader.read(4096), 0.02):
                    pass  # an answer (a 4xx) before the close: read on to the end
                self.closed = True
            except TimeoutError:
                pass
            except ConnectionError:
                self.closed = True
        return not self.closed

    def drop(self) -> None:
        self.writer.transport.abort()


async def open_clients(port: int, count: int, source: str = "127.0.0.1") -> list[RawClient]:
    return [await RawClient.open(port, source) for _ in range(count)]


async def still_open(clients: list[RawClient]) -> int:
    return sum([await client.check() for client in clients])


async def test_a_slow_client_is_dropped_within_seconds_and_keeps_no_one_out(
    running: Running,
) -> None:
    """Slow loris: 40 connections that never finish their request head, one header line every
    half second. Each is closed within seconds of opening, and meanwhile the reviewer's own
    requests are answered at once."""
    clients = await open_clients(running.server.port, 40)
    try:
        started = asyncio.get_running_loop().time()
        async with running.http.get(running.base + "/static/js/textual.js") as response:
            assert response.status == 200
        ws = await running.connect()
        await read_until(ws, "stub ready")
        open_counts = []
        while await still_open(clients) and asyncio.get_running_loop().time() - started < 30:
            for client in clients:
                await client.dribble()
            open_counts.append(await still_open(clients))
            await asyncio.sleep(0.5)
        elapsed = asyncio.get_running_loop().time() - started
        assert await still_open(clients) == 0, f"{open_counts[-1]} of 40 still open after 30 s"
        # Closed by the header deadline (5 s): not at once, and in seconds even under load.
        assert 3 < elapsed < 20, (elapsed, open_counts)
        await ws.send_str('["ping", "still here"]')  # the session was never touched
        await read_until(ws, "still here")
        await ws.close()
    finally:
        for client in clients:
            client.drop()


async def test_connections_are_capped_per_client_address_and_in_total() -> None:
    """Eight per address, ten in all: a newcomer past a cap closes the oldest connection that
    is not a session, so a flood of idle connections holds no more than the cap and keeps no
    one out; WebSocket sessions are counted by --max-sessions, not here."""
    async for running in start(stub_argv(), connections_per_client=8, connections_total=10):
        port = running.server.port
        session = await running.connect()
        await read_until(session, "stub ready")
        first = await open_clients(port, 20)
        assert await still_open(first) == 8  # the newest eight: the first twelve made room
        assert [await client.check() for client in first[-8:]] == [True] * 8
        others = await open_clients(port, 3, source="127.0.0.2")
        assert await still_open(others) == 3  # another address has its own eight
        assert await still_open(first) == 7  # but the total is ten: the oldest made room
        async with running.http.get(running.base + "/static/css/xterm.css") as response:
            assert response.status == 200  # served, not refused, with the caps full
        await session.send_str('["ping", "session"]')
        await read_until(session, "session")
        for client in first + others:
            client.drop()
        await session.close()
