"""A project opts into the snapshot suite as into any pytest plugin's: a test that asks for
the ``tool_ui_snapshot`` fixture. The old import still runs the same cases, deprecated."""

from __future__ import annotations

import re
import subprocess
import textwrap
from pathlib import Path

import pytest

from tests.testing.small_project import calculator_project, run_pytest

FIXTURE_TEST = textwrap.dedent(
    '''\
    from collections.abc import Callable


    def test_tool_ui(tool_ui_snapshot: Callable[[], None]) -> None:
        """Every surface looks as approved; every variant passes the render audit."""
        tool_ui_snapshot()
    '''
)
OLD_IMPORT_TEST = "from workbench.api import test_tool_ui_snapshot  # noqa: F401\n"

# Each test runs pytest in a subprocess two or three times: slow on a loaded machine, not stuck.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    calculator_project(tmp_path, tests=True)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _pytest(*args: str) -> subprocess.CompletedProcess[str]:
    return run_pytest("-q", *args)


def _passed(output: str) -> int:
    found = re.search(r"(\d+) passed", output)
    return int(found.group(1)) if found else 0


def test_the_fixture_runs_every_case_and_the_audit(project: Path) -> None:
    (project / "tests" / "test_ui.py").write_text(FIXTURE_TEST)
    missing = _pytest()
    assert missing.returncode == 1, missing.stdout  # nothing approved yet: the check is real
    update = _pytest("--snapshot-update")
    assert update.returncode == 0, update.stdout + update.stderr
    snapshots = sorted(p.relative_to(project / "snaps").as_posix() for p in project.rglob("*.txt"))
    assert "calculator/calculate/add/done-60-dark.txt" in snapshots
    plain = _pytest("-rA")
    assert plain.returncode == 0, plain.stdout + plain.stderr
    # One test per snapshot case, plus the variant's render audit.
    assert _passed(plain.stdout) == len(snapshots) + 1
    assert "PASSED tests/test_ui.py::test_tool_ui[" in plain.stdout


def test_the_old_import_runs_the_same_cases_with_a_deprecation_warning(project: Path) -> None:
    (project / "tests" / "test_ui.py").write_text(FIXTURE_TEST)
    assert _pytest("--snapshot-update").returncode == 0
    snapshots = list(project.rglob("*.txt"))
    (project / "tests" / "test_ui.py").write_text(OLD_IMPORT_TEST)
    by_import = _pytest()
    assert by_import.returncode == 0, by_import.stdout + by_import.stderr
    assert _passed(by_import.stdout) == len(snapshots) + 1
    assert "DeprecationWarning" in by_import.stdout
    assert "tool_ui_snapshot` fixture" in by_import.stdout
