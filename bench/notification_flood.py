"""An MCP server that floods log notifications during a call: does the live screen keep up?

Both sides call the same in-process MCP server's ``flood`` tool (N ``notifications/message``
sent as fast as the server can), in fresh processes, in the same run:
- ours: the live screen (WorkbenchApp, headless) runs the call; notifications become call
  events folded once a frame, the server log panel catches up four times a second;
- baseline: the same McpSource invoked with no UI at all.
While the call runs, a probe sleeps 10 ms at a time on the event loop and records how late it
wakes: the longest stall is how long a key press could wait. Prints the wall time, the
notification rate, the probe's p99 and worst stall on both sides, and the ratios (goals: time
under 1.5, worst stall under 100 ms).

    python bench/notification_flood.py [--lines 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

from mcp.server.mcpserver import Context, MCPServer

PROBE_S = 0.01


def build_server() -> MCPServer:
    server = MCPServer("flood")

    @server.tool(description="Send log lines as fast as possible.")
    async def flood(ctx: Context, lines: int = 10_000) -> str:
        for index in range(lines):
            await ctx.info(f"flood line {index}")
        return f"sent {lines} lines"

    return server


class Probe:
    """Wakes every ``PROBE_S`` and records how late (the loop was busy meanwhile)."""

    def __init__(self) -> None:
        self.lateness: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(PROBE_S)
            self.lateness.append(time.perf_counter() - before - PROBE_S)

    def stop(self) -> dict[str, float]:
        if self._task is not None:
            self._task.cancel()
        late = sorted(self.lateness) or [0.0]
        return {
            "p99_ms": late[min(len(late) - 1, int(len(late) * 0.99))] * 1000,
            "max_ms": late[-1] * 1000,
            "median_ms": statistics.median(late) * 1000,
        }


async def run_headless(total: int) -> dict[str, float]:
    from workbench.core.runtime import CallContext
    from workbench.sources.mcp_source import McpServerSpec, McpSource

    source = McpSource(McpServerSpec(name="flood", server=build_server(), mode="legacy"))
    await source.start()
    probe = Probe()
    probe.start()
    started = time.perf_counter()
    result = await source.invoke("flood", "flood", {"lines": total}, CallContext())
    elapsed = time.perf_counter() - started
    stalls = probe.stop()
    assert result.content == f"sent {total} lines", result.content
    received = source.server_log.total
    await source.stop()
    return {"seconds": elapsed, "received": received, **stalls}


async def run_ui(total: int) -> dict[str, float]:
    from workbench.app.app import WorkbenchApp
    from workbench.app.screens.live_screen import LiveScreen
    from workbench.app.widgets.server_log_panel import ServerLogPanel
    from workbench.app.widgets.source_tree import SourceTree
    from workbench.config import WorkbenchConfig
    from workbench.session import LiveOptions, build_session
    from workbench.sources.mcp_source import McpServerSpec, McpSource

    workspace = Path(tempfile.mkdtemp())
    config = WorkbenchConfig(root=workspace, fixture_dirs=(), include_bundled=False)
    session = build_session(LiveOptions(include_demo=False, workspace=workspace), config=config)
    session.manager.add(
        McpSource(McpServerSpec(name="flood", server=build_server(), mode="legacy"))
    )
    app = WorkbenchApp(live_session=session, animate=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, LiveScreen)
        tree = screen.query_one(SourceTree)
        while tree.loading:
            await pilot.pause(0.02)
        node = next(n for n in tree._walk(tree.root) if n.data == ("flood", "flood", "flood"))
        tree.move_cursor(node)
        await pilot.pause(0.2)
        panel = screen.query_one(ServerLogPanel)
        probe = Probe()
        probe.start()
        started = time.perf_counter()
        screen.start_call({"lines": total})
        while screen.current_call is not None:
            await asyncio.sleep(0.01)
        elapsed = time.perf_counter() - started
        # The panel shows the last line within a poll or two.
        while panel.log_source is None or panel._shown_total < panel.log_source.total:
            await asyncio.sleep(0.01)
        shown = time.perf_counter() - started
        stalls = probe.stop()
        state = screen.state
        assert state is not None and state.result is not None
        assert state.result.content == f"sent {total} lines", state.result.content
        received = state.server_messages.total
    return {"seconds": elapsed, "shown_seconds": shown, "received": received, **stalls}


def measure(mode: str, total: int) -> dict[str, float]:
    output = subprocess.run(
        [sys.executable, __file__, "--mode", mode, "--lines", str(total)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, float] = json.loads(output.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--mode", choices=["ui", "headless"], default=None, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.mode is not None:
        warnings.simplefilter("ignore")
        runner = run_ui if options.mode == "ui" else run_headless
        print(json.dumps(asyncio.run(runner(options.lines))))
        return
    base = measure("headless", options.lines)
    ours = measure("ui", options.lines)
    print(f"{options.lines:,} log notifications from one call (in-process MCP server)")
    for label, row in (("no UI (baseline)", base), ("live screen     ", ours)):
        print(
            f"{label}: {row['seconds']:6.2f} s, {row['received'] / row['seconds']:8,.0f} lines/s, "
            f"loop stall p99 {row['p99_ms']:6.1f} ms, worst {row['max_ms']:6.1f} ms"
        )
    print(f"live screen: server log panel caught up {ours['shown_seconds']:.2f} s after the start")
    print(
        f"ratio live / no UI: time {ours['seconds'] / base['seconds']:.2f} (goal: under 1.5); "
        f"worst stall {ours['max_ms']:.0f} ms (goal: under 100 ms)"
    )


if __name__ == "__main__":
    main()
