"""100,000 lines of command output through the runCommand Streaming surface, against a plain Log.

Both sides get the same output in the same batches (1,000 lines each, as a pipe delivers
them), in fresh processes, in the same run:
- ours: OutputChunk events queued and folded into the call state once per frame, drawn by the
  ToolCard through local-system's Streaming surface (what live mode does);
- baseline: Textual's ``Log`` fed with ``write_lines()`` per batch.
Prints the time until the screen shows the last line and settles, the memory growth, and
the ratio (goal: under 1.5).

    python bench/streaming.py [--lines 100000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

BATCH = 1_000


def rss_kb() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def lines(total: int) -> list[list[str]]:
    return [
        [
            f"line {index} of the long output: \x1b[32mok\x1b[0m"
            for index in range(start, min(total, start + BATCH))
        ]
        for start in range(0, total, BATCH)
    ]


async def run_ours(total: int) -> dict[str, float]:
    from textual.app import App, ComposeResult

    from workbench.app.widgets.tool_card import ToolCard
    from workbench.core import events as ev
    from workbench.core.call_record import CallRecord
    from workbench.project import open_project
    from workbench.rendering.screen import screen_text, settle

    project = open_project()
    manifest = project.catalog.tools["local-system"].manifest
    batches = lines(total)

    class StreamApp(App[None]):
        def compose(self) -> ComposeResult:
            yield ToolCard(project.registry, animate=False)

        def on_mount(self) -> None:
            # As the live screen does: events fold into the call's record as they arrive, and
            # the card is drawn at most once a frame.
            self.changed = False
            self.record = CallRecord.start("local-system", "runCommand")
            self.record.extend((ev.ArgsComplete(args={"command": "./long-build.sh"}), ev.Started()))
            self.query_one(ToolCard).show(self.record.state, manifest)
            self.set_interval(1 / 30, self.draw)

        def add(self, event: ev.CallEvent) -> None:
            self.record.add(event)
            self.changed = True

        def draw(self) -> None:
            if not self.changed:
                return
            self.changed = False
            self.query_one(ToolCard).show(self.record.state, manifest)

    app = StreamApp()
    before = rss_kb()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        started = time.perf_counter()
        for batch in batches:
            app.add(ev.OutputChunk("\n".join(batch) + "\n"))
            await pilot.pause(0)  # The producer yields, as a pipe reader would.
        last = f"line {total - 1} of the long output"
        while last not in screen_text(app):
            await pilot.pause(0.01)
        await settle(pilot)
        elapsed = time.perf_counter() - started
        assert app.record.state.output.line_count == total
    return {"seconds": elapsed, "rss_growth_kb": rss_kb() - before}


async def run_log(total: int) -> dict[str, float]:
    from textual.app import App, ComposeResult
    from textual.widgets import Log

    from workbench.rendering.screen import screen_text, settle

    batches = lines(total)

    class LogApp(App[None]):
        def compose(self) -> ComposeResult:
            yield Log()

    app = LogApp()
    before = rss_kb()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        log = app.query_one(Log)
        started = time.perf_counter()
        for batch in batches:
            log.write_lines(batch)
            await pilot.pause(0)
        last = f"line {total - 1} of the long output"
        while last not in screen_text(app):
            await pilot.pause(0.01)
        await settle(pilot)
        elapsed = time.perf_counter() - started
    return {"seconds": elapsed, "rss_growth_kb": rss_kb() - before}


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
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--mode", choices=["ours", "log"], default=None, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.mode is not None:
        import asyncio

        runner = run_ours if options.mode == "ours" else run_log
        print(json.dumps(asyncio.run(runner(options.lines))))
        return
    baseline = measure("log", options.lines)
    ours = measure("ours", options.lines)
    print(f"{options.lines:,} lines in batches of {BATCH:,}")
    print(
        f"plain Log (write_lines per batch): {baseline['seconds']:6.2f} s "
        f"to settle, +{baseline['rss_growth_kb'] / 1024:6.1f} MB"
    )
    print(
        f"runCommand Streaming surface:      {ours['seconds']:6.2f} s to settle, "
        f"+{ours['rss_growth_kb'] / 1024:6.1f} MB"
    )
    print(
        f"ratio ours / Log: time {ours['seconds'] / baseline['seconds']:.2f}, "
        f"memory {max(1, ours['rss_growth_kb']) / max(1, baseline['rss_growth_kb']):.2f} "
        " (goal: time under 1.5)"
    )


if __name__ == "__main__":
    main()
