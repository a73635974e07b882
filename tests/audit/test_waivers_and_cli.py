"""Waivers (only with a reason, never stale), ``workbench audit`` and ``workbench check``."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner
from rich.console import RenderableType
from rich.text import Text

from tests.audit.demo_project import WAIVERS, demo_project
from tests.audit.helpers import audit, variant
from tests.audit.test_rules import GOOD, TYPICAL, surfaces
from workbench.cli import main
from workbench.fixtures.loader import load_fixture_file
from workbench.surfaces.context import SurfaceContext


def grey(ctx: SurfaceContext) -> RenderableType:
    return Text("3 items found", style="#777777")


def test_a_waiver_with_a_reason_accepts_exactly_what_it_names(tmp_path: Path) -> None:
    waiver = {
        "rule": "contrast",
        "theme": "light",
        "reason": "the brand grey is required by the client's style guide",
    }
    found = audit(
        tmp_path, surfaces(render=grey), [TYPICAL], rule="contrast", audit_waivers=[waiver]
    )
    # The light theme's findings are waived; the dark theme's are not.
    assert found and {finding.key.theme for finding in found} == {"dark"}


def test_a_waiver_needs_a_reason(tmp_path: Path) -> None:
    path = tmp_path / "lookup.yaml"
    path.write_text("tool: demo\napi: lookup\nvariants: []\naudit_waivers:\n  - {rule: contrast}\n")
    loaded, problems = load_fixture_file(path, {})
    assert loaded is None
    assert [problem.format() for problem in problems] == [
        f"{path}:5: audit_waivers[0].reason: Field required"
    ]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    lookup = (
        "tool: demo\napi: lookup\nvariants:\n"
        "  - id: found\n    label: Finds three\n    kind: typical\n    args: {query: q}\n"
        "    result: {success: true, content: three items}\n"
    )
    return demo_project(tmp_path, monkeypatch, "demo_tool", {"lookup": lookup + WAIVERS})


def test_audit_prints_what_is_wrong_and_what_to_change(project: Path) -> None:
    result = CliRunner().invoke(main, ["audit"])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines == [
        "fixtures/lookup.yaml#found done 60,100,120 dark: rule 13 (contrast): text “3 items "
        "found” is #777777 on #121212, 4.18:1 (needs 4.5:1 in the dark theme) — draw it in a "
        "ctx.palette colour (each reaches 4.5:1 on this theme's background), not a fixed colour "
        "or a dim style",
        "fixtures/lookup.yaml#found done 60,100,120 light: rule 13 (contrast): text “3 items "
        "found” is #777777 on #e0e0e0, 3.39:1 (needs 4.5:1 in the light theme) — draw it in a "
        "ctx.palette colour (each reaches 4.5:1 on this theme's background), not a fixed colour "
        "or a dim style",
    ]
    assert "✗ 6 findings · 0 waived · 1 variant" in result.stderr


def test_audit_json_and_junit(project: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["audit", "--format", "json"])
    report = json.loads(result.stdout)
    assert result.exit_code == 1 and report["ok"] is False
    first = report["findings"][0]
    assert (first["file"], first["line"], first["rule"], first["principle"]) == (
        "fixtures/lookup.yaml",
        4,
        "contrast",
        13,
    )
    assert {rule["name"] for rule in report["rules"]} >= {"contrast", "plurals"}
    junit = tmp_path / "audit.xml"
    result = CliRunner().invoke(main, ["audit", "--format", "junit", "--output", str(junit)])
    suite = ElementTree.parse(junit).getroot()
    assert (suite.get("tests"), suite.get("failures")) == ("1", "1")
    failure = suite.find("testcase/failure")
    assert failure is not None and "rule 13 (contrast)" in (failure.text or "")


def test_a_waiver_turns_the_audit_green_and_a_stale_one_is_reported(project: Path) -> None:
    fixture = project / "fixtures" / "lookup.yaml"
    fixture.write_text(
        fixture.read_text()
        + "audit_waivers:\n"
        + "  - {rule: contrast, reason: the demo keeps the grey of its old brand}\n"
        + "  - {rule: plurals, reason: nothing here counts anything}\n"
    )
    result = CliRunner().invoke(main, ["audit"])
    assert result.exit_code == 0, result.output
    assert (
        "fixtures/lookup.yaml:15: audit_waivers: waiver for rule 'plurals' matches no finding "
        "any more: remove it" in result.stderr
    )
    assert "✓ 0 findings · 6 waived" in result.stderr
    shown = CliRunner().invoke(main, ["audit", "--show-waived"])
    assert "[waived: the demo keeps the grey of its old brand]" in shown.stdout


def test_a_waiver_for_a_rule_that_does_not_exist_fails(project: Path) -> None:
    fixture = project / "fixtures" / "lookup.yaml"
    fixture.write_text(
        fixture.read_text() + "audit_waivers:\n  - {rule: contrastt, reason: a typo in the name}\n"
    )
    result = CliRunner().invoke(main, ["audit", "--rule", "plurals"])
    assert result.exit_code == 1
    assert "audit_waivers: no rule named 'contrastt'" in result.stdout


def test_check_runs_the_audit_unless_asked_not_to(project: Path) -> None:
    result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 1
    assert (
        "fixtures/lookup.yaml:4: audit.contrast: fixtures/lookup.yaml#found done 60 dark: "
        "rule 13 (contrast)" in result.stdout
    )
    assert CliRunner().invoke(main, ["check", "--no-audit"]).exit_code == 0


def test_an_unknown_rule_is_a_usage_error(project: Path) -> None:
    result = CliRunner().invoke(main, ["audit", "--rule", "colour"])
    assert result.exit_code == 2
    assert (
        "workbench: error: no rule named 'colour' (rules: app-ui-text-fallback, contrast,"
        in result.stderr
    )


def test_the_bundled_fixtures_waive_no_finding() -> None:
    """The reference tools are what authors copy: they pass the audit (the snapshot suite runs
    it for every variant) with nothing waived."""
    import yaml

    from workbench.config import bundled_fixtures_dir

    for path in sorted(bundled_fixtures_dir().rglob("*.yaml")):
        assert "audit_waivers" not in yaml.safe_load(path.read_text(encoding="utf-8")), path


def test_good_surfaces_pass_every_rule(tmp_path: Path) -> None:
    assert (
        audit(tmp_path, GOOD, [TYPICAL, variant("empty", kind="empty", state={"items": []})]) == []
    )
