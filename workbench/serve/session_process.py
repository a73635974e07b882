"""One browser session's workbench process, started and reaped so that nothing outlives it.

textual-serve's ``AppService`` speaks the protocol between the server and a Textual app run
with ``TEXTUAL_DRIVER=...WebDriver`` (packets on stdin and stdout); this subclass keeps that and
changes how the process lives and dies (textual-serve 1.1.3, pinned):

- the app runs from an argv (no shell in between, whose pid is not the app's) under
  Workbench's group leader (:mod:`workbench.sources.group_leader`) in a session of its own:
  stopping signals the whole group, and if the server dies, even by SIGKILL, the kernel tells
  the leader, which takes the group down;
- stopping asks the app to quit, then SIGTERMs the group, then SIGKILLs it, and waits
  (``AppService.stop`` only asks, and a browser that leaves mid-start leaves it spinning);
- the app's stderr is kept as a capped tail, cleaned before it is shown or logged (the stock
  service writes it raw to the server's stdout);
- of the app's requests, only ``exit`` and ``open_url`` for http(s) URLs are honoured: this
  server offers no downloads.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import shlex
import sys
from asyncio.subprocess import Process
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from workbench.core.sanitize import clean
from workbench.sources.process_group import leader_argv, terminate_group

log = logging.getLogger("workbench.serve")

PRELUDE = b"__GANGLION__\n"
PRELUDE_LINES = 10
"""Lines the app may print before the protocol starts (textual-serve reads as many)."""
STDERR_TAIL_BYTES = 16 * 1024
QUIT_GRACE_S = 2.0
"""How long a quitting app may take before its group is sent SIGTERM."""
TERM_GRACE_S = 2.0
"""How long the group has between SIGTERM and SIGKILL."""


class ServedApp(AppService):
    """The workbench process behind one WebSocket (one browser tab)."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        write_bytes: Callable[[bytes], Awaitable[None]],
        write_str: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[Any]],
        download_manager: DownloadManager,
        environment: dict[str, str] | None = None,
    ) -> None:
        super().__init__(
            shlex.join(argv),
            write_bytes=write_bytes,
            write_str=write_str,
            close=close,
            download_manager=download_manager,
        )
        self.argv = list(argv)
        self.extra_environment = dict(environment or {})
        self.stderr_tail = bytearray()
        self.started_protocol = False
        self._stopping: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int | None:
        """The group leader's pid, which is also the group's id; ``None`` before start."""
        return self._process.pid if self._process is not None else None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.returncode is None

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        environment = self._build_environment(width=width, height=height)
        environment.update(self.extra_environment)
        command, *args = self.argv
        self._process = process = await asyncio.create_subprocess_exec(
            *leader_argv(command, args),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=environment,
            start_new_session=True,  # the leader's pid is the group id
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def run(self) -> None:
        """Relay the app's packets to the browser until its stdout ends."""
        process = self._process
        assert process is not None and process.stdout is not None
        stderr_task = asyncio.create_task(self._read_stderr(process))
        stdout = process.stdout
        try:
            for _ in range(PRELUDE_LINES):
                line = await stdout.readline()
                if not line:
                    break
                if line == PRELUDE:
                    self.started_protocol = True
                    break
            if self.started_protocol:
                await self._relay_packets(stdout)
        except (asyncio.IncompleteReadError, ConnectionResetError):
            pass  # the app or the browser went away: stop() reaps what is left
        finally:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(stderr_task), timeout=1.0)
            stderr_task.cancel()
        if not self.started_protocol:
            await self._report_failed_start()
        # The app is gone (quit, crashed or never started): so is the session. textual-serve
        # closes the WebSocket only on a polite "exit", leaving a crashed app's tab hanging.
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self.remote_close()

    async def _relay_packets(self, stdout: asyncio.StreamReader) -> None:
        while True:
            kind = await stdout.readexactly(1)
            size = int.from_bytes(await stdout.readexactly(4), "big")
            payload = await stdout.readexactly(size)
            if kind == b"D":
                await self.on_data(payload)
            elif kind == b"M":
                await self.on_meta(payload)
            # b"P" (packed) carries only file deliveries, which this server does not offer.

    async def _read_stderr(self, process: Process) -> None:
        assert process.stderr is not None
        while chunk := await process.stderr.read(4096):
            self.stderr_tail += chunk
            del self.stderr_tail[:-STDERR_TAIL_BYTES]

    def stderr_text(self) -> str:
        """The app's last words on stderr, cleaned of control sequences."""
        return clean(self.stderr_tail.decode("utf-8", "replace")).strip()

    async def _report_failed_start(self) -> None:
        """Say in the browser and in the server's log why the app did not start."""
        details = self.stderr_text() or "it exited without a word"
        log.warning("a served session's app did not start: %s", details[-2000:])
        message = f"workbench serve: the app did not start:\n{details[-2000:]}\n"
        with contextlib.suppress(ConnectionError, RuntimeError):  # the browser may be gone
            await self.remote_write_bytes(message.replace("\n", "\r\n").encode("utf-8"))

    async def on_meta(self, data: bytes) -> None:
        """Honour ``exit`` and http(s) ``open_url``; refuse downloads and the unknown."""
        try:
            meta = json.loads(data)
            kind = meta["type"]
        except (ValueError, KeyError, TypeError):
            return
        if kind == "exit":
            await self.remote_close()
        elif kind == "open_url":
            url = meta.get("url")
            if isinstance(url, str) and url.lower().startswith(("http://", "https://")):
                request = {"url": url, "new_tab": bool(meta.get("new_tab", True))}
                await self.remote_write_str(json.dumps(["open_url", request]))
        else:
            log.debug("ignored a %r request from a served app", clean(str(kind))[:40])

    async def stop(self) -> None:
        """Quit the app, then end its whole process group; safe to call more than once."""
        if self._stopping is None:
            self._stopping = asyncio.create_task(self._stop())
        await asyncio.shield(self._stopping)

    async def _stop(self) -> None:
        process = self._process
        if process is None:
            return
        if process.returncode is None:
            await self.send_meta({"type": "quit"})
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(process.wait(), timeout=QUIT_GRACE_S)
        # Always, even after the leader exited: the app may have left children in the group.
        await terminate_group(process.pid, grace_s=TERM_GRACE_S)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(process.wait(), timeout=TERM_GRACE_S)
        if self._task is not None:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(self._task, timeout=TERM_GRACE_S)
            self._task = None


def workbench_argv(*args: str) -> list[str]:
    """The argv of ``python -m workbench ARGS`` with this interpreter."""
    return [sys.executable, "-m", "workbench", *args]
