"""Time from process start to the first screen: `workbench` against a bare Textual app.

Both run headless in fresh interpreters, alternating, in the same run; the bare app exits on
its first refresh, the workbench once its tool tree shows the catalog. Prints the medians and
their ratio (the goal is <= 1.3).

    python bench/startup.py [--runs 7]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

BARE = """
from textual.app import App
from textual.widgets import Footer, Header, Tree

class Bare(App):
    def compose(self):
        yield Header()
        yield Tree("tools")
        yield Footer()

    def on_mount(self):
        self.call_after_refresh(self.exit)

Bare().run(headless=True)
"""

WORKBENCH = """
from workbench.app.app import WorkbenchApp

class Measured(WorkbenchApp):
    def on_fixture_screen_catalog_shown(self, message):
        self.call_after_refresh(self.exit)

Measured().run(headless=True)
"""


def time_once(code: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    options = parser.parse_args()
    time_once(BARE)  # Warm the file cache so neither side pays for the first read.
    time_once(WORKBENCH)
    bare: list[float] = []
    workbench: list[float] = []
    for _ in range(options.runs):
        bare.append(time_once(BARE))
        workbench.append(time_once(WORKBENCH))
    bare_median = statistics.median(bare)
    workbench_median = statistics.median(workbench)
    print(
        f"bare Textual app : median {bare_median * 1000:7.0f} "
        f"ms  (runs: {', '.join(f'{t * 1000:.0f}' for t in bare)})"
    )
    print(
        f"workbench        : median {workbench_median * 1000:7.0f} ms  (runs: "
        f"{', '.join(f'{t * 1000:.0f}' for t in workbench)})"
    )
    print(f"ratio workbench / bare: {workbench_median / bare_median:.2f}  (goal <= 1.3)")


if __name__ == "__main__":
    main()
