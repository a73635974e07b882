"""A stdio transport for the ``mcp`` SDK's ``Client``: bounded, linear, and leaving nothing behind.

The SDK's own stdio transport re-splits its whole pending buffer on every chunk (a 50 MB
answer takes half a minute), keeps any line whole however long, waits silently when a line is
not UTF-8, keeps stderr wherever it is sent, and kills the server's process group only when
the server is still alive — so the children of a server that exits on stdin EOF survive it.

This transport, built on public SDK pieces (the ``Transport`` contract, ``SessionMessage``,
``mcp_types``):

- reads stdout in 1 MiB chunks and finds newlines in the new bytes only; a line past
  ``max_message_bytes`` stops being kept (its ends are, to find its ``id``) and its request
  fails with the cap named;
- hands every line to a :class:`~workbench.sources.mcp_guard.MessageGuard`;
- keeps the last ``max_stderr_bytes`` of stderr (:class:`StderrTail`), counting the rest;
- starts the server in a new session under the group-leader script, ends the call streams
  when the server dies even if a grandchild holds its stdout open, and on close always
  terminates the whole session: stdin EOF, a grace period, SIGTERM, SIGKILL;
- spawns the server to the end even when cancelled meanwhile (a ctrl-c during the start),
  then ends it: asyncio would otherwise wait for ever for pipes it never connected;
- when the server closes its stdout but keeps running, ends the call streams at once, says
  so (``on_output_closed``) and ends the session: nothing it does can reach us any more;
- when, its stdin closed, the server asks us something (``roots/list``, a ping), it is
  waiting for an answer it can never get: its own request timeout, not its stdin's EOF, would
  end it, so the stdin grace is not waited out before SIGTERM. Its stdout is read to the end,
  so a server writing as it exits is never blocked on a full pipe.
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import anyio
import anyio.abc
import mcp_types
from mcp.client._transport import TransportStreams
from mcp.shared.message import SessionMessage

from workbench.sources.mcp_guard import MessageGuard
from workbench.sources.process_group import (
    StdioLaunch,
    close_transport,
    spawn_in_session,
    terminate_group,
)

__all__ = ["StderrTail", "StdioLaunch", "stdio_transport"]

READ_CHUNK = 1 << 20
ENDS_KEPT = 512
"""Bytes kept from each end of an over-long line: enough to find its ``id``."""
STDIN_GRACE_S = 0.5
"""How long a server has to exit on its own once its stdin is closed."""
TERM_GRACE_S = 0.5
"""How long the session has between SIGTERM and SIGKILL (and after SIGKILL). A ctrl-c waits
for both graces when a server ignores stdin EOF and SIGTERM: together they must stay well
inside the 3 s a ctrl-c may take, on a loaded machine too."""
EXIT_DRAIN_S = 0.5
"""After the server exits, how long its stdout may still be read before the streams end;
and after its stdout ends, how long it has to exit before it counts as still running."""
POLL_S = 0.02


@dataclass
class StderrTail:
    """The last ``limit`` bytes a server wrote to stderr, and how much it wrote in all."""

    limit: int
    total: int = 0
    _chunks: deque[bytes] = field(default_factory=deque)
    _size: int = 0

    def append(self, chunk: bytes) -> None:
        self.total += len(chunk)
        if len(chunk) >= self.limit:
            self._chunks.clear()
            chunk = chunk[-self.limit :]
            self._size = 0
        self._chunks.append(chunk)
        self._size += len(chunk)
        while self._size > self.limit:
            first = self._chunks[0]
            excess = self._size - self.limit
            if len(first) <= excess:
                self._chunks.popleft()
                self._size -= len(first)
            else:
                self._chunks[0] = first[excess:]
                self._size -= excess

    def text(self) -> str:
        """The kept tail as text, with a note when earlier output was let go."""
        body = b"".join(self._chunks).decode("utf-8", errors="replace")
        if self.total > self._size:
            # The first kept line is likely cut: drop it.
            body = body.split("\n", 1)[1] if "\n" in body else body
            return f"[{self.total - self._size:,} earlier bytes of stderr not kept]\n{body}"
        return body


def _first_bytes(parts: list[bytes], count: int) -> bytes:
    kept: list[bytes] = []
    size = 0
    for part in parts:
        if size >= count:
            break
        kept.append(part[: count - size])
        size += len(kept[-1])
    return b"".join(kept)


def _last_bytes(parts: list[bytes], count: int) -> bytes:
    kept: list[bytes] = []
    size = 0
    for part in reversed(parts):
        if size >= count:
            break
        kept.append(part[-(count - size) :])
        size += len(kept[-1])
    return b"".join(reversed(kept))


class _LineSplitter:
    """Newline-delimited messages from chunks, in linear time, each bounded by ``cap``."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._parts: list[bytes] = []
        self._size = 0
        self._head = b""
        self._tail = b""
        self._over = False

    def feed(self, chunk: bytes) -> list[tuple[bytes, int, bytes] | bytes]:
        """Complete lines in ``chunk``: ``bytes``, or ``(head, size, tail)`` past the cap."""
        lines: list[tuple[bytes, int, bytes] | bytes] = []
        start = 0
        while True:
            newline = chunk.find(b"\n", start)
            piece = chunk[start:] if newline < 0 else chunk[start:newline]
            self._size += len(piece)
            if self._over:
                self._tail = (self._tail + piece)[-ENDS_KEPT:]
            else:
                self._parts.append(piece)
                if self._size > self.cap:
                    # Only the ends are kept from here on; no copy of the whole line is made.
                    self._head = _first_bytes(self._parts, ENDS_KEPT)
                    self._tail = _last_bytes(self._parts, ENDS_KEPT)
                    self._parts, self._over = [], True
            if newline < 0:
                return lines
            if self._over:
                lines.append((self._head, self._size, self._tail))
            else:
                lines.append(b"".join(self._parts))
            self._parts, self._size, self._over = [], 0, False
            self._head = self._tail = b""
            start = newline + 1


@asynccontextmanager
async def stdio_transport(
    launch: StdioLaunch,
    guard: MessageGuard,
    stderr: StderrTail,
    *,
    on_spawn: Callable[[anyio.abc.Process], None] | None = None,
    on_output_closed: Callable[[], None] | None = None,
    started: anyio.abc.Process | None = None,
) -> AsyncIterator[TransportStreams]:
    """Start the server and yield the SDK's ``(read, write)`` streams; see the module docs.

    ``started``: the server, already started from ``launch`` by
    :func:`~workbench.sources.process_group.spawn_in_session` (it boots while the SDK is
    imported); from here on it is this transport's to end. ``on_spawn`` is called only for a
    server this transport starts. ``on_output_closed`` is called when the server closes its
    stdout and keeps running, before the pending requests learn that the connection closed.
    """
    process = started
    if process is None:
        process = await spawn_in_session(launch)
        if on_spawn is not None:
            on_spawn(process)
    pgid = process.pid
    assert process.stdin is not None and process.stdout is not None
    assert process.stderr is not None
    stdin, stdout, stderr_stream = process.stdin, process.stdout, process.stderr
    read_send, read_receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_send, write_receive = anyio.create_memory_object_stream[SessionMessage](0)
    splitter = _LineSplitter(guard.limits.max_message_bytes)
    stdout_done = anyio.Event()
    asked_while_stopping = anyio.Event()
    stopping = False

    async def deliver(messages: list[SessionMessage]) -> None:
        for message in messages:
            if stopping:
                # Nobody reads any more: drop it, but note a request, which only an answer ends.
                if isinstance(message.message, mcp_types.JSONRPCRequest):
                    asked_while_stopping.set()
                continue
            await read_send.send(message)

    async def read_stdout() -> None:
        try:
            while True:
                chunk = await stdout.receive(READ_CHUNK)
                for line in splitter.feed(chunk):
                    if isinstance(line, tuple):
                        head, size, tail = line
                        await deliver(guard.oversized(head, tail, size))
                    else:
                        await deliver(guard.line(line))
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            pass
        finally:
            stdout_done.set()
            closed_while_running = False
            if not stopping:
                # A server that exits closes its stdout first: give it a moment to be reaped.
                with anyio.move_on_after(EXIT_DRAIN_S):
                    while process.returncode is None:
                        await anyio.sleep(POLL_S)
                closed_while_running = process.returncode is None and not stopping
            if closed_while_running and on_output_closed is not None:
                on_output_closed()
            await read_send.aclose()
        if closed_while_running:
            # Nothing it does can reach us any more: end it now, not when the source stops.
            await terminate_group(pgid, grace_s=TERM_GRACE_S)

    async def read_stderr() -> None:
        with contextlib.suppress(
            anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError, OSError
        ):
            while True:
                stderr.append(await stderr_stream.receive(65536))

    async def write_stdin() -> None:
        try:
            async with write_receive:
                async for item in write_receive:
                    guard.outgoing(item.message)
                    data = item.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await stdin.send(data.encode("utf-8") + b"\n")
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            # The server stopped reading: end the read side so no request waits forever.
            await read_send.aclose()

    async def release_held() -> None:
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
            while not stdout_done.is_set():
                await anyio.sleep(0.1)
                await deliver(guard.due())

    async def watch_exit() -> None:
        # Not process.wait(): it also waits for stdout EOF, which a grandchild holding the
        # pipe never gives. The server's death is what ends the connection.
        while process.returncode is None:
            await anyio.sleep(POLL_S)
        with anyio.move_on_after(EXIT_DRAIN_S):
            await stdout_done.wait()
        if not stdout_done.is_set():
            await terminate_group(pgid, grace_s=TERM_GRACE_S)
            await read_send.aclose()

    async def stop() -> None:
        nonlocal stopping
        stopping = True
        with contextlib.suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
            await stdin.aclose()
        with anyio.move_on_after(STDIN_GRACE_S):
            while process.returncode is None and not asked_while_stopping.is_set():
                await anyio.sleep(POLL_S)
        # Always, even when the server exited: its children may not have.
        await terminate_group(pgid, grace_s=TERM_GRACE_S)
        with anyio.move_on_after(TERM_GRACE_S):
            await process.wait()
        close_transport(process)

    async with anyio.create_task_group() as group:
        group.start_soon(read_stdout)
        group.start_soon(read_stderr)
        group.start_soon(write_stdin)
        group.start_soon(release_held)
        group.start_soon(watch_exit)
        try:
            yield read_receive, write_send
        finally:
            with anyio.CancelScope(shield=True):
                write_send.close()
                read_receive.close()
                await stop()
                for stream in (stdout, stderr_stream):
                    with contextlib.suppress(OSError, anyio.BrokenResourceError):
                        await stream.aclose()
            group.cancel_scope.cancel()
