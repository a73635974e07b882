"""Snapshot files and pytest's messages about them never carry hostile text raw.

``cat`` and ``git diff`` print a snapshot's ``.txt``; pytest prints its text when a snapshot
test fails. A fixture label, arguments or a result holding escapes, invisible characters or
a carriage return must reach neither as anything but visible marks.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.hostile import ALL_HOSTILE, raw_characters
from tests.testing.small_project import calculator_project, hostile_fixture
from workbench.cli import main


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    calculator_project(tmp_path, hostile_fixture())
    (tmp_path / "test_ui.py").write_text(
        "from workbench.testing.snapshots import test_tool_ui_snapshot  # noqa: F401\n"
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run_pytest(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--color=no", "-q", *args],
        cwd=project,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="surrogateescape",
        env={**os.environ, "WORKBENCH_NO_PLUGINS": "1", "COLUMNS": "120"},
        timeout=600,
        check=False,
    )


def snapshot_texts(project: Path) -> dict[str, str]:
    return {
        path.relative_to(project).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted((project / "snaps").rglob("*.txt"))
    }


def test_snapshot_files_and_failure_messages_show_hostile_text_inert(project: Path) -> None:
    run_pytest(project, "--snapshot-update", "-k", "not audit")
    texts = snapshot_texts(project)
    assert texts
    for name, text in texts.items():
        assert raw_characters(text) == [], name
        header = text.split("\n", 1)[0]
        # The label is on the header line, whole and visible: nothing forged a second line.
        assert "⟨U+200B⟩" in header and "␛]52;c;" in header and "#␍ls -la" in header, name
    approval = next(text for name, text in texts.items() if "/done-60-dark" in name)
    assert "ls -las" not in approval
    # A snapshot written by an older Workbench (raw escapes in the header), then changed.
    stale = project / next(name for name in texts if "/done-60-dark" in name)
    stale.write_text(
        f"# label {ALL_HOSTILE}\n" + texts[stale.relative_to(project).as_posix()] + "changed\n",
        encoding="utf-8",
    )
    failed = run_pytest(project, "-k", "done-60-dark", "--tb=long")
    output = failed.stdout + failed.stderr
    assert failed.returncode == 1, output
    assert "snapshot_text = " in output and "␛]52;c;" in output
    assert raw_characters(output) == []
    # The same through `workbench snapshot`, which prints the diff itself.
    result = CliRunner().invoke(main, ["snapshot"])
    assert result.exit_code == 1
    assert "FAILED calculator/calculate/hostile/done-60-dark" in result.output
    assert raw_characters(result.output) == []
