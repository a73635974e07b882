"""Shared helpers for the live-source tests: running calls, real servers in threads, rendering."""

from __future__ import annotations

import contextlib
import io
import os
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from tests.net.local_server import closed_port
from workbench.core import events as ev
from workbench.core.call_state import CallState
from workbench.core.manifest import ToolManifest
from workbench.core.reducer import reduce_all
from workbench.core.result import ToolResult
from workbench.policy.verdict import ApprovalCheck, ApprovalGate
from workbench.sources.base import ToolSource
from workbench.sources.call_runner import InputGate, LiveCall
from workbench.sources.mcp_source import McpServerSpec
from workbench.surfaces.card import card_renderable
from workbench.surfaces.context import SurfaceContext
from workbench.surfaces.registry import SurfaceRegistry

LOAD_SLACK_S = 2.5
"""What a timed test allows past a configured timeout before calling it missed: a loaded
machine (the suite on two workers beside other jobs) delays a firing by up to ~1 s; a timeout
that does not hold misses by the length of the call it should have cut short, made longer."""

SERVERS = Path(__file__).resolve().parent / "servers"
MISBEHAVING = SERVERS / "misbehaving.py"
FAULTY = SERVERS / "faulty.py"


def faulty_spec(*flags: str, name: str = "faulty", **fields: Any) -> McpServerSpec:
    """The raw fault server (:mod:`tests.sources.servers.faulty`) as a stdio subprocess."""
    return McpServerSpec(name=name, command=sys.executable, args=[str(FAULTY), *flags], **fields)


def pid_gone(pid: int) -> bool:
    """True when no process ``pid`` runs (a zombie awaiting its reaper counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def children_of(pid: int) -> list[int]:
    """The direct children of ``pid`` (Linux ``/proc``)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(item) for item in handle.read().split()]
    except OSError:
        return []


def server_pid(source: Any) -> int:
    """The pid of a stdio MCP server itself (the child of its group-leader process)."""
    [leader] = source._processes
    [server] = children_of(leader.pid)
    return server


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


def make_call(
    source: ToolSource,
    tool: str,
    api: str,
    args: dict[str, Any],
    *,
    timeout_ms: int = 10_000,
    manifest: ToolManifest | None = None,
    approval: ApprovalCheck | None = None,
    approval_gate: ApprovalGate | None = None,
    extend_on_progress_max_ms: int | None = None,
    input_gate: InputGate | None = None,
) -> tuple[LiveCall, list[ev.CallEvent]]:
    events: list[ev.CallEvent] = []
    manifest = manifest if manifest is not None else source.get_tool(tool)
    call = LiveCall(
        source,
        manifest,
        tool,
        api,
        args,
        on_event=events.append,
        timeout_ms=timeout_ms,
        approval=approval,
        approval_gate=approval_gate,
        extend_on_progress_max_ms=extend_on_progress_max_ms,
        input_gate=input_gate,
    )
    return call, events


async def run_call(
    source: ToolSource, tool: str, api: str, args: dict[str, Any], **options: Any
) -> CallRun:
    """Run one call to its terminal event; collects the events and the wall time."""
    call, events = make_call(source, tool, api, args, **options)
    started = time.monotonic()
    result = await call.run()
    return CallRun(call=call, result=result, events=events, seconds=time.monotonic() - started)


def render_card(state: CallState, manifest: ToolManifest | None, *, width: int = 100) -> str:
    """The generic tool card as plain text."""
    console = Console(record=True, width=width, color_system=None, file=io.StringIO())
    console.print(
        card_renderable(
            SurfaceContext(state=state, manifest=manifest, width=width), SurfaceRegistry()
        )
    )
    return console.export_text()


@contextlib.contextmanager
def serve_asgi(app: Any) -> Iterator[str]:
    """Run an ASGI app with uvicorn in a background thread on 127.0.0.1; yields its origin."""
    import uvicorn

    port = closed_port()  # Free now; uvicorn binds it next.
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
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
