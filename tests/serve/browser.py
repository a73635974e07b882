"""Headless Chromium driven over the DevTools protocol on ``--remote-debugging-pipe``.

Standard library only (plus pyte to read the terminal): no driver binary matched to the
browser's version, no debugging port for other processes to find, nothing downloaded. Uses only
stable CDP domains (Target, Page, Runtime, Input, Network, Emulation).

What a page's terminal shows is read from the bytes the browser received on its WebSocket
(``Network.webSocketFrameReceived``) fed into a pyte screen of the size the page asked for:
exactly what xterm.js drew, independent of fonts and renderer. Screenshots show the pixels.
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from collections import defaultdict
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pyte

FLAGS = (
    "--headless",
    "--no-sandbox",  # we run as root in CI; the page is our own
    "--disable-gpu",
    "--enable-unsafe-swiftshader",  # quiets the software-WebGL deprecation notice
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--mute-audio",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
)


CURSOR_BACKGROUND = "0178d4"
"""The tree cursor's background in the app's default theme (textual-dark's block cursor)."""


def cursor_row(screen: pyte.Screen, columns: range = range(0, 36)) -> str | None:
    """The text of the row the tree cursor is on (the tree is the left ``columns``)."""
    for row in range(screen.lines):
        cells = screen.buffer[row]
        if any(cells[column].bg == CURSOR_BACKGROUND for column in columns):
            text = "".join(cells[column].data for column in columns)
            # Only the tree's own cells: the card beside a narrow sidebar changes its border
            # characters as it redraws, which is not a cursor move.
            return text.split("▕", 1)[0].strip()
    return None


def find_chromium() -> str | None:
    """Debian's ``chromium`` (or a ``CHROMIUM`` override), if installed."""
    override = os.environ.get("CHROMIUM")
    if override:
        return override if shutil.which(override) else None
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


class CdpError(RuntimeError):
    """The browser answered a command with an error, or not at all."""


class Browser:
    """One headless Chromium with a fresh profile; close it to remove both."""

    def __init__(
        self,
        executable: str,
        *,
        width: int = 1280,
        height: int = 800,
        extra_flags: tuple[str, ...] = (),
    ) -> None:
        self.profile = tempfile.mkdtemp(prefix="workbench-chromium-")
        to_browser_read, self._to_browser = os.pipe()
        self._from_browser, from_browser_write = os.pipe()

        def child_fds() -> None:
            # The pipe protocol reads commands on fd 3 and writes on fd 4. Duplicate first:
            # the pipes may already sit on 3 or 4, and dup2(3, 3) would keep close-on-exec.
            read_end, write_end = os.dup(to_browser_read), os.dup(from_browser_write)
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        self.process = subprocess.Popen(
            [
                executable,
                *FLAGS,
                f"--user-data-dir={self.profile}",
                f"--window-size={width},{height}",
                *extra_flags,
                "about:blank",
            ],
            # close_fds=False: Python's own fds are not inheritable anyway (PEP 446), and
            # close_fds=True would close the dup2'd 3 and 4 after preexec_fn.
            close_fds=False,
            preexec_fn=child_fds,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._ids = itertools.count(1)
        self._replies: dict[int, queue.Queue[dict[str, Any]]] = {}
        self._events: defaultdict[str, queue.Queue[dict[str, Any]]] = defaultdict(queue.Queue)
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        buffer = b""
        with os.fdopen(self._from_browser, "rb", buffering=0) as pipe:
            while chunk := pipe.read(1 << 16):
                buffer += chunk
                while b"\0" in buffer:
                    raw, buffer = buffer.split(b"\0", 1)
                    message = json.loads(raw)
                    reply = self._replies.get(message.get("id", -1))
                    if reply is not None:
                        reply.put(message)
                    else:
                        self._events[message.get("sessionId", "")].put(message)

    def send(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        session: str | None = None,
        timeout: float = 30.0,
    ) -> dict[str, Any]:
        call_id = next(self._ids)
        reply: queue.Queue[dict[str, Any]] = queue.Queue()
        self._replies[call_id] = reply
        message: dict[str, Any] = {"id": call_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        with self._lock:
            os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        try:
            answer = reply.get(timeout=timeout)
        except queue.Empty:
            raise CdpError(f"{method}: no answer in {timeout} s") from None
        finally:
            del self._replies[call_id]
        if "error" in answer:
            raise CdpError(f"{method}: {answer['error']}")
        result: dict[str, Any] = answer.get("result", {})
        return result

    def events(self, session: str) -> list[dict[str, Any]]:
        """The events of one page (one CDP session) since the last call."""
        found = []
        pending = self._events[session]
        while True:
            try:
                found.append(pending.get_nowait())
            except queue.Empty:
                return found

    def new_page(self, width: int = 1280, height: int = 800) -> Page:
        return Page(self, width, height)

    def close(self) -> None:
        with contextlib.suppress(CdpError, OSError):
            self.send("Browser.close", timeout=5)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                os.killpg(self.process.pid, 9)
            self.process.wait()
        with contextlib.suppress(OSError):
            os.close(self._to_browser)
        shutil.rmtree(self.profile, ignore_errors=True)


KEYS: dict[str, tuple[str, int]] = {  # key: (code, windowsVirtualKeyCode)
    "ArrowDown": ("ArrowDown", 40),
    "ArrowUp": ("ArrowUp", 38),
    "ArrowLeft": ("ArrowLeft", 37),
    "ArrowRight": ("ArrowRight", 39),
    "Enter": ("Enter", 13),
    "Tab": ("Tab", 9),
    "Escape": ("Escape", 27),
    "[": ("BracketLeft", 219),
    "]": ("BracketRight", 221),
}


class Page:
    """A tab, with the terminal its WebSocket drew kept in a pyte screen."""

    def __init__(self, browser: Browser, width: int, height: int) -> None:
        self.browser = browser
        self.target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = browser.send(
            "Target.attachToTarget", {"targetId": self.target, "flatten": True}
        )["sessionId"]
        for domain in ("Page.enable", "Runtime.enable", "Network.enable"):
            self.send(domain)
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        self.terminal = pyte.Screen(80, 24)
        self._stream = pyte.ByteStream(self.terminal)
        self.websocket_urls: list[str] = []
        self.websocket_created_at: float | None = None
        """``time.perf_counter()`` when this page's first WebSocket was seen (to ~20 ms)."""
        self.responses: dict[str, int] = {}
        """Status of each response this page got, by URL path (the last one wins)."""
        self.console: list[str] = []

    def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.browser.send(method, params, session=self.session)

    def goto(self, url: str) -> None:
        self.send("Page.navigate", {"url": url})

    def close(self) -> None:
        with contextlib.suppress(CdpError):
            self.browser.send("Target.closeTarget", {"targetId": self.target})

    def evaluate(self, expression: str) -> Any:
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise CdpError(str(result["exceptionDetails"]))
        return result["result"].get("value")

    def wait_until(self, expression: str, timeout: float = 30.0) -> float:
        """Seconds until ``expression`` is true in the page."""
        started = time.perf_counter()
        while time.perf_counter() - started < timeout:
            with contextlib.suppress(CdpError):  # mid-navigation: no document yet
                if self.evaluate(expression):
                    return time.perf_counter() - started
            time.sleep(0.02)
        raise TimeoutError(f"not true after {timeout} s: {expression}")

    def pump(self) -> None:
        """Apply this page's pending events: WebSocket frames to the screen, responses."""
        for event in self.browser.events(self.session):
            method, params = event.get("method"), event.get("params", {})
            if method == "Network.webSocketCreated":
                self.websocket_urls.append(params["url"])
                if self.websocket_created_at is None:
                    self.websocket_created_at = time.perf_counter()
                query = parse_qs(urlsplit(params["url"]).query)
                with contextlib.suppress(KeyError, ValueError):
                    self._resize(int(query["width"][0]), int(query["height"][0]))
            elif method == "Network.webSocketFrameSent":
                data = params["response"]["payloadData"]
                if data.startswith('["resize"'):
                    size = json.loads(data)[1]
                    self._resize(size["width"], size["height"])
            elif method == "Network.webSocketFrameReceived":
                frame = params["response"]
                if frame["opcode"] == 2:  # binary: terminal output
                    self._stream.feed(base64.b64decode(frame["payloadData"]))
            elif method == "Network.responseReceived":
                response = params["response"]
                self.responses[urlsplit(response["url"]).path] = response["status"]
            elif method == "Runtime.consoleAPICalled":
                self.console.append(
                    " ".join(str(arg.get("value", "")) for arg in params.get("args", []))
                )

    def _resize(self, columns: int, rows: int) -> None:
        if (columns, rows) != (self.terminal.columns, self.terminal.lines):
            self.terminal.resize(rows, columns)

    def screen_text(self) -> str:
        self.pump()
        return "\n".join(line.rstrip() for line in self.terminal.display)

    def wait_for_text(self, needle: str, timeout: float = 60.0) -> float:
        """Seconds until the terminal shows ``needle``."""
        started = time.perf_counter()
        while time.perf_counter() - started < timeout:
            if needle in self.screen_text():
                return time.perf_counter() - started
            time.sleep(0.02)
        raise TimeoutError(f"{needle!r} not shown after {timeout} s:\n{self.screen_text()}")

    def focus_terminal(self) -> None:
        self.evaluate("document.querySelector('.xterm-helper-textarea').focus()")

    def press(self, key: str) -> None:
        """Type one key as a person would (the terminal must have focus)."""
        code, virtual = KEYS[key] if key in KEYS else (f"Key{key.upper()}", ord(key.upper()))
        text = key if len(key) == 1 else ("\r" if key == "Enter" else "")
        down: dict[str, Any] = {
            "type": "keyDown",
            "key": key,
            "code": code,
            "windowsVirtualKeyCode": virtual,
            "nativeVirtualKeyCode": virtual,
        }
        if text:
            down["text"] = text
        self.send("Input.dispatchKeyEvent", down)
        self.send(
            "Input.dispatchKeyEvent",
            {"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": virtual},
        )

    def move_cursor_to(self, text: str, key: str = "ArrowDown", most: int = 20) -> None:
        """Press ``key`` until the tree cursor is on a row showing ``text``, one row at a time:
        each press waits for the cursor to show on another row, so a slow screen is never
        overtaken. A frame that arrives in parts may show no cursor for a moment: that is not
        a move, and pressing again then would skip rows."""
        for _ in range(most):
            before = self._cursor_shown()
            if text in before:
                return
            self.press(key)
            deadline = time.perf_counter() + 10
            while time.perf_counter() < deadline:
                self.pump()
                if cursor_row(self.terminal) not in (before, None):
                    break
                time.sleep(0.02)
        raise TimeoutError(f"the cursor never reached {text!r}:\n{self.screen_text()}")

    def _cursor_shown(self, timeout: float = 10.0) -> str:
        """The row the tree cursor is on, once the screen shows one."""
        deadline = time.perf_counter() + timeout
        while True:
            self.pump()
            row = cursor_row(self.terminal)
            if row is not None:
                return row
            if time.perf_counter() > deadline:
                raise TimeoutError(f"no tree cursor shown:\n{self.screen_text()}")
            time.sleep(0.02)

    def screenshot(self) -> bytes:
        return base64.b64decode(self.send("Page.captureScreenshot", {"format": "png"})["data"])

    def terminal_box(self) -> tuple[float, float, float, float]:
        """``(left, top, width, height)`` in CSS pixels of the terminal's drawn cells."""
        box = self.evaluate(
            "(() => { const r = document.querySelector('.xterm-screen')"
            ".getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()"
        )
        left, top, width, height = (float(value) for value in box)
        return left, top, width, height
