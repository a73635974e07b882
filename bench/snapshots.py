"""Per-snapshot cost: our reused headless app against a fresh app per snapshot.

Renders the same N snapshot cases both ways in one run:
- ours: workbench.rendering.renderer.SnapshotRenderer (one app, state swapped per snapshot);
- baseline: a fresh ``App.run_test()`` + ``pilot.pause()`` + ``export_screenshot()`` per
  snapshot (what pytest-textual-snapshot does), showing the same ToolCard.
Prints both per-snapshot times and the ratio (goal: ours at least 5x faster).

    python bench/snapshots.py [-n 120]
"""

from __future__ import annotations

import argparse
import asyncio
import time

from textual.app import App, ComposeResult

from workbench.app.widgets.tool_card import ToolCard
from workbench.project import open_project
from workbench.rendering.matrix import snapshot_cases
from workbench.rendering.renderer import SnapshotRenderer


class FreshApp(App[None]):
    def __init__(self, project, case) -> None:
        super().__init__()
        self.project = project
        self.case = case

    def compose(self) -> ComposeResult:
        yield ToolCard(self.project.registry, animate=False)

    def on_mount(self) -> None:
        catalog = self.project.catalog
        card = self.query_one(ToolCard)
        state = catalog.script_for(self.case.ref).state_at(self.case.phase)
        card.card_width = self.case.width
        card.show(state, catalog.tools[self.case.tool].manifest)


async def fresh(project, cases) -> float:
    started = time.perf_counter()
    for case in cases:
        app = FreshApp(project, case)
        async with app.run_test(size=(140, 60)) as pilot:
            await pilot.pause()
            app.export_screenshot()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=120, help="snapshots per route")
    options = parser.parse_args()
    project = open_project()
    cases = [
        case
        for case in snapshot_cases(project.catalog, project.registry)
        if case.surface == "card" and case.theme == "dark"
    ]
    step = max(1, len(cases) // options.n)
    cases = cases[::step][: options.n]
    for case in cases:  # Build every script first so neither route pays for it.
        project.catalog.script_for(case.ref).state_at(case.phase)

    started = time.perf_counter()
    with SnapshotRenderer(project.catalog, project.registry) as renderer:
        ready = time.perf_counter()
        for case in cases:
            renderer.render(case)
        done = time.perf_counter()
    ours = (done - ready) / len(cases)
    baseline = asyncio.run(fresh(project, cases)) / len(cases)
    print(f"{len(cases)} snapshots (text + SVG), same cases both ways")
    print(
        f"ours (one app reused): {ours * 1000:7.1f} "
        f"ms per snapshot   (+{(ready - started) * 1000:.0f} "
        "ms once to start the app)"
    )
    print(f"fresh app per snapshot: {baseline * 1000:7.1f} ms per snapshot")
    print(f"ratio fresh / ours: {baseline / ours:.1f}x  (goal >= 5x)")


if __name__ == "__main__":
    main()
