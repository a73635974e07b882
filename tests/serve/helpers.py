"""Helpers for the tests of ``workbench serve``: a stub app, servers in subprocesses, and
finding every process a test started (they all carry a marker in their environment)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import select
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pyte

from tests.serve.browser import cursor_row

STUB_APP = Path(__file__).with_name("stub_app.py")
REPO = Path(__file__).resolve().parents[2]
MARK = "WORKBENCH_TEST_MARK"
URL_LINE = re.compile(r"Workbench served at (http://(\S+?):(\d+)/\?token=(\S+))")


def stub_argv(*flags: str) -> list[str]:
    return [sys.executable, str(STUB_APP), *flags]


def new_mark() -> str:
    return uuid.uuid4().hex


def marked_processes(mark: str) -> list[int]:
    """Live (not zombie) processes whose environment carries ``MARK=mark``."""
    needle = f"{MARK}={mark}".encode()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as handle:
                environ = handle.read()
            with open(f"/proc/{name}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        state = stat[stat.rfind(b")") + 2 :].split()[:1]
        if needle in environ.split(b"\0") and state != [b"Z"]:
            found.append(int(name))
    return found


def wait_until_gone(mark: str, timeout: float) -> list[int]:
    """Wait for every marked process to end; return those still alive after ``timeout``."""
    deadline = time.monotonic() + timeout
    while (alive := marked_processes(mark)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return alive


async def processes_after(mark: str, timeout: float, *, expected: int = 0) -> list[int]:
    """In async tests (the server shares the loop): wait, without blocking the loop, until at
    most ``expected`` marked processes live; return those alive then."""
    deadline = time.monotonic() + timeout
    while len(alive := marked_processes(mark)) > expected and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return alive


def kill_marked(mark: str) -> None:
    for pid in marked_processes(mark):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


@dataclass
class Served:
    """A server running in a subprocess, and what it printed at start."""

    process: subprocess.Popen[str]
    url: str
    host: str
    port: int
    token: str
    mark: str
    final_stderr: str = ""
    """What it wrote on stderr after the last :meth:`stderr_so_far`, once it has ended."""

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"

    def stderr_so_far(self) -> str:
        """What the server wrote on stderr until now (without blocking)."""
        assert self.process.stderr is not None
        text = ""
        while select.select([self.process.stderr], [], [], 0)[0]:
            chunk = os.read(self.process.stderr.fileno(), 65536)
            if not chunk:
                break
            text += chunk.decode("utf-8", "replace")
        return text


@contextlib.contextmanager
def served(
    argv: list[str], *, cwd: Path | None = None, input: str | None = None, timeout: float = 30.0
) -> Iterator[Served]:
    """Run a server command until its URL line appears; stop it and everything it started.

    ``input`` is written to its stdin (then closed); without it, stdin is empty.
    """
    mark = new_mark()
    env = {**os.environ, MARK: mark, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        argv,
        cwd=cwd or REPO,
        env=env,
        stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    running: Served | None = None
    if input is not None:
        assert process.stdin is not None
        process.stdin.write(input)
        process.stdin.close()
    try:
        assert process.stdout is not None
        deadline = time.monotonic() + timeout
        match = None
        seen = []
        while match is None and time.monotonic() < deadline:
            if not select.select([process.stdout], [], [], 0.1)[0]:
                if process.poll() is not None:
                    break
                continue
            line = process.stdout.readline()
            if not line:
                break
            seen.append(line)
            match = URL_LINE.search(line)
        if match is None:
            process.kill()
            _, errors = process.communicate(timeout=10)
            raise AssertionError(f"no URL printed: {''.join(seen)}{errors}")
        running = Served(
            process=process,
            url=match.group(1),
            host=match.group(2),
            port=int(match.group(3)),
            token=match.group(4),
            mark=mark,
        )
        yield running
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if running is not None and process.stderr is not None:
            running.final_stderr = process.stderr.read()
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()
        kill_marked(mark)  # a test that failed half-way must not leave processes behind


LAUNCHER = """
import asyncio, sys
from workbench.serve.server import WorkbenchServer, serve_until_stopped

def announce(server):
    print("Workbench served at", server.urls()[0], flush=True)

server = WorkbenchServer(sys.argv[1:], max_sessions=4)
asyncio.run(serve_until_stopped(server, announce))
"""


def launcher_argv(app_argv: list[str]) -> list[str]:
    """A server in a subprocess serving ``app_argv`` (the stub): the code `workbench serve`
    runs once its options are parsed."""
    return [sys.executable, "-c", LAUNCHER, *app_argv]


class WebTerminal:
    """A served session driven over its WebSocket as textual.js would, read through pyte."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, columns: int, rows: int) -> None:
        self.ws = ws
        self.display = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.display)
        self.closed = False

    @classmethod
    async def open(
        cls, http: aiohttp.ClientSession, served: Served, columns: int = 150, rows: int = 45
    ) -> WebTerminal:
        ws = await http.ws_connect(
            f"{served.base}/ws/{served.token}?width={columns}&height={rows}",
            headers={"Origin": served.base},
        )
        return cls(ws, columns, rows)

    def screen(self) -> str:
        return "\n".join(line.rstrip() for line in self.display.display)

    async def pump(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not self.closed and (left := deadline - time.monotonic()) > 0:
            try:
                message = await self.ws.receive(timeout=left)
            except TimeoutError:
                return
            if message.type == aiohttp.WSMsgType.BINARY:
                self.stream.feed(message.data)
            elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                self.closed = True

    async def wait_for(self, text: str, timeout: float = 60.0) -> float:
        """Seconds until the screen shows ``text``."""
        started = time.monotonic()
        while text not in self.screen():
            if self.closed or time.monotonic() - started > timeout:
                raise AssertionError(f"{text!r} never shown:\n{self.screen()}")
            await self.pump(0.1)
        return time.monotonic() - started

    async def press(self, *keys: str, settle: float = 0.3) -> None:
        for key in keys:
            await self.ws.send_json(["stdin", key])
            await self.pump(settle)

    async def move_cursor_to(self, text: str, key: str = "\x1b[B", most: int = 25) -> None:
        """Press ``key`` until the tree cursor is on a row showing ``text``, one row at a time:
        each press waits for the cursor to show on another row, so a slow screen is never
        overtaken. A frame that arrives in parts may show no cursor for a moment: that is not
        a move, and pressing again then would skip rows."""
        for _ in range(most):
            before = await self._cursor_shown()
            if text in before:
                return
            await self.ws.send_json(["stdin", key])
            deadline = time.monotonic() + 10
            while cursor_row(self.display) in (before, None) and time.monotonic() < deadline:
                if self.closed:
                    break
                await self.pump(0.05)
        raise AssertionError(f"the cursor never reached {text!r}:\n{self.screen()}")

    async def _cursor_shown(self, timeout: float = 10.0) -> str:
        """The row the tree cursor is on, once the screen shows one."""
        deadline = time.monotonic() + timeout
        while (row := cursor_row(self.display)) is None:
            if self.closed or time.monotonic() > deadline:
                raise AssertionError(f"no tree cursor shown:\n{self.screen()}")
            await self.pump(0.05)
        return row

    async def click_below(self, text: str, *, offset: int = 2) -> None:
        """Click the cell one row below the first row showing ``text`` (``offset`` cells into
        it), as xterm.js reports a click: an SGR mouse press and release."""
        for row, line in enumerate(self.screen().splitlines()):
            if text in line:
                x, y = line.index(text) + offset + 1, row + 2  # 1-based, one row down
                await self.ws.send_json(["stdin", f"\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m"])
                await self.pump(0.1)
                return
        raise AssertionError(f"{text!r} not shown, nothing to click:\n{self.screen()}")

    async def close(self) -> None:
        await self.ws.close()
