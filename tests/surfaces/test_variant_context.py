"""One factory turns a fixture variant at a phase into surface props."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.config import load_config
from workbench.core.call_state import Phase
from workbench.fixtures.catalog import Catalog
from workbench.project import open_project
from workbench.rendering.matrix import SnapshotCase
from workbench.rendering.renderer import CardDrawer
from workbench.surfaces.context import DARK_PALETTE, LIGHT_PALETTE, variant_context

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def project():
    return open_project(config=load_config(REPO))


def test_context_holds_the_variants_state_at_the_phase_and_its_tools_manifest(project) -> None:
    catalog: Catalog = project.catalog
    ref = catalog.resolve_ref("calculator/calculate.yaml#arithmetic")
    script = catalog.script_for(ref)
    for phase in script.phases:
        ctx = variant_context(catalog, ref, phase, width=61, palette=LIGHT_PALETTE, frame=3)
        assert ctx.state == script.state_at(phase)
        assert ctx.phase is phase
        assert ctx.manifest is catalog.tools["calculator"].manifest
        assert (ctx.width, ctx.palette, ctx.frame) == (61, LIGHT_PALETTE, 3)
    # Unless told otherwise, a variant is drawn in the dark theme, standing still.
    default = variant_context(catalog, ref, script.phases[-1], width=80)
    assert (default.palette, default.frame) == (DARK_PALETTE, 0)


def test_a_tool_the_catalog_does_not_know_has_no_manifest(project) -> None:
    catalog: Catalog = project.catalog
    assert catalog.manifest_for("no-such-tool") is None
    assert catalog.manifest_for("calculator") is catalog.tools["calculator"].manifest


def test_the_snapshot_drawer_draws_from_the_same_context(project) -> None:
    catalog: Catalog = project.catalog
    ref = catalog.resolve_ref("calculator/calculate.yaml#arithmetic")
    drawer = CardDrawer(catalog, project.registry)
    card = drawer.context(SnapshotCase(ref, Phase.DONE, 72, "light"))
    portal = drawer.context(SnapshotCase(ref, Phase.DONE, 72, "dark", surface="portal"))
    assert card == variant_context(catalog, ref, Phase.DONE, width=72, palette=LIGHT_PALETTE)
    # The Portal's body is two columns narrower than its frame (a border and padding).
    assert portal == variant_context(catalog, ref, Phase.DONE, width=70, palette=DARK_PALETTE)
