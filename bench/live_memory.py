"""Live memory under a flooding call: RSS of the live TUI while a call floods it, and after cancel.

The app runs headless in this process (Textual's ``run_test``) on live sources; each case
starts one call that never ends on its own, samples RSS every second for ``--seconds``, then
cancels it and measures again after a garbage collection. The baseline is the same app, idle,
measured in the same run; ratios are against it.

Cases: ``runCommand`` running ``yes`` (output as fast as a pipe carries it, no throttle), an
in-process tool reporting progress and output in a tight loop, and an MCP server sending
progress notifications and log messages forever.

    python bench/live_memory.py [--seconds 20] [--only SUBSTRING]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.sources.helpers import FAULTY  # noqa: E402
from workbench.app.app import WorkbenchApp  # noqa: E402
from workbench.app.screens.live_screen import LiveScreen  # noqa: E402
from workbench.app.widgets.source_tree import SourceTree  # noqa: E402
from workbench.config import WorkbenchConfig  # noqa: E402
from workbench.core.manifest import ToolApi, ToolManifest, ToolMeta  # noqa: E402
from workbench.core.result import ToolResult  # noqa: E402
from workbench.core.runtime import BaseRuntime, CallContext  # noqa: E402
from workbench.session import LiveOptions, build_session  # noqa: E402
from workbench.sources.python_source import PythonToolSource  # noqa: E402
from workbench.tools.package import ToolPackage  # noqa: E402


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Flood(BaseRuntime):
    """An in-process tool that reports as fast as the event loop lets it, until cancelled."""

    api_names = ("flood",)

    async def flood(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        step = 0
        while True:
            step += 1
            ctx.progress(step, None, f"step {step}")
            ctx.stdout(f"line {step} " + "x" * 80 + "\n")
            if step % 50 == 0:
                await asyncio.sleep(0)


FLOOD = ToolPackage(
    manifest=ToolManifest(
        identifier="flood",
        meta=ToolMeta(title="Flood"),
        api=[ToolApi(name="flood", parameters={"type": "object", "properties": {}})],
    ),
    create_runtime=lambda services: Flood(),
)


@dataclass
class Case:
    name: str
    address: tuple[str, str, str]
    args: dict[str, Any]


CASES = [
    Case(
        "runCommand: yes (output flood)",
        ("python", "local-system", "runCommand"),
        {"command": "yes"},
    ),
    Case("in-process tool: progress + output loop", ("flood", "flood", "flood"), {}),
    Case(
        "MCP: progress notifications forever", ("faulty", "faulty", "progress_flood"), {"count": 0}
    ),
    Case("MCP: log notifications forever", ("faulty", "faulty", "log_flood"), {"count": 0}),
]


def make_app(workspace: Path) -> WorkbenchApp:
    config = WorkbenchConfig(root=workspace, fixture_dirs=(workspace / "fixtures",))
    session = build_session(
        LiveOptions(
            workspace=workspace,
            approval="auto-run",
            mcp=[shlex.join([sys.executable, str(FAULTY)])],
            timeout_s=800,
        ),
        config=config,
    )
    session.manager.add(PythonToolSource("flood", [FLOOD], session.services))
    return WorkbenchApp(live_session=session, animate=False)


async def measure(case: Case, seconds: int) -> dict[str, float | str]:
    with tempfile.TemporaryDirectory() as scratch:
        app = make_app(Path(scratch))
        async with app.run_test(size=(160, 50)) as pilot:
            screen = app.screen
            assert isinstance(screen, LiveScreen)
            while screen.query_one(SourceTree).loading:
                await pilot.pause(0.05)
            await pilot.pause(1.0)
            gc.collect()
            idle = rss_mb()
            screen.address = case.address
            screen.start_call(case.args)
            peak = idle
            started = time.monotonic()
            while time.monotonic() - started < seconds:
                await pilot.pause(1.0)
                peak = max(peak, rss_mb())
            entry = screen.current_entry
            assert entry is not None and entry.state is not None, "the call never started"
            events = len(entry.record.events)
            phase = entry.state.phase.value
            await pilot.press("escape")
            while screen.current_call is not None:
                await pilot.pause(0.1)
            await pilot.pause(1.0)
            gc.collect()
            after = rss_mb()
            lines = entry.state.output.line_count
        return {
            "idle": idle,
            "peak": peak,
            "after": after,
            "events": events,
            "lines": lines,
            "phase": phase,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--only", default="")
    parser.add_argument("--case", default=None, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.case is not None:
        # One case per fresh interpreter: memory freed by one must not flatter the next.
        case = next(case for case in CASES if case.name == options.case)
        print(json.dumps(asyncio.run(measure(case, options.seconds))))
        return
    print(
        f"{'case':<42} {'idle MB':>8} {'peak MB':>8} {'x idle':>6} {'after MB':>9} "
        f"{'x idle':>6} {'events kept':>11} {'lines':>9}  phase at cancel"
    )
    for case in CASES:
        if options.only.lower() not in case.name.lower():
            continue
        run = subprocess.run(
            [sys.executable, __file__, "--case", case.name, "--seconds", str(options.seconds)],
            capture_output=True,
            text=True,
            check=True,
        )
        result = json.loads(run.stdout.strip().splitlines()[-1])
        print(
            f"{case.name:<42} {result['idle']:>8.0f} {result['peak']:>8.0f} "
            f"{result['peak'] / result['idle']:>6.2f} {result['after']:>9.0f} "
            f"{result['after'] / result['idle']:>6.2f} {int(result['events']):>11,} "
            f"{int(result['lines']):>9,}  {result['phase']}",
            flush=True,
        )


if __name__ == "__main__":
    main()
