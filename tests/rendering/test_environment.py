"""Snapshots are the same whatever the environment says about colour, terminal, size, theme or
animation: the snapshot suite (a sample with ANSI colour, both themes, cards and Portals, and
every whole-app snapshot) passes in fresh processes under hostile environments, and review
hashes do not move."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLE = "escape-sequences and (portal or done-60 or executing-100)"
"""Cards and Portals, dark and light, with a tool's own ANSI colours (mapped through the
terminal theme) in them."""
REVIEW_SAMPLE = "runCommand/escape-sequences/"

HOSTILE: dict[str, dict[str, str]] = {
    "no-color": {
        "NO_COLOR": "1",
        "TERM": "dumb",
        "COLUMNS": "40",
        "LINES": "10",
        "TEXTUAL_FILTERS": "dim",
        "TEXTUAL_DIM_FACTOR": "10",
        "TTY_COMPATIBLE": "0",
        "TTY_INTERACTIVE": "0",
    },
    "force-color": {
        "FORCE_COLOR": "1",
        "CLICOLOR_FORCE": "1",
        "TERM": "xterm-256color",
        "COLORTERM": "truecolor",
        "COLUMNS": "300",
        "LINES": "200",
        "TEXTUAL_THEME": "textual-light",
        "TEXTUAL_COLOR_SYSTEM": "standard",
        "TEXTUAL_ANIMATIONS": "full",
        "TEXTUAL_FPS": "5",
        "TEXTUAL_SPEEDUPS": "0",
    },
}


def environment(extra: dict[str, str]) -> dict[str, str]:
    base = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("TEXTUAL", "PYTEST_XDIST", "PYTEST_CURRENT"))
        and key not in ("NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES", "TERM", "COLORTERM")
    }
    return {**base, **extra}


def run(command: list[str], extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command,
        cwd=REPO,
        env=environment(extra),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_the_snapshot_suite_passes_under_a_hostile_environment(name: str) -> None:
    result = run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests/snapshots",
            "-q",
            "-p",
            "no:cacheprovider",
            "--color=no",
            "-n",
            "0",
            "-k",
            SAMPLE,
        ],
        HOSTILE[name],
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    # Five tests, each a text and an SVG snapshot: all the same as committed.
    assert "10 snapshots passed" in result.stdout and "5 passed" in result.stdout, result.stdout


APP_HOSTILE = {
    **HOSTILE,
    "no-color-only": {"NO_COLOR": "1"},
    "dumb-terminal": {"TERM": "dumb", "COLUMNS": "20", "LINES": "5"},
}
"""The whole app, besides: each setting alone as well as mixed, as a user has them."""


@pytest.mark.slow
@pytest.mark.timeout(400)
@pytest.mark.parametrize("name", sorted(APP_HOSTILE))
def test_the_whole_app_snapshots_pass_under_a_hostile_environment(name: str) -> None:
    result = run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests/snapshots/test_app.py",
            # Two cases cover it (each environment once is 80 s for all eight): the first
            # screen and an approval, both whole-app pictures with every colour role.
            "-k",
            "first-screen-80x24 or approval-80x24",
            "-q",
            "-p",
            "no:cacheprovider",
            "--color=no",
            "-n",
            "0",
        ],
        APP_HOSTILE[name],
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    # Every case ran and matched: as many snapshots passed as the file has (two per case).
    ran = re.search(r"(\d+) passed", result.stdout.rsplit("snapshot report summary", 1)[-1])
    matched = re.search(r"(\d+) snapshots passed", result.stdout)
    assert ran and matched and int(matched.group(1)) == 2 * int(ran.group(1)), result.stdout
    assert "failed" not in result.stdout and int(ran.group(1)) == 2, result.stdout


@pytest.mark.slow
def test_review_hashes_do_not_depend_on_the_environment() -> None:
    def hashes(extra: dict[str, str]) -> dict[str, str]:
        result = run(
            [
                sys.executable,
                "-m",
                "workbench",
                "review",
                "--check",
                "--format",
                "json",
                "-k",
                REVIEW_SAMPLE,
            ],
            extra,
        )
        assert result.returncode in (0, 1), result.stderr
        return {case["id"]: case["hash"] for case in json.loads(result.stdout)["cases"]}

    plain = hashes({})
    assert len(plain) == 28  # 18 cards and Portals, and two host views for each of five hosts
    for name, extra in HOSTILE.items():
        assert hashes(extra) == plain, name
