"""Commands that draw or judge every variant refuse a project whose fixtures do not load:
each error on stderr as FILE:LINE: FIELD: MESSAGE, then one line, exit code 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.testing.small_project import calculator_project
from workbench.cli import main

GATE = "workbench: error: fixtures do not load cleanly (see `workbench check`)"


@pytest.fixture
def broken_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    calculator_project(tmp_path)
    (tmp_path / "fixtures" / "broken.yaml").write_text("tool: calculator\napi: [unclosed\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("command", [["audit"], ["review", "--check"]])
def test_a_fixture_that_does_not_load_stops_the_command(
    broken_project: Path, command: list[str]
) -> None:
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 2, result.output
    *problems, last = result.stderr.splitlines()
    assert last == GATE
    assert problems and all(line.startswith("fixtures/broken.yaml:") for line in problems)
    assert result.stdout == ""


@pytest.mark.parametrize("command", [["audit"], ["review", "--check"]])
def test_a_project_that_loads_passes_the_gate(broken_project: Path, command: list[str]) -> None:
    (broken_project / "fixtures" / "broken.yaml").unlink()
    result = CliRunner().invoke(main, command)
    assert GATE not in result.stderr
    assert result.exit_code in (0, 1), result.output
