"""Cost of a live frame in the details pane: output-only frames against frames that change the args.

A live call redraws the screen many times a second while only its output grows. The details
pane shows args, result and manifest, none of which change then, so such a frame should cost
next to nothing. Both kinds of frame run in one app in one run:
- ours: N states that differ only in output (the args tab is visible);
- baseline: N states whose args are a fresh (equal) dict each time, so the tab redraws.
Prints per-frame times and the ratio.

    python bench/details_pane.py [-n 600] [--items 300]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

from textual.app import App, ComposeResult

from workbench.app.widgets.details_pane import DetailsPane
from workbench.core import events as ev
from workbench.core.call_record import CallRecord
from workbench.core.call_state import CallState


class PaneApp(App[None]):
    def compose(self) -> ComposeResult:
        yield DetailsPane()


def output_frames(args: dict[str, Any], count: int) -> list[CallState]:
    record = CallRecord.start("bench", "run", keep_events=False)
    record.extend((ev.ArgsComplete(args=args, raw=None, at_ms=1), ev.Started(at_ms=2)))
    return [
        record.add(ev.OutputChunk(f"line {index}\n", at_ms=3 + index)) for index in range(count)
    ]


async def measure(count: int, items: int) -> tuple[float, float]:
    args = {
        "command": "make test",
        "items": [{"key": index, "value": "v" * 40} for index in range(items)],
    }
    ours = output_frames(args, count)
    baseline = [output_frames({**args}, 1)[0] for _ in range(count)]
    app = PaneApp()
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(DetailsPane)
        timings = []
        for frames in (baseline, ours):
            pane.show(frames[0], None)
            await pilot.pause()
            start = time.perf_counter()
            for state in frames:
                pane.show(state, None)
            timings.append((time.perf_counter() - start) / count)
    return timings[1], timings[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=600, help="frames per kind")
    parser.add_argument("--items", type=int, default=300, help="items in the args' list")
    options = parser.parse_args()
    ours, baseline = asyncio.run(measure(options.n, options.items))
    print(f"baseline (args change every frame): {baseline * 1000:.3f} ms per frame")
    print(f"ours (only output grows):           {ours * 1000:.3f} ms per frame")
    print(f"ratio ours/baseline: {ours / baseline:.4f} ({baseline / ours:,.0f}x cheaper)")


if __name__ == "__main__":
    main()
