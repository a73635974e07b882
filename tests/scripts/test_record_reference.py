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


def test_the_recipes_are_the_variants_the_repo_keeps() -> None:
    # Every recorded fixture file lists exactly the recipes' variants, in their order.
    recipes = yaml.safe_load((REPO / "scripts" / "reference_recipes.yaml").read_text())
    for key, items in recipes["recipes"].items():
        tool, _, api = key.partition("/")
        kept = yaml.safe_load((REPO / "fixtures" / tool / f"{api}.yaml").read_text())
        assert [item["id"] for item in items] == [variant["id"] for variant in kept["variants"]]
        assert recipes["waivers"].get(key, []) == kept.get("waivers", [])


def test_a_broken_recipe_is_named_with_its_file_and_field(tmp_path: Path) -> None:
    broken = tmp_path / "recipes.yaml"
    broken.write_text(
        "recipes:\n  skills/activateSkill:\n    - id: x\n      label: X\n      kind: typical\n"
        "      args: {}\n      decison: skip\n"
    )
    unknown = tmp_path / "unknown.yaml"
    unknown.write_text(
        "recipes:\n  task/listTasks:\n    - id: x\n      label: X\n      kind: typical\n"
        "      args: {}\n      setup: seed_everything\n"
    )
    for path, expected in ((broken, "decison"), (unknown, "unknown setup 'seed_everything'")):
        done = subprocess.run(
            [sys.executable, str(REPO / "scripts" / "record_reference.py"), "--recipes", str(path)],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path,
        )
        assert done.returncode == 1
        assert str(path) in done.stderr and expected in done.stderr
        assert "Traceback" not in done.stderr
