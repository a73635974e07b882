"""The review TUI's live case card draws a host's view as its snapshot does."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App, ComposeResult

from workbench.app.widgets.case_card import CaseCard
from workbench.config import load_config
from workbench.project import open_project
from workbench.rendering.matrix import snapshot_cases
from workbench.rendering.renderer import SnapshotRenderer
from workbench.rendering.screen import screen_strips, settle
from workbench.surfaces.registry import SurfaceRegistry

REPO = Path(__file__).resolve().parents[2]
BASE = "local-system/runCommand/twenty-thousand-lines"


class CardApp(App[None]):
    def __init__(self, registry: SurfaceRegistry) -> None:
        super().__init__()
        self.registry = registry

    def compose(self) -> ComposeResult:
        yield CaseCard(self.registry, animate=False, id="now")


@pytest.mark.parametrize("surface", ["look-codex", "model-gemini-cli"])
async def test_a_host_case_is_drawn_live_as_its_snapshot(surface: str) -> None:
    project = open_project(config=load_config(REPO))
    case = next(
        case
        for case in snapshot_cases(project.catalog, project.registry)
        if case.test_id == f"{BASE}/{surface}-100-dark"
    )
    with SnapshotRenderer(project.catalog, project.registry) as renderer:
        expected = renderer.render(case).text.splitlines()
    app = CardApp(project.registry)
    async with app.run_test(size=(120, 70)) as pilot:
        card = app.query_one(CaseCard)
        card.surface = case.surface
        card.card_width = case.width
        manifest = project.catalog.tools[case.tool].manifest
        card.show(project.catalog.script_for(case.ref).state_at(case.phase), manifest)
        await settle(pilot)
        region = card.region
        drawn = [
            strip.crop(region.x, region.right).text.rstrip()
            for strip in screen_strips(app)[region.y : region.bottom]
        ]
    assert drawn == [line.rstrip() for line in expected]
