"""``workbench review`` as CI and a maintainer use it: the gate, JUnit and JSON, a first
baseline, stale and broken decisions, on a small project of its own."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner

from tests.testing.small_project import FIXTURE, calculator_project
from workbench.cli import main
from workbench.review.decisions import make_decision, read_review_file, record_decisions

CASES = 10
"""3 phases at 60 and 100 columns dark, 3 at 60 light, the ending at 100 light."""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    calculator_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WORKBENCH_REVIEWER", "Ann Lee")
    return tmp_path


def review(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["review", *args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def check_json(*args: str) -> dict[str, object]:
    code, out, _ = review("--check", "--format", "json", *args)
    data = json.loads(out)
    assert (code == 0) == data["ok"]
    return data


def test_a_new_project_fails_the_gate_until_a_baseline_is_accepted(project: Path) -> None:
    code, out, err = review("--check")
    assert code == 1
    assert "FAIL calculator/calculate/add/done-60-dark: new and not accepted" in out
    assert out.splitlines()[-1].endswith("the review gate fails (10 failing)")
    # Plain progress on a pipe: a line per tenth, no carriage returns.
    assert "\r" not in err and "review: drawing cases: 10/10 (100%)" in err

    assert review("--accept-all")[0] == 2  # a bulk acceptance says why
    code, out, err = review("--accept-all", "--note", "first baseline")
    assert code == 0
    assert f"accepted {CASES} case(s) as Ann Lee ({CASES} snapshot(s) written)" in out
    assert (project / "snaps/calculator/calculate/add/done-60-dark.svg").is_file()
    decisions = list(read_review_file(project / "snaps" / "reviews.yaml"))
    assert len(decisions) == CASES
    assert {(d.status, d.reviewer, d.note) for d in decisions} == {
        ("accepted", "Ann Lee", "first baseline")
    }

    data = check_json()
    assert data["counts"] == {
        "unchanged": CASES,
        "changed": 0,
        "new": 0,
        "accepted": CASES,
        "rejected": 0,
        "outdated": 0,
        "unreviewed": 0,
        "cases": CASES,
        "to review": 0,
    }
    case = data["cases"][0]  # type: ignore[index]
    assert case["gate"] == "pass" and case["decision"]["reviewer"] == "Ann Lee"
    assert set(case) >= {"id", "tool", "api", "variant", "phase", "width", "theme", "hash"}


def test_accepted_snapshots_and_the_review_file_get_the_umask_default_mode(
    project: Path,
) -> None:
    previous = os.umask(0o022)
    try:
        assert review("--accept-all", "--note", "baseline")[0] == 0
    finally:
        os.umask(previous)
    snaps = project / "snaps"
    written = [*snaps.rglob("*.txt"), *snaps.rglob("*.svg"), snaps / "reviews.yaml"]
    assert len(written) == 2 * CASES + 1
    assert {stat.S_IMODE(path.stat().st_mode) for path in written} == {0o644}


def test_a_change_fails_the_gate_even_after_the_snapshots_are_rewritten(project: Path) -> None:
    review("--accept-all", "--note", "baseline")
    (project / "fixtures" / "calc.yaml").write_text(FIXTURE.replace('value: "2"', 'value: "3"'))
    junit = project / "out" / "review.xml"
    code, out, _ = review("--check", "--junit", str(junit))
    assert code == 1
    assert "FAIL calculator/calculate/add/done-60-dark: changed (text) and not accepted" in out
    assert "    -│ = 2" in out and "    +│ = 3" in out
    # Rewriting the snapshots does not make the change reviewed: the decision was about the
    # earlier picture.
    assert CliRunner().invoke(main, ["snapshot", "--update"]).exit_code == 0
    data = check_json()
    failing = {case["id"]: case["reason"] for case in data["cases"] if case["gate"] == "fail"}  # type: ignore[union-attr]
    assert len(failing) == 4  # the ending at 60/100 dark, 60/100 light
    assert failing["calculator/calculate/add/done-100-light"].startswith(
        "changed since Ann Lee accepted it ("
    )
    suites = ElementTree.parse(junit).getroot()
    assert suites.get("tests") == str(CASES + 1) and suites.get("failures") == "4"
    [failure] = suites.findall(".//testcase[@name='done-60-dark']/failure")
    assert failure.get("message") == "changed (text) and not accepted"
    assert "+│ = 3" in (failure.text or "")
    assert review("--accept-all", "--note", "3 is right")[0] == 0
    assert check_json()["ok"] is True


def test_a_rejection_fails_the_gate_with_its_note(project: Path) -> None:
    review("--accept-all", "--note", "baseline")
    data = check_json()
    case = next(case for case in data["cases"] if case["id"].endswith("done-60-light"))  # type: ignore[union-attr]
    record_decisions(
        project / "snaps" / "reviews.yaml",
        [make_decision(case["id"], "rejected", case["hash"], "Bo", "the result is grey")],
    )
    code, out, _ = review("--check")
    assert code == 1
    assert "FAIL calculator/calculate/add/done-60-light: rejected by Bo: the result is grey" in out
    # --accept-all does not overrule a person's rejection.
    code, out, _ = review("--accept-all", "--note", "again")
    assert "1 rejected case(s) left as they are" in out
    assert review("--check")[0] == 1


def test_a_broken_line_fails_the_gate_at_its_line_and_loses_nothing_else(project: Path) -> None:
    review("--accept-all", "--note", "baseline")
    path = project / "snaps" / "reviews.yaml"
    lines = path.read_text().splitlines()
    lines.insert(6, "calculator/calculate/add/done-60-dark {status: accepted")
    path.write_text("\n".join(lines) + "\n")
    code, out, _ = review("--check")
    assert code == 1
    assert "snaps/reviews.yaml:7: " in out and "is not a case id" in out
    data = check_json()
    assert data["counts"]["accepted"] == CASES  # type: ignore[index]
    assert [problem["line"] for problem in data["problems"]] == [7]  # type: ignore[union-attr]


def test_stale_decisions_are_reported_and_pruned_on_request(project: Path) -> None:
    review("--accept-all", "--note", "baseline")
    path = project / "snaps" / "reviews.yaml"
    record_decisions(
        path,
        [make_decision("calculator/calculate/gone/done-60-dark", "accepted", "0" * 16, "Ann")],
    )
    code, out, _ = review("--check")
    assert code == 0
    assert "stale: calculator/calculate/gone/done-60-dark is not a case any more" in out
    assert [item["id"] for item in check_json()["stale"]] == [  # type: ignore[union-attr]
        "calculator/calculate/gone/done-60-dark"
    ]
    code, out, _ = review("--prune")
    assert code == 0 and "pruned 1 stale decision(s)" in out
    assert "gone" not in path.read_text()


def test_k_narrows_a_baseline_and_require_review_fails_on_never_reviewed(project: Path) -> None:
    assert CliRunner().invoke(main, ["snapshot", "--update"]).exit_code == 0
    # Unchanged and never reviewed: passes, unless every case must have been reviewed.
    assert review("--check")[0] == 0
    assert review("--check", "--require-review")[0] == 1
    code, out, _ = review("--accept-all", "-k", "done-60", "--note", "endings at 60")
    assert code == 0 and "accepted 2 case(s)" in out
    data = check_json("--require-review")
    assert data["counts"]["accepted"] == 2 and data["failing"] == CASES - 2  # type: ignore[index]
    assert review("--check", "-k", "done-60", "--require-review")[0] == 0
    assert review("--check", "-k", "no-such-case")[0] == 2


def test_usage_errors_say_what_goes_with_what(project: Path) -> None:
    assert review("--note", "x")[0] == 2
    assert review("--format", "json")[0] == 2
    code, _, err = review("--report", "out.pdf")
    assert code == 2 and "must end in .html or .md" in err
