"""Per-snapshot cost: our direct drawing against a fresh app per snapshot.

Renders the same N snapshot cases both ways in one run, a sample of the whole matrix (tool
cards and Portals, dark and light):
- ours: workbench.rendering.renderer.SnapshotRenderer (text + SVG + picture hash);
- baseline: a fresh ``App.run_test()`` + ``pilot.pause()`` + ``export_screenshot()`` per
  snapshot (what pytest-textual-snapshot does), showing the same ToolCard or Portal frame.
The sample is spaced evenly within each surface, and each surface's times are weighed by its
share of the matrix (Portals are one case in eight, and their bodies cost the most to draw).
The two routes alternate case by case, so a load that comes and goes slows both alike.
Prints both per-snapshot times, per surface and over the matrix, and the ratio (goal: >= 10x).

    python bench/snapshots.py [-n 120]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections import defaultdict

from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from workbench.app.widgets.tool_card import ToolCard
from workbench.project import Project, open_project
from workbench.rendering.matrix import SnapshotCase, snapshot_cases
from workbench.rendering.renderer import (
    PORTAL_VIEW_HEIGHT,
    THEMES,
    SnapshotRenderer,
    theme_colours,
)
from workbench.surfaces.card import portal_renderable
from workbench.surfaces.context import SurfaceContext


class FreshApp(App[None]):
    CSS = f"""
    Screen {{ overflow: hidden; }}
    #portal-frame {{
        width: 80; height: auto; max-height: {PORTAL_VIEW_HEIGHT}; border-left: vkey $primary;
    }}
    #portal {{ padding: 0 1; }}
    """

    def __init__(self, project: Project, case: SnapshotCase) -> None:
        super().__init__()
        self.project = project
        self.case = case
        self.animation_level = "none"
        self.theme = THEMES[case.theme]

    def compose(self) -> ComposeResult:
        if self.case.surface == "portal":
            with VerticalScroll(id="portal-frame"):
                yield Static(id="portal")
        else:
            yield ToolCard(self.project.registry, animate=False)

    def on_mount(self) -> None:
        catalog = self.project.catalog
        case = self.case
        state = catalog.script_for(case.ref).state_at(case.phase)
        manifest = catalog.tools[case.tool].manifest
        if case.surface == "portal":
            self.query_one("#portal-frame").styles.width = case.width
            ctx = SurfaceContext(
                state=state,
                manifest=manifest,
                width=case.width - 2,
                palette=theme_colours(case.theme).palette,
            )
            self.query_one("#portal", Static).update(portal_renderable(ctx, self.project.registry))
        else:
            card = self.query_one(ToolCard)
            card.card_width = case.width
            card.show(state, manifest)


async def fresh(project: Project, case: SnapshotCase) -> None:
    app = FreshApp(project, case)
    async with app.run_test(size=(140, 60)) as pilot:
        await pilot.pause()
        app.export_screenshot()


async def measure(
    project: Project, cases: list[SnapshotCase]
) -> dict[str, tuple[float, float, int]]:
    """Per surface: seconds ours, seconds fresh, cases."""
    totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    with SnapshotRenderer(project.catalog, project.registry) as renderer:
        for case in cases:
            started = time.perf_counter()
            renderer.render(case)
            middle = time.perf_counter()
            await fresh(project, case)
            done = time.perf_counter()
            total = totals[case.surface]
            total[0] += middle - started
            total[1] += done - middle
            total[2] += 1
    return {surface: (ours, base, int(n)) for surface, (ours, base, n) in totals.items()}


def sample(cases: list[SnapshotCase], n: int) -> dict[str, list[SnapshotCase]]:
    """Evenly spaced cases of each surface, as many as its share of the matrix (at least 15)."""
    by_surface: dict[str, list[SnapshotCase]] = defaultdict(list)
    for case in cases:
        by_surface[case.surface].append(case)
    picked = {}
    for surface, group in by_surface.items():
        count = min(len(group), max(15, round(n * len(group) / len(cases))))
        picked[surface] = [group[i * len(group) // count] for i in range(count)]
    return picked


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("-n", type=int, default=120, help="snapshots per route")
    options = parser.parse_args()
    project = open_project()
    matrix = snapshot_cases(project.catalog, project.registry)
    share = {surface: len(group) for surface, group in sample(matrix, len(matrix)).items()}
    picked = sample(matrix, options.n)
    cases = [case for group in picked.values() for case in group]
    for case in cases:  # Build every script first so neither route pays for it.
        project.catalog.script_for(case.ref).state_at(case.phase)
    # One case each way first: imports and first-use caches are paid by neither measurement.
    asyncio.run(measure(project, cases[:1]))
    totals = asyncio.run(measure(project, cases))
    print(f"{len(cases)} snapshots (text + SVG), same cases both ways, alternated")
    ours = base = 0.0
    for surface, (mine, fresh_time, count) in sorted(totals.items()):
        print(
            f"  {surface:6} x{count:3} of {share[surface]:4}: ours {mine / count * 1000:6.1f} ms, "
            f"fresh app {fresh_time / count * 1000:6.1f} ms per snapshot: {fresh_time / mine:5.1f}x"
        )
        # Each surface weighs what it weighs in the matrix, however many were sampled.
        ours += mine / count * share[surface]
        base += fresh_time / count * share[surface]
    print(f"over the matrix ({len(matrix)} cases), per snapshot:")
    print(f"ours (drawn directly):  {ours / len(matrix) * 1000:7.1f} ms")
    print(f"fresh app per snapshot: {base / len(matrix) * 1000:7.1f} ms")
    print(f"ratio fresh / ours: {base / ours:.1f}x  (goal >= 10x)")


if __name__ == "__main__":
    main()
