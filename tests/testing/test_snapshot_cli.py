"""``workbench snapshot`` and ``workbench coverage`` on a small project of its own."""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.testing.small_project import FIXTURE, calculator_project
from workbench.cli import main


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    calculator_project(tmp_path)
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
    # The review report: a page, and each picture a file beside it.
    assert 'data-tags="changed to-review unreviewed"' in page
    assert "committed snapshot (expected)" in page and "drawn now (actual)" in page
    assert 'src="report_files/calculator/calculate/add/done-60-dark.committed.svg"' in page
    assert "data:image" not in page
    images = project / "report_files" / "calculator" / "calculate" / "add"
    assert (images / "done-60-dark.committed.svg").read_text() != (
        images / "done-60-dark.svg"
    ).read_text()


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


def _not_snapshots(project: Path) -> list[Path]:
    """A README, notes and a mock-up kept beside the snapshots, and a stray case file."""
    snaps = project / "snaps"
    kept = [
        snaps / "README.txt",
        snaps / "calculator" / "notes.txt",
        snaps / "calculator" / "calculate" / "add" / "mock-up.svg",
    ]
    for path in kept:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("written by a person\n")
    return kept


def _stray(project: Path) -> Path:
    stray = project / "snaps" / "calculator" / "calculate" / "gone" / "done-60-dark.txt"
    stray.parent.mkdir(parents=True, exist_ok=True)
    stray.write_text("old")
    return stray


def test_update_deletes_only_files_named_like_cases_and_names_them(project: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["snapshot", "--update"]).exit_code == 0
    kept, stray = _not_snapshots(project), _stray(project)
    checked = runner.invoke(main, ["snapshot"])
    assert checked.exit_code == 1 and checked.output.count("UNUSED") == 1
    update = runner.invoke(main, ["snapshot", "--update"])
    assert update.exit_code == 0, update.output
    assert f"DELETED {stray}" in update.output and "1 deleted" in update.output
    assert not stray.exists()
    assert all(path.read_text() == "written by a person\n" for path in kept)


def test_pytest_snapshot_update_prunes_as_the_cli_does(project: Path) -> None:
    (project / "tests").mkdir()
    (project / "tests" / "test_ui.py").write_text(
        "from workbench.api import test_tool_ui_snapshot  # noqa: F401\n"
    )
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]
    first = subprocess.run(
        [*command, "--snapshot-update"], capture_output=True, text=True, timeout=300, check=False
    )
    assert first.returncode == 0, first.stdout + first.stderr
    kept, stray = _not_snapshots(project), _stray(project)
    update = subprocess.run(
        [*command, "--snapshot-update"], capture_output=True, text=True, timeout=300, check=False
    )
    assert update.returncode == 0, update.stdout + update.stderr
    assert not stray.exists(), update.stdout
    assert "deleted 1 unused snapshot file" in update.stdout and str(stray) in update.stdout
    assert all(path.read_text() == "written by a person\n" for path in kept)
    # A plain run (no update) passes: nothing it needs went.
    plain = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert plain.returncode == 0, plain.stdout + plain.stderr


def _case_files(snaps: Path) -> dict[str, bytes]:
    return {
        path.relative_to(snaps).as_posix(): path.read_bytes()
        for path in sorted(snaps.rglob("*"))
        if path.suffix in (".txt", ".svg")
    }


def test_pytest_the_cli_and_accepting_in_review_write_the_same_files(project: Path) -> None:
    (project / "tests").mkdir()
    (project / "tests" / "test_ui.py").write_text(
        "from workbench.api import test_tool_ui_snapshot  # noqa: F401\n"
    )
    snaps = project / "snaps"
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]
    pytest_run = subprocess.run(
        [*command, "-k", "not audit", "--snapshot-update"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert pytest_run.returncode == 0, pytest_run.stdout + pytest_run.stderr
    by_pytest = _case_files(snaps)
    shutil.rmtree(snaps)
    runner = CliRunner()
    assert runner.invoke(main, ["snapshot", "--update"]).exit_code == 0
    by_snapshot = _case_files(snaps)
    shutil.rmtree(snaps)
    accepted = runner.invoke(
        main, ["review", "--accept-all", "--note", "first baseline", "--reviewer", "ci"]
    )
    assert accepted.exit_code == 0, accepted.output
    by_review = _case_files(snaps)
    assert len(by_pytest) >= 20 and "calculator/calculate/add/done-60-dark.svg" in by_pytest
    assert by_pytest == by_snapshot == by_review


def test_a_filtered_run_calls_nothing_outside_the_filter_unused(project: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["snapshot", "--update"]).exit_code == 0
    result = runner.invoke(main, ["snapshot", "-k", "done-60"])
    assert result.exit_code == 0, result.output
    assert "2 snapshots" in result.output and "0 unused" in result.output
    # -k with --update rewrites and prunes only within the filter.
    stray = project / "snaps" / "calculator" / "calculate" / "gone" / "done-60-dark.txt"
    stray.parent.mkdir(parents=True)
    stray.write_text("old")
    assert "UNUSED" not in runner.invoke(main, ["snapshot", "-k", "add/done"]).output
    filtered = runner.invoke(main, ["snapshot", "-k", "done-60", "--update"])
    assert filtered.exit_code == 0 and "1 deleted" in filtered.output
    assert not stray.exists()
    assert runner.invoke(main, ["snapshot", "-k", "nothing-like-this"]).exit_code == 2


def test_progress_is_plain_lines_in_a_log_and_a_bar_on_a_terminal(project: Path) -> None:
    piped = subprocess.run(
        [sys.executable, "-m", "workbench", "snapshot", "--update"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert piped.returncode == 0, piped.stderr
    assert "\r" not in piped.stderr
    lines = piped.stderr.splitlines()
    assert len(lines) == 10
    for done, line in enumerate(lines, start=1):
        assert re.fullmatch(rf"snapshots: {done}/10 \({done * 10}%\) \d+\.\d s", line), line
    screen = run_in_terminal([sys.executable, "-m", "workbench", "snapshot"], columns=80)
    # The bar is redrawn in place and fits the terminal: one line, no trail.
    [bar] = [line for line in screen.splitlines() if line.startswith("snapshots  [")]
    assert bar.startswith("snapshots  [##############################]  10/10  …")
    assert len(bar) <= 80
    assert "10 snapshots in" in screen


def run_in_terminal(command: list[str], *, columns: int = 100, rows: int = 30) -> str:
    """What a terminal shows after ``command`` ran in it (a pseudo-terminal read by pyte)."""
    import fcntl
    import pty
    import struct
    import termios

    import pyte

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    environment = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(columns)}
    process = subprocess.Popen(
        command, stdin=follower, stdout=follower, stderr=follower, env=environment
    )
    os.close(follower)
    screen = pyte.Screen(columns, rows)
    stream = pyte.ByteStream(screen)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            stream.feed(chunk)
        elif process.poll() is not None:
            break
    process.wait(timeout=10)
    os.close(leader)
    return "\n".join(line.rstrip() for line in screen.display)


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


def test_the_coverage_table_says_what_its_letters_mean(project: Path) -> None:
    result = CliRunner().invoke(main, ["coverage"])
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert "IP·R··" in text
    assert (
        "surfaces: I Inspector · P Placeholder · S Streaming · R Render · V Intervention · "
        "O Portal "
        "(a letter: the tool's own; ·: the generic fallback)"
    ) in text
    assert "kinds: typ typical · emp empty · err error · trunc truncated · load loading" in text
    assert text.endswith("1 API, 2 gaps")


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
