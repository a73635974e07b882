"""The fast snapshot path draws exactly what a fully settled screen shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.rendering.settled import settled_snapshots
from workbench.config import load_config
from workbench.project import open_project
from workbench.rendering.matrix import snapshot_cases
from workbench.rendering.renderer import PORTAL_VIEW_HEIGHT, SnapshotRenderer
from workbench.review.cases import parse_case_id
from workbench.testing.unused import unused_snapshots

REPO = Path(__file__).resolve().parents[2]
HOSTS = ("claude-code", "codex", "crush", "gemini-cli", "opencode")
"""Every bundled host but ``none``."""


@pytest.fixture(scope="module")
def project():
    return open_project(config=load_config(REPO))


def test_fast_path_equals_settled_screen(project) -> None:
    cases = snapshot_cases(project.catalog, project.registry)
    # Every phase and theme appears in a sample of one case in five; one in two of the
    # Portals taller than their panel (drawn with a scrollbar, the body laid out twice) too.
    # Every folded card's look in one case of three (the app folds through ToolCard.expanded).
    sample = cases[::5]
    for phase in {case.phase for case in cases} - {case.phase for case in sample}:
        sample.append(next(case for case in cases if case.phase is phase))
    sample += [case for case in cases if case.surface == "collapsed"][::3]
    assert {case.phase for case in sample} >= {
        case.phase for case in cases if case.surface == "card"
    }
    assert any(case.surface == "collapsed" for case in sample)
    with SnapshotRenderer(project.catalog, project.registry) as fast:
        tall = [
            case
            for case in cases
            if case.surface == "portal"
            and case not in sample
            and len(fast.render(case).text.splitlines()) == PORTAL_VIEW_HEIGHT
        ]
        tall = tall[::2]
        sample += tall
        quick = [fast.render(case) for case in sample]
    assert {case.theme for case in tall} == {"dark", "light"}
    assert len(tall) >= 10
    settled = settled_snapshots(project.catalog, project.registry, sample)
    mismatched = [case.test_id for case, a, b in zip(sample, quick, settled, strict=True) if a != b]
    assert mismatched == []


def test_rendering_twice_is_byte_identical(project) -> None:
    cases = snapshot_cases(project.catalog, project.registry)[::11]
    with SnapshotRenderer(project.catalog, project.registry) as renderer:
        first = [renderer.render(case) for case in cases]
        second = [renderer.render(case) for case in reversed(cases)]
    assert first == list(reversed(second))
    # Rich numbers each export's ids from a hash of its content and a counter; none may remain.
    assert not any(re.search(r"terminal-\d", item.svg) for item in first)


def test_matrix_covers_phases_widths_light_theme_and_portals(project) -> None:
    cases = snapshot_cases(project.catalog, project.registry)
    run_command = [
        case
        for case in cases
        if case.tool == "local-system"
        and case.api == "runCommand"
        and case.variant_id == "run-steps"
    ]
    names = sorted(case.name for case in run_command)
    assert names == sorted(
        [
            f"{phase}-{width}-dark"
            for phase in (
                "args-streaming",
                "awaiting-approval",
                "executing",
                "streaming-output",
                "done",
            )
            for width in (60, 100)
        ]
        + [
            f"{phase}-60-light"
            for phase in (
                "args-streaming",
                "awaiting-approval",
                "executing",
                "streaming-output",
                "done",
            )
        ]
        + ["done-100-light", "portal-80-dark", "portal-80-light"]
        + [f"{view}-{host}-100-dark" for view in ("look", "model") for host in HOSTS]
    )
    calculator = [
        case.name for case in cases if case.tool == "calculator" and case.variant_id == "arithmetic"
    ]
    assert "portal-80-dark" not in calculator  # No Portal of its own: none snapshotted.
    assert "portal-80-light" not in calculator
    assert len({case.test_id for case in cases}) == len(cases)


def test_each_hosts_views_are_cases_drawn_at_the_ending(project, tmp_path: Path) -> None:
    cases = snapshot_cases(project.catalog, project.registry)
    by_id = {case.test_id: case for case in cases}
    base = "local-system/runCommand/twenty-thousand-lines"
    look = by_id[f"{base}/look-codex-100-dark"]
    model = by_id[f"{base}/model-codex-100-dark"]
    assert look.phase.value == model.phase.value == "done" and look.host == "codex"
    with SnapshotRenderer(project.catalog, project.registry) as renderer:
        folded = renderer.render(look).text
        card = renderer.render(by_id[f"{base}/done-100-dark"]).text
        reads = renderer.render(model).text
    # Codex shows the first 5 and last 5 body lines and says how many it hides.
    assert len(folded.splitlines()) < len(card.splitlines())
    assert "│ … +9 lines " in folded
    assert "Codex CLI (codex" in reads and "what the model reads (62 lines)" in reads
    assert "showing 40 of 62 lines" in reads  # the delivered text is capped, and says so
    # Their ids keep the case grammar: the file rule knows them, and never calls them unused.
    for case in (look, model):
        parsed = parse_case_id(case.test_id)
        assert parsed is not None and parsed.prefix == case.surface
        path = tmp_path / f"{case.test_id}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x")
    stray = tmp_path / base / "look-nohost-100-dark.txt"
    stray.write_text("x")
    assert unused_snapshots(tmp_path, set(by_id)) == [stray]
    assert not any(case.host == "none" for case in cases)


def test_a_projects_own_variants_get_no_host_cases(tmp_path: Path) -> None:
    fixtures = tmp_path / "fixtures" / "calculator"
    fixtures.mkdir(parents=True)
    source = REPO / "fixtures" / "calculator" / "calculate.yaml"
    (fixtures / "calculate.yaml").write_text(source.read_text())
    (tmp_path / "pyproject.toml").write_text(
        '[tool.workbench]\nfixtures = ["fixtures"]\ninclude_bundled = false\n'
    )
    own = open_project(config=load_config(tmp_path), installed=False)
    cases = snapshot_cases(own.catalog, own.registry)
    assert cases and all(case.surface == "card" for case in cases)
