"""The pytest plugin passes a case whose inputs and snapshot files did not change since they
matched on a stat, as ``workbench snapshot`` does: syrupy still counts its files as used (none
is reported unused or deleted), and an edited file is compared again and fails."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.testing.small_project import calculator_project

# Files of this test are seconds old: trust them as if older than the racy window.
CONFTEST = "import workbench.rendering.cache as cache\n\ncache.RACY_WINDOW_NS = 0\n"
TEST = "def test_tool_ui(tool_ui_snapshot):\n    tool_ui_snapshot()\n"

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def test_unchanged_cases_pass_on_a_stat_and_their_files_stay_used(tmp_path: Path) -> None:
    project = calculator_project(tmp_path, tests=True)
    (project / "tests" / "conftest.py").write_text(CONFTEST)
    (project / "tests" / "test_ui.py").write_text(TEST)
    # Not this run's xdist worker either: syrupy prints no report in a worker.
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("WORKBENCH", "PYTEST_XDIST"))
    }
    env["WORKBENCH_CACHE_DIR"] = str(tmp_path / "cache")

    def pytest_run(*arguments: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p"]
        return subprocess.run(
            [*command, "no:xdist", "tests", *arguments],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )

    assert pytest_run("--snapshot-update").returncode == 0
    files = sorted(project.glob("snaps/**/*.*"))
    cases = len(files) // 2
    compared = pytest_run()
    assert compared.returncode == 0, compared.stdout
    assert "unchanged snapshot files" not in compared.stdout

    for arguments in ((), ("--snapshot-update",)):
        warm = pytest_run(*arguments)
        assert warm.returncode == 0, warm.stdout
        assert f"reused ({cases} on unchanged snapshot files), 0 drawn" in warm.stdout
        assert f"{len(files)} snapshots passed" in warm.stdout
        assert "unused" not in warm.stdout and "deleted" not in warm.stdout
        assert sorted(project.glob("snaps/**/*.*")) == files

    text = project / "snaps" / "calculator" / "calculate" / "add" / "done-60-dark.txt"
    before = text.stat()
    content = text.read_text(encoding="utf-8")
    edited = content.replace("=", "#", 1)
    assert len(edited) == len(content) != 0 and edited != content
    text.write_text(edited, encoding="utf-8")
    os.utime(text, ns=(before.st_atime_ns, before.st_mtime_ns))
    changed = pytest_run()
    assert changed.returncode == 1
    assert re.search(r"\b1 failed\b", changed.stdout), changed.stdout
    assert "done-60-dark" in changed.stdout
    assert f"({cases - 1} on unchanged snapshot files)" in changed.stdout
