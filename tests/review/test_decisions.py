"""The review file: one readable line per decision, every bad line located and kept, merges
of two branches that never conflict."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.review.decisions import (
    Decision,
    make_decision,
    read_review_file,
    record_decisions,
    reviewer_name,
)

CASE = "calculator/calculate/add/done-60-dark"


def decision(case_id: str = CASE, **changes: str) -> Decision:
    values = {
        "status": "accepted",
        "hash": "0123456789abcdef",
        "reviewer": "Ann Lee",
        "at": "2026-12-01T09:22:51Z",
        "note": "reads well",
    }
    values.update(changes)
    return Decision(case_id, **values)  # type: ignore[arg-type]


def test_decisions_are_one_sorted_line_each_and_the_file_is_yaml(tmp_path: Path) -> None:
    path = tmp_path / "reviews.yaml"
    record_decisions(path, [decision("b/api/v/done-60-dark"), decision("a/api/v/done-60-dark")])
    lines = [line for line in path.read_text().splitlines() if not line.startswith("#")]
    assert lines == [
        "a/api/v/done-60-dark: {status: accepted, hash: 0123456789abcdef, reviewer: Ann Lee, "
        "at: '2026-12-01T09:22:51Z', note: reads well}",
        "b/api/v/done-60-dark: {status: accepted, hash: 0123456789abcdef, reviewer: Ann Lee, "
        "at: '2026-12-01T09:22:51Z', note: reads well}",
    ]
    assert set(yaml.safe_load(path.read_text())) == {"a/api/v/done-60-dark", "b/api/v/done-60-dark"}
    review = read_review_file(path)
    assert not review.problems
    assert review.decision_for("a/api/v/done-60-dark") == decision(
        "a/api/v/done-60-dark"
    ).__class__(
        "a/api/v/done-60-dark",
        "accepted",
        "0123456789abcdef",
        "Ann Lee",
        "2026-12-01T09:22:51Z",
        "reads well",
        line=5,
    )


@settings(max_examples=200, deadline=None)
@given(note=st.text(max_size=300), reviewer=st.text(min_size=1, max_size=40))
def test_any_note_and_name_round_trip_on_one_line(
    note: str, reviewer: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = tmp_path_factory.mktemp("notes") / "reviews.yaml"
    made = make_decision(CASE, "rejected", "fedcba9876543210", reviewer, note)
    record_decisions(path, [made])
    body = [
        line for line in path.read_text(encoding="utf-8").split("\n") if line and line[0] != "#"
    ]
    assert len(body) == 1
    review = read_review_file(path)
    assert not review.problems, review.problems
    found = review.decision_for(CASE)
    assert found is not None
    assert (found.note, found.reviewer, found.status) == (made.note, made.reviewer, "rejected")


def test_a_bad_line_is_reported_at_its_line_and_kept_and_the_rest_loads(tmp_path: Path) -> None:
    path = tmp_path / "reviews.yaml"
    good = decision().to_line()
    path.write_text(
        "\n".join(
            [
                "# comment",
                good,
                "calculator/calculate/add/done-100-dark: {status: maybe, hash: 0123456789abcdef, "
                "reviewer: X, at: '2026-12-01T09:22:51Z'}",
                "<<<<<<< HEAD",
                "not a case: {status: accepted}",
                "calculator/calculate/add/failed-60-dark: {status: accepted, hash: 12, "
                "reviewer: X, at: '2026-12-01T09:22:51Z'}",
                "calculator/calculate/add/done-60-light: {status: accepted, hash: 0123456789abcdef,"
                " reviewer: X, at: yesterday}",
                "calculator/calculate/add/executing-60-light: {status: accepted, hash: "
                "0123456789abcdef, reviewer: X, at: '2026-12-01T09:22:51Z', colour: red}",
                "",
            ]
        )
    )
    review = read_review_file(path)
    assert [decision.case_id for decision in review] == [CASE]
    located = [(problem.line, problem.field, problem.message) for problem in review.problems]
    assert located == [
        (
            3,
            "calculator/calculate/add/done-100-dark.status",
            "status must be accepted or rejected, not 'maybe'",
        ),
        (4, "", "not a decision line: expected `CASE-ID: {status: ..., hash: ..., ...}`"),
        (
            5,
            "",
            "'not a case' is not a case id (tool/api/variant/phase-width-theme, as in snapshots/)",
        ),
        (6, "calculator/calculate/add/failed-60-dark.hash", "hash must be 16 lowercase hex digits"),
        (
            7,
            "calculator/calculate/add/done-60-light.at",
            "at must be a UTC time like '2026-12-01T09:22:51Z'",
        ),
        (
            8,
            "calculator/calculate/add/executing-60-light",
            "unknown field 'colour' (fields: status, hash, reviewer, at, note)",
        ),
    ]
    assert review.problems[0].format().startswith(f"{review.display_path}:3: ")
    # A new decision rewrites the file: the unreadable lines are still there, word for word.
    record_decisions(path, [decision("calculator/calculate/add/done-100-light")])
    text = path.read_text()
    assert "<<<<<<< HEAD" in text and "colour: red" in text and "at: yesterday" in text
    again = read_review_file(path)
    assert len(again.problems) == 6 and len(list(again)) == 2


def test_two_decisions_about_one_case_prefer_the_current_picture_then_the_newest(
    tmp_path: Path,
) -> None:
    path = tmp_path / "reviews.yaml"
    older = decision(hash="aaaaaaaaaaaaaaaa", at="2026-01-01T00:00:00Z", status="accepted")
    newer = decision(hash="bbbbbbbbbbbbbbbb", at="2026-02-01T00:00:00Z", status="rejected")
    path.write_text(f"{older.to_line()}\n{newer.to_line()}\n")
    review = read_review_file(path)
    [warning] = review.problems
    assert warning.severity == "warning" and "2 decisions for" in warning.message
    assert review.decision_for(CASE, "aaaaaaaaaaaaaaaa").status == "accepted"  # type: ignore[union-attr]
    assert review.decision_for(CASE, "cccccccccccccccc").status == "rejected"  # type: ignore[union-attr]
    record_decisions(path, [decision(hash="cccccccccccccccc")])
    assert len(read_review_file(path).decisions[CASE]) == 1


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=T", "-c", "user.email=t@example.com", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def test_two_branches_reviewing_neighbouring_and_same_cases_merge_without_conflict(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    # The line the project's .gitattributes carries for its review file.
    (repo / ".gitattributes").write_text("reviews.yaml merge=union\n")
    path = repo / "reviews.yaml"
    record_decisions(path, [decision("t/a/v/done-60-dark"), decision("t/a/v/done-60-light")])
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "base")
    git(repo, "checkout", "-qb", "one")
    record_decisions(
        path,
        [
            decision("t/a/v/done-100-dark"),
            decision("t/a/v/done-60-light", hash="1111111111111111", at="2026-12-02T00:00:00Z"),
        ],
    )
    git(repo, "commit", "-qam", "one")
    git(repo, "checkout", "-q", "main")
    record_decisions(
        path,
        [
            decision("t/a/v/done-100-light"),
            decision("t/a/v/done-60-light", hash="2222222222222222", at="2026-12-03T00:00:00Z"),
        ],
    )
    git(repo, "commit", "-qam", "two")
    git(repo, "merge", "-q", "one", "-m", "merge")  # raises on a conflict
    review = read_review_file(path)
    assert "<<<<" not in path.read_text()
    assert {d.case_id for d in review} == {
        "t/a/v/done-60-dark",
        "t/a/v/done-60-light",
        "t/a/v/done-100-dark",
        "t/a/v/done-100-light",
    }
    # Both branches' decisions about the same case survive; the one about what the case draws
    # now applies.
    assert review.decision_for("t/a/v/done-60-light", "1111111111111111").hash == "1111111111111111"  # type: ignore[union-attr]
    assert [problem.code for problem in review.problems] == ["duplicate"]


def test_the_reviewer_is_the_option_then_the_environment_then_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    git(tmp_path, "init", "-q")
    git(tmp_path, "config", "user.name", "Grace  Hopper")
    monkeypatch.delenv("WORKBENCH_REVIEWER", raising=False)
    assert reviewer_name(tmp_path) == "Grace Hopper"
    monkeypatch.setenv("WORKBENCH_REVIEWER", "CI bot")
    assert reviewer_name(tmp_path) == "CI bot"
    assert reviewer_name(tmp_path, "Ann") == "Ann"


def test_the_repository_merges_its_review_file_with_the_union_driver() -> None:
    attributes = Path(__file__).resolve().parents[2] / ".gitattributes"
    assert "snapshots/reviews.yaml merge=union" in attributes.read_text().splitlines()
