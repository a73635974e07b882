"""scripts/record_reference.py re-records bundled fixtures from real calls, outside the package."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml
from click.testing import CliRunner

from workbench.cli import main

REPO = Path(__file__).resolve().parents[2]


def test_recording_one_api_writes_the_fixture_file_the_repo_keeps(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "scripts" / "record_reference.py"),
            "--out",
            str(tmp_path),
            "--only",
            "skills/activateSkill",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    recorded = tmp_path / "skills" / "activateSkill.yaml"
    kept = REPO / "fixtures" / "skills" / "activateSkill.yaml"
    assert recorded.read_text().splitlines()[0] == kept.read_text().splitlines()[0]
    ids = [variant["id"] for variant in yaml.safe_load(recorded.read_text())["variants"]]
    assert ids == [variant["id"] for variant in yaml.safe_load(kept.read_text())["variants"]]
    result = CliRunner().invoke(main, ["check", str(recorded)])
    assert result.exit_code == 0, result.output
