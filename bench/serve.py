"""`workbench serve`: time to the first card in a browser next to a terminal's, memory per
served session, and how many reviewers one server holds before it slows.

    python bench/serve.py [--runs 5] [--sessions 1,2,4,8] [--hold 10] [--skip-browser]
                          [--slow-clients 300] [--only-slow-clients]

1. First card: the bundled fixture workbench until its first card ("Calculated:") shows, in a
   pseudo-terminal (read through pyte), in headless Chromium through `workbench serve` (the
   bytes the page received, read through pyte), and through the same server to a bare
   WebSocket client (no browser), in turns, in the same run, at the size the page asked for.
   Also the CPU seconds the app process spent to get there (which the machine's load does not
   change), served and in the terminal.
2. Memory: RSS and PSS of one session's processes (group leader + app) after its first card,
   and the server's RSS with no session and with the most sessions of step 3.
3. Load: K reviewers arrive at once over loopback WebSockets (no browser: the server and the
   apps are what is measured), wait for the first card, then each presses a key every 0.5 s
   for --hold seconds. Prints time to card and key -> next frame (median / max) per K, and
   the server's memory. Bounded: K <= 8 (the server's --max-sessions), hold <= 60 s.
4. Slow clients: N connections (loopback, N <= 1000) open at once and send a request head one
   line a second, never finishing it (slow loris). Prints how many the server still holds
   over time and when the last one was closed, and the page's load time (20 GETs, median)
   while they try, as a ratio to the same GETs before they came; the server's CPU beside.

The machine's load average is printed before and after: on a shared machine, say it with
the numbers.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import os
import pty
import select
import signal
import statistics
import struct
import sys
import termios
import time
from pathlib import Path

import aiohttp
import pyte

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.serve.browser import Browser, find_chromium  # noqa: E402
from tests.serve.helpers import (  # noqa: E402
    Served,
    WebTerminal,
    marked_processes,
    served,
)

CARD = "Calculated:"
SERVE = [sys.executable, "-m", "workbench", "serve", "--max-sessions", "8"]
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of ``pid`` so far."""
    with open(f"/proc/{pid}/stat", "rb") as handle:
        fields = handle.read().rsplit(b")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def memory_kib(pid: int) -> tuple[int, int]:
    """``(rss, pss)`` of ``pid`` in KiB."""
    values = {"Rss:": 0, "Pss:": 0}
    with open(f"/proc/{pid}/smaps_rollup") as handle:
        for line in handle:
            name, *rest = line.split()
            if name in values:
                values[name] = int(rest[0])
    return values["Rss:"], values["Pss:"]


def command_line(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def app_pids(server: Served) -> list[int]:
    """The served apps (not the server, not the group leaders)."""
    return [
        pid
        for pid in marked_processes(server.mark)
        if "-m workbench" in command_line(pid)
        and " serve" not in command_line(pid)
        and "group_leader" not in command_line(pid)
    ]


def session_pids(server: Served) -> list[int]:
    return [pid for pid in marked_processes(server.mark) if pid != server.process.pid]


# -- the terminal ---------------------------------------------------------------------------


def terminal_first_card(columns: int, rows: int) -> tuple[float, float]:
    """Seconds from spawning `workbench` in a pseudo-terminal to its first card; CPU seconds."""
    display = pyte.Screen(columns, rows)
    stream = pyte.ByteStream(display)
    started = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(columns)}
        env["LINES"] = str(rows)
        os.execve(sys.executable, [sys.executable, "-m", "workbench"], env)
    try:
        while True:
            if select.select([fd], [], [], 0.02)[0]:
                stream.feed(os.read(fd, 1 << 16))
                if any(CARD in line for line in display.display):
                    return time.perf_counter() - started, cpu_seconds(pid)
            if time.perf_counter() - started > 120:
                raise TimeoutError("no card in the terminal after 120 s")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


# -- the browser ----------------------------------------------------------------------------


def browser_first_card(browser: Browser, server: Served) -> tuple[float, float, float, int, int]:
    """Seconds from opening the URL in a new tab to the first card; of those, the seconds
    until the page opened its WebSocket; the app's CPU seconds; the terminal size asked for."""
    page = browser.new_page(1280, 800)
    try:
        started = time.perf_counter()
        page.goto(server.url)
        page.wait_for_text(CARD, timeout=120)
        elapsed = time.perf_counter() - started
        assert page.websocket_created_at is not None
        to_socket = page.websocket_created_at - started
        [app] = app_pids(server)
        columns, rows = page.terminal.columns, page.terminal.lines
        return elapsed, to_socket, cpu_seconds(app), columns, rows
    finally:
        page.close()
        deadline = time.monotonic() + 15
        while session_pids(server) and time.monotonic() < deadline:
            time.sleep(0.05)


def socket_first_card(server: Served, columns: int, rows: int) -> float:
    """Seconds from opening the WebSocket (no browser) to the first card."""

    async def measure() -> float:
        async with aiohttp.ClientSession() as http:
            started = time.perf_counter()
            terminal = await WebTerminal.open(http, server, columns, rows)
            await terminal.wait_for(CARD, timeout=120)
            elapsed = time.perf_counter() - started
            await terminal.close()
            return elapsed

    elapsed = asyncio.run(measure())
    deadline = time.monotonic() + 15
    while session_pids(server) and time.monotonic() < deadline:
        time.sleep(0.05)
    return elapsed


def first_cards(runs: int) -> tuple[int, int]:
    chromium = find_chromium()
    if chromium is None:
        print("first card: no chromium installed, browser side skipped")
        return 155, 40
    browser = Browser(chromium)
    try:
        with served(SERVE) as server:
            # Warm the browser's cache of textual.js and both sides' file caches.
            _, _, _, columns, rows = browser_first_card(browser, server)
            terminal_first_card(columns, rows)
            served_times, served_cpu, terminal_times, terminal_cpu = [], [], [], []
            page_times, socket_times = [], []
            for _ in range(runs):
                socket_times.append(socket_first_card(server, columns, rows))
                elapsed, to_socket, cpu, _, _ = browser_first_card(browser, server)
                served_times.append(elapsed)
                page_times.append(to_socket)
                served_cpu.append(cpu)
                elapsed, cpu = terminal_first_card(columns, rows)
                terminal_times.append(elapsed)
                terminal_cpu.append(cpu)
    finally:
        browser.close()
    browser_median = statistics.median(served_times)
    terminal_median = statistics.median(terminal_times)
    print(f"first card at {columns}x{rows}, median of {runs} (runs in parentheses):")
    print(f"  browser (open URL -> card) : {browser_median:6.2f} s  ({_list(served_times)})")
    print(
        f"    of which page -> socket  : {statistics.median(page_times):6.2f} s  "
        f"({_list(page_times)})"
    )
    print(
        f"  socket, no browser         : {statistics.median(socket_times):6.2f} s  "
        f"({_list(socket_times)})"
    )
    print(f"  terminal (spawn -> card)   : {terminal_median:6.2f} s  ({_list(terminal_times)})")
    print(f"  ratio browser / terminal   : {browser_median / terminal_median:6.2f}")
    print(
        f"  app CPU to the card        : served {statistics.median(served_cpu):.2f} s, "
        f"terminal {statistics.median(terminal_cpu):.2f} s"
    )
    return columns, rows


# -- load -----------------------------------------------------------------------------------


async def reviewer(
    http: aiohttp.ClientSession, server: Served, hold: float, columns: int, rows: int
) -> tuple[float, list[float]]:
    """One reviewer: time to the first card, then key -> next frame latencies."""
    started = time.perf_counter()
    terminal = await WebTerminal.open(http, server, columns, rows)
    await terminal.wait_for(CARD, timeout=180)
    to_card = time.perf_counter() - started
    await terminal.pump(1.0)  # let the tree take focus
    latencies = []
    deadline = time.monotonic() + hold
    key = 0
    while time.monotonic() < deadline:
        sent = time.perf_counter()
        await terminal.ws.send_json(["stdin", "\x1b[B" if key % 8 < 4 else "\x1b[A"])
        key += 1
        message = await terminal.ws.receive(timeout=10)
        if message.type == aiohttp.WSMsgType.BINARY:
            latencies.append(time.perf_counter() - sent)
            terminal.stream.feed(message.data)
        await terminal.pump(max(0.0, 0.5 - (time.perf_counter() - sent)))
    await terminal.close()
    return to_card, latencies


async def load(server: Served, counts: list[int], hold: float, columns: int, rows: int) -> None:
    print(f"load: K reviewers arrive at once, then each presses a key every 0.5 s for {hold} s")
    print("   K | card median / max | key->frame median / p90 / max | server RSS")
    async with aiohttp.ClientSession() as http:
        for count in counts:
            results = await asyncio.gather(
                *(reviewer(http, server, hold, columns, rows) for _ in range(count)),
                return_exceptions=True,
            )
            failed = [result for result in results if isinstance(result, BaseException)]
            good = [result for result in results if not isinstance(result, BaseException)]
            cards = [card for card, _ in good]
            keys = [latency for _, latencies in good for latency in latencies]
            server_rss, _ = memory_kib(server.process.pid)
            line = (
                f"  {count:2d} | {statistics.median(cards):5.2f} / {max(cards):5.2f} s   "
                f"| {statistics.median(keys) * 1000:5.0f} / {_p90(keys) * 1000:5.0f} / "
                f"{max(keys) * 1000:5.0f} ms      "
                f"| {server_rss / 1024:6.1f} MiB"
                if good and keys
                else f"  {count:2d} | all failed"
            )
            print(line + (f" | {len(failed)} failed: {failed[0]!r}" if failed else ""))
            deadline = time.monotonic() + 20
            while session_pids(server) and time.monotonic() < deadline:
                await asyncio.sleep(0.1)


async def memory(server: Served, columns: int, rows: int) -> None:
    idle_rss, _ = memory_kib(server.process.pid)
    async with aiohttp.ClientSession() as http:
        terminal = await WebTerminal.open(http, server, columns, rows)
        await terminal.wait_for(CARD, timeout=120)
        await terminal.pump(1.0)
        totals = [memory_kib(pid) for pid in session_pids(server)]
        rss = sum(value for value, _ in totals) / 1024
        pss = sum(value for _, value in totals) / 1024
        server_rss, _ = memory_kib(server.process.pid)
        print(
            f"memory: one session (group leader + app) after its first card: RSS {rss:.0f} MiB, "
            f"PSS {pss:.0f} MiB; the server {idle_rss / 1024:.0f} MiB idle, "
            f"{server_rss / 1024:.0f} MiB with it"
        )
        await terminal.close()


async def slow_clients(server: Served, count: int) -> None:
    """Slow loris against the served page: what the server holds, and what a reviewer sees."""
    host = f"Host: 127.0.0.1:{server.port}\r\n".encode()

    async def page_times(http: aiohttp.ClientSession) -> list[float]:
        times = []
        for _ in range(20):
            started = time.perf_counter()
            async with http.get(server.base + "/") as response:
                await response.read()
                assert response.status == 200, response.status
            times.append(time.perf_counter() - started)
        return times

    async def held(writers: list[asyncio.StreamWriter], readers: list[asyncio.StreamReader]) -> int:
        open_now = 0
        for reader, writer in zip(readers, writers, strict=True):
            if reader.at_eof() or writer.is_closing():
                continue
            with contextlib.suppress(ConnectionError):
                writer.write(b"X-Slow: 1\r\n")
                await writer.drain()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(reader.read(1 << 12), 0.001)
                if not reader.at_eof():
                    open_now += 1
        return open_now

    print(f"slow clients: {count} connections that never finish their request head")
    async with aiohttp.ClientSession() as http:
        await page_times(http)  # warm
        before = statistics.median(await page_times(http))
        cpu_before = cpu_seconds(server.process.pid)
        started = time.perf_counter()
        readers, writers = [], []
        for _ in range(count):
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(b"GET / HTTP/1.1\r\n" + host)
            readers.append(reader)
            writers.append(writer)
        opened = time.perf_counter() - started
        during = statistics.median(await page_times(http))
        timeline = []
        last_closed = None
        while time.perf_counter() - started < 60:
            still = await held(writers, readers)
            timeline.append((time.perf_counter() - started, still))
            if still == 0:
                last_closed = time.perf_counter() - started
                break
            await asyncio.sleep(1.0)
        cpu = cpu_seconds(server.process.pid) - cpu_before
        for writer in writers:
            writer.transport.abort()
    peak = max(still for _, still in timeline)
    print(f"  opened {count} in {opened:.2f} s; the server held at most {peak} at once")
    print("  held over time: " + ", ".join(f"{at:.1f} s: {still}" for at, still in timeline))
    if last_closed is None:
        print("  the last one was still open after 60 s")
    else:
        print(f"  the last one closed after {last_closed:.1f} s")
    print(
        f"  page load, median of 20: {before * 1000:.1f} ms before, {during * 1000:.1f} ms "
        f"while they try: ratio {during / before:.2f}; server CPU meanwhile {cpu:.2f} s"
    )


def _p90(values: list[float]) -> float:
    return sorted(values)[int(0.9 * (len(values) - 1))]


def _list(values: list[float]) -> str:
    return ", ".join(f"{value:.2f}" for value in values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sessions", default="1,2,4,8")
    parser.add_argument("--hold", type=float, default=10.0)
    parser.add_argument("--skip-browser", action="store_true")
    parser.add_argument("--slow-clients", type=int, default=300)
    parser.add_argument("--only-slow-clients", action="store_true")
    options = parser.parse_args()
    slow = min(1000, max(0, options.slow_clients))
    if options.only_slow_clients:
        print(f"cores: {os.cpu_count()}, load average before: {_load()}")
        with served(SERVE) as server:
            asyncio.run(slow_clients(server, slow))
        print(f"load average after: {_load()}")
        return
    counts = [min(8, max(1, int(value))) for value in options.sessions.split(",")]
    hold = min(60.0, max(1.0, options.hold))
    print(f"cores: {os.cpu_count()}, load average before: {_load()}")
    columns, rows = (155, 40) if options.skip_browser else first_cards(max(1, options.runs))
    with served(SERVE) as server:
        asyncio.run(memory(server, columns, rows))
        asyncio.run(load(server, counts, hold, columns, rows))
        if slow:
            asyncio.run(slow_clients(server, slow))
    print(f"load average after: {_load()}")


def _load() -> str:
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


if __name__ == "__main__":
    main()
