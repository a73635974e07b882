"""Save-to-repaint in `workbench dev`, against an explicit reload (ctrl+r) in the same run.

A project made by `workbench new` is opened in the headless app with the file watcher on.
Each round saves one file and times until the screen shows the change:
- fixture: a result's item title in the fixture file (the Render changes);
- surface: the Inspector's verb in surfaces.py (the tool is re-imported);
- manifest: the tool's title in manifest.py (re-imported; the card header changes);
- broken: a syntax error in surfaces.py (the card shows the error), then the fix.
The baseline is the same fixture edit shown by pressing ctrl+r in an app without the
watcher: the time the workbench itself needs to re-read and redraw. Prints medians, the
ratio of each to the baseline, and the goal (every median under 1 s).

    python bench/reload.py [--rounds 7]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

POLL_S = 0.005
TIMEOUT_S = 10.0


async def shown(app: object, text: str) -> float:
    """Seconds until the screen shows ``text`` (polling what the compositor draws)."""
    from workbench.rendering.screen import screen_text

    started = time.perf_counter()
    while text not in screen_text(app):  # type: ignore[arg-type]
        if time.perf_counter() - started > TIMEOUT_S:
            raise TimeoutError(f"the screen never showed {text!r}")
        await asyncio.sleep(POLL_S)
    return time.perf_counter() - started


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


async def run_watch(root: Path, package: Path, rounds: int) -> dict[str, list[float]]:
    from workbench.app.app import WorkbenchApp
    from workbench.config import load_config
    from workbench.project import open_project
    from workbench.rendering.screen import settle

    app = WorkbenchApp(lambda: open_project(config=load_config(root)), animate=False, watch=True)
    timings: dict[str, list[float]] = {"fixture": [], "surface": [], "manifest": [], "broken": []}
    fixture = package / "fixtures" / "lookup.yaml"
    surfaces = package / "surfaces.py"
    manifest = package / "manifest.py"
    async with app.run_test(size=(140, 40)) as pilot:
        # Not workers.wait_for_complete(): the watcher is a worker that runs until the end.
        await shown(app, "Looked up")
        await settle(pilot)
        await asyncio.sleep(0.5)  # the watcher is up
        title, verb, name = "title: Glossary,", '"Looked up"', '"title": "Bench tool"'
        steps: list[tuple[str, Callable[[int], tuple[Path, str, str, str]]]] = [
            ("fixture", lambda n: (fixture, title, f"title: Glossary{n},", f"Glossary{n}")),
            ("surface", lambda n: (surfaces, verb, f'"Looked{n} up"', f"Looked{n} up")),
            ("manifest", lambda n: (manifest, name, f'"title": "Bench {n}"', f"Bench {n}")),
        ]
        for number in range(rounds):
            for label, step in steps:
                path, old, new, expect = step(number)
                started = time.perf_counter()
                edit(path, old, new)
                await shown(app, expect)
                timings[label].append(time.perf_counter() - started)
                await asyncio.sleep(0.1)
            title, verb = f"title: Glossary{number},", f'"Looked{number} up"'
            name = f'"title": "Bench {number}"'
            started = time.perf_counter()
            edit(surfaces, "def _state(", "def _state(:")
            await shown(app, "Does not load")
            edit(surfaces, "def _state(:", "def _state(")
            await shown(app, f"Looked{number} up")
            timings["broken"].append((time.perf_counter() - started) / 2)
            await asyncio.sleep(0.1)
    return timings


async def run_baseline(root: Path, package: Path, rounds: int) -> list[float]:
    from workbench.app.app import WorkbenchApp
    from workbench.config import load_config
    from workbench.project import open_project
    from workbench.rendering.screen import settle

    app = WorkbenchApp(lambda: open_project(config=load_config(root)), animate=False)
    fixture = package / "fixtures" / "lookup.yaml"
    timings: list[float] = []
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.app.workers.wait_for_complete()
        await settle(pilot)
        current = f"title: Glossary{rounds - 1},"
        for number in range(rounds):
            edit(fixture, current, f"title: Manual{number},")
            current = f"title: Manual{number},"
            started = time.perf_counter()
            await pilot.press("ctrl+r")
            await shown(app, f"Manual{number}")
            timings.append(time.perf_counter() - started)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=7)
    options = parser.parse_args()
    from workbench.scaffold import plan_scaffold, write_plan

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        plan = plan_scaffold("bench-tool", ["lookup"], root)
        write_plan(plan)
        sys.path.insert(0, str(root))
        watched = asyncio.run(run_watch(root, plan.package_dir, options.rounds))
        baseline = asyncio.run(run_baseline(root, plan.package_dir, options.rounds))
    base = statistics.median(baseline)
    print(f"{'ctrl+r (baseline)':<22}: median {base * 1000:6.0f} ms")
    worst = 0.0
    for label, values in watched.items():
        median = statistics.median(values)
        worst = max(worst, median)
        runs = ", ".join(f"{value * 1000:.0f}" for value in values)
        print(
            f"save {label:<17}: median {median * 1000:6.0f} ms  ratio {median / base:5.2f}"
            f"  (runs: {runs})"
        )
    print(f"slowest median save-to-repaint: {worst * 1000:.0f} ms  (goal < 1000 ms)")


if __name__ == "__main__":
    main()
