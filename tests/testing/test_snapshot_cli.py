"""``workbench snapshot`` and ``workbench coverage`` on a small project of its own."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from workbench.cli import main

FIXTURE = textwrap.dedent(
    """\
    tool: calculator
    api: calculate
    variants:
      - id: add
        label: Adds
        kind: typical
        args: {expression: "1 + 1"}
        result: {success: true, content: "1 + 1 = 2", state: {value: "2", type: integer, digits: 1}}
    waivers:
      - {kind: empty, reason: "a sum is never empty"}
    """
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.workbench]\nfixtures = ["fixtures"]\nsnapshots = "snaps"\ninclude_bundled '
        '= false\ntools = ["workbench.tools.calculator:PACKAGE"]\n'
    )
    (tmp_path / "fixtures").mkdir()
    (tmp_path / "fixtures" / "calc.yaml").write_text(FIXTURE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_snapshot_update_then_pass_then_fail_with_a_report(project: Path) -> None:
    runner = CliRunner()
    first = runner.invoke(main, ["snapshot"])
    assert first.exit_code == 1 and "MISSING calculator/calculate/add/done-60-dark" in first.output
    update = runner.invoke(main, ["snapshot", "--update"])
    assert update.exit_code == 0, update.output
    files = sorted(
        path.relative_to(project / "snaps").as_posix() for path in (project / "snaps").rglob("*.*")
    )
    assert (
        "calculator/calculate/add/done-100-light.svg" in files
        and "calculator/calculate/add/args-streaming-60-dark.txt" in files
    )
    assert runner.invoke(main, ["snapshot"]).exit_code == 0
    (project / "fixtures" / "calc.yaml").write_text(FIXTURE.replace('value: "2"', 'value: "3"'))
    report = project / "report.html"
    failed = runner.invoke(main, ["snapshot", "--report", str(report)])
    assert failed.exit_code == 1
    assert "FAILED calculator/calculate/add/done-60-dark" in failed.output
    assert "-│ = 2" in failed.output and "+│ = 3" in failed.output
    page = report.read_text()
    assert (
        "Changes" in page
        and "expected" in page
        and "actual" in page
        and "data:image/svg+xml;base64," in page
    )


def test_unused_snapshots_are_reported_and_deleted_on_update(project: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["snapshot", "--update"]).exit_code == 0
    stray = project / "snaps" / "calculator" / "calculate" / "gone" / "done-60-dark.txt"
    stray.parent.mkdir(parents=True)
    stray.write_text("old")
    result = runner.invoke(main, ["snapshot"])
    assert result.exit_code == 1 and "UNUSED" in result.output
    assert runner.invoke(main, ["snapshot", "--update"]).exit_code == 0
    assert not stray.exists()


def test_coverage_reports_gaps_and_check_fails_on_them(project: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["coverage", "--format", "json"])
    assert result.exit_code == 1
    report = json.loads(result.output)
    [row] = report["apis"]
    assert row["kinds"] == {
        "typical": "covered",
        "empty": "waived",
        "error": "missing",
        "truncated": "missing",
        "loading": "covered",
    }
    assert row["surfaces"]["inspector"] == "own" and row["surfaces"]["portal"] == "fallback"
    check = runner.invoke(main, ["check"])
    assert check.exit_code == 1
    assert "calculator.calculate no 'error' variant and no waiver" in check.output


def test_check_fails_when_an_approval_api_has_no_intervention(project: Path) -> None:
    (project / "fixtures" / "manifest.yaml").write_text(
        textwrap.dedent(
            """\
            identifier: deployer
            meta: {title: Deployer}
            api:
              - name: deploy
                humanIntervention: required
                parameters: {type: object, properties: {service: {type: string}}}
            """
        )
    )
    result = CliRunner().invoke(main, ["check", "--format", "json"])
    assert result.exit_code == 1
    messages = [problem["message"] for problem in json.loads(result.output)["problems"]]
    assert "deployer.deploy has a humanIntervention policy but no Intervention surface" in messages
