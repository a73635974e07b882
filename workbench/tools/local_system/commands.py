"""Run a shell command as a real subprocess, streaming its output; kill it on timeout or cancel.

The command runs in its own process group, so a timeout or cancel kills everything it started
(no zombies): SIGTERM first, SIGKILL after a grace period, and the process is always reaped.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from workbench.api import OutputStream

READ_CHUNK = 64 * 1024
KILL_GRACE_S = 2.0

OutputCallback = Callable[[str, OutputStream], None]
"""``(text, stream)`` with stream ``stdout`` or ``stderr``."""


@dataclass(frozen=True)
class CommandOutcome:
    exit_code: int | None
    signal: int | None
    timed_out: bool
    duration_ms: int


class CommandRunner:
    """Runs commands with ``/bin/sh`` in a working directory."""

    def __init__(self, shell: str = "/bin/sh", env: dict[str, str] | None = None) -> None:
        self.shell = shell
        self.env = env

    async def run(
        self, command: str, cwd: Path, *, timeout_s: float | None, on_output: OutputCallback
    ) -> CommandOutcome:
        started = time.monotonic()
        env = dict(os.environ if self.env is None else self.env)
        # Ask well-behaved tools not to page or wait for input.
        env.setdefault("PAGER", "cat")
        env.setdefault("GIT_PAGER", "cat")
        process = await asyncio.create_subprocess_exec(
            self.shell,
            "-c",
            command,
            cwd=str(cwd),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=env,
            start_new_session=True,
        )
        assert process.stdout is not None and process.stderr is not None

        async def pump(reader: asyncio.StreamReader, stream: OutputStream) -> None:
            # An incremental decoder never splits a UTF-8 character across two chunks.
            decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
            while True:
                chunk = await reader.read(READ_CHUNK)
                text = decoder.decode(chunk, final=not chunk)
                if text:
                    on_output(text, stream)
                if not chunk:
                    break

        pumps = asyncio.gather(pump(process.stdout, "stdout"), pump(process.stderr, "stderr"))

        async def finish() -> None:
            # The timeout covers the wait too: a command may close its output and run on.
            await asyncio.shield(pumps)
            await process.wait()

        timed_out = False
        try:
            await asyncio.wait_for(finish(), timeout=timeout_s)
        except TimeoutError:
            timed_out = True
            await self._kill(process)
        except asyncio.CancelledError:
            await self._kill(process)
            pumps.cancel()
            raise
        finally:
            if process.returncode is None:
                await self._kill(process)
            if not pumps.done():
                pumps.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await pumps
        code = process.returncode
        duration = int((time.monotonic() - started) * 1000)
        if code is not None and code < 0:
            return CommandOutcome(
                exit_code=None, signal=-code, timed_out=timed_out, duration_ms=duration
            )
        return CommandOutcome(
            exit_code=code, signal=None, timed_out=timed_out, duration_ms=duration
        )

    async def _kill(self, process: asyncio.subprocess.Process) -> None:
        # The group is signalled even when the shell has exited: its background children
        # (``sleep 60 &``) outlive it, hold the output pipes open and must not be left running.
        for sig in (signal.SIGTERM, signal.SIGKILL):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, sig)
            try:
                await asyncio.wait_for(process.wait(), timeout=KILL_GRACE_S)
                break
            except TimeoutError:
                continue
        # Whatever is left of the group once the shell is gone gets no further grace.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
