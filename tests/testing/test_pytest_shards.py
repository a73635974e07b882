"""The pytest plugin's ``--shard K/N``: each CI job runs its part of the snapshot and audit
cases, the parts together are the whole suite, and an update in one shard deletes nothing
another shard owns."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.testing.small_project import ADD, calculator_fixture, calculator_project, run_pytest

SUB = ADD.replace("id: add", "id: sub").replace("Adds", "Subtracts").replace("1 + 1", "3 - 1")
FIXTURE = calculator_fixture(ADD, SUB)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    calculator_project(tmp_path, FIXTURE, tests=True)
    (tmp_path / "tests" / "test_ui.py").write_text(
        "def test_tool_ui(tool_ui_snapshot):\n    tool_ui_snapshot()\n"
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


pytest_run = run_pytest


def passed(*args: str) -> list[str]:
    """The Workbench cases a run passed (it must pass)."""
    result = pytest_run("-v", *args)
    assert result.returncode == 0, result.stdout + result.stderr
    return [
        line.split("[", 1)[1].rsplit("] PASSED", 1)[0]
        for line in result.stdout.splitlines()
        if "::test_tool_ui[" in line and "PASSED" in line
    ]


def test_shards_split_the_suite_and_run_it_in_parts(project: Path) -> None:
    whole = passed("--snapshot-update")
    files = sorted((project / "snaps").rglob("*.*"))
    assert any(case.endswith("/audit") for case in whole) and len(whole) > 20
    # An update in one shard keeps every other shard's files; the other shard passes on them.
    first = passed("--snapshot-update", "--shard", "1/2")
    assert sorted((project / "snaps").rglob("*.*")) == files
    second = passed("--shard", "2/2")
    assert first and second and not set(first) & set(second)
    assert sorted(first + second) == sorted(whole)
    assert abs(len(first) - len(second)) < len(whole) / 4


@pytest.mark.parametrize("spec", ["0/3", "4/3", "x"])
def test_a_bad_shard_is_a_usage_error(project: Path, spec: str) -> None:
    result = pytest_run("--shard", spec)
    assert result.returncode == pytest.ExitCode.USAGE_ERROR
    assert "--shard" in result.stderr and "K/N" in result.stderr
