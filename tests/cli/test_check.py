"""``workbench check`` reports every problem as file:line: field: message and fails the build."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from workbench.cli import main

GOOD = """\
tool: calculator
api: calculate
variants:
  - id: ok
    label: Adds
    kind: typical
    args: {expression: "1 + 1"}
    result: {success: true, content: "1 + 1 = 2"}
"""


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    return CliRunner()


def test_bundled_fixtures_pass(runner: CliRunner) -> None:
    result = runner.invoke(main, ["check"])
    assert result.exit_code == 0, result.output


def test_broken_files_are_listed_and_the_rest_still_load(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "good.yaml").write_text(GOOD)
    (tmp_path / "broken.yaml").write_text(
        GOOD.replace("kind: typical", "kind: typical\n    colour: red")
    )
    (tmp_path / "args.yaml").write_text(
        GOOD.replace("id: ok", "id: bad-args").replace('expression: "1 + 1"', "expression: 7")
    )
    result = runner.invoke(main, ["check", str(tmp_path)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert any(
        line.endswith("broken.yaml:7: variants[0].colour: Extra inputs are not permitted")
        for line in lines
    ), lines
    assert any(
        line.endswith("args.yaml:7: variants[0].args.expression: 7 is not of type 'string'")
        for line in lines
    ), lines
    # Named files are linted; the coverage gate runs on the whole project (see test_snapshot_cli).
    assert "no waiver" not in result.output
    assert "3 fixture file(s), 2 variant(s), 2 problem(s)" in result.output


def test_json_format(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_text("tool: [\n")
    result = runner.invoke(main, ["check", "--format", "json", str(tmp_path)])
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["ok"] is False
    [problem] = report["problems"]
    assert (
        problem["file"].endswith("broken.yaml")
        and problem["line"] == 2
        and "not valid YAML" in problem["message"]
    )


def test_missing_path_is_a_problem(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["check", str(tmp_path / "missing")])
    assert result.exit_code == 1 and "no such file or directory" in result.output


def test_a_broken_tool_workbench_config_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "x"\n\n[tool.workbench]\nfixtures = 3\n')
    monkeypatch.chdir(tmp_path)
    for command in (["check"], ["show", "x.yaml#y"], ["coverage"], ["snapshot"]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 2, (command, result.output)
        assert result.output == (
            f"workbench: error: {pyproject}:5: tool.workbench.fixtures: "
            "must be a string or a list of strings\n"
        )


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        (
            'fixtures = ["fx"]\nsnapshot = "snaps"\n',
            ":3: tool.workbench.snapshot: Extra inputs are not permitted",
        ),
        (
            'include_bundled = "false"\n',
            ":2: tool.workbench.include_bundled: Input should be a valid boolean",
        ),
        ('tools = [\n  "a",\n  4,\n]\n', ":2: tool.workbench.tools: must be a string or a list"),
        ("fixtures = [\n", ":4: not valid TOML: Invalid value"),
        ('fixtures = "a" "b"\n', ":2: not valid TOML: "),
    ],
)
def test_every_tool_workbench_mistake_names_file_line_and_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: str, expected: str
) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[tool.workbench]\n" + table + "\n[tool.other]\nx = 1\n")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.startswith(f"workbench: error: {pyproject}{expected}"), result.output


def test_one_run_reports_every_problem_of_a_file_at_its_line(
    runner: CliRunner, tmp_path: Path
) -> None:
    second = GOOD.split("variants:\n", 1)[1]
    broken = (
        GOOD.replace("kind: typical", "kind: typical\n    kind: typical")  # key twice: line 7
        + second.replace("id: ok", "id: bad-args").replace('"1 + 1"', "7")  # args: line 13
        + second.replace("    label: Adds\n", "").replace("id: ok", "id: unlabelled")  # line 15
        + second  # the id 'ok' again: line 19
    )
    path = tmp_path / "calc.yaml"
    path.write_text(broken)
    result = runner.invoke(main, ["check", str(path)])
    assert result.exit_code == 1
    found = [
        line.split("calc.yaml:", 1)[1]
        for line in result.output.splitlines()
        if "calc.yaml:" in line
    ]
    assert found == [
        "7: variants[0].kind: key appears twice in the same mapping",
        "13: variants[1].args.expression: 7 is not of type 'string'",
        "15: variants[2].label: Field required",
        "19: variants[3].id: variant id 'ok' is used twice (first at line 4)",
    ]
    # Fixing what that one run listed is enough: the next run finds no loading problem (the
    # render audit, which only runs once everything loads, is tested on its own).
    fixed = (
        GOOD
        + second.replace("id: ok", "id: bad-args")
        + second.replace("id: ok", "id: unlabelled")
        + second.replace("id: ok", "id: ok-again")
    )
    path.write_text(fixed)
    result = runner.invoke(main, ["check", "--no-audit", str(path)])
    assert result.exit_code == 0, result.output
