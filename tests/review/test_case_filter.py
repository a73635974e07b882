"""The review queue's filter words."""

from __future__ import annotations

from pathlib import Path

from workbench.acceptance.build import build_board
from workbench.project import open_project
from workbench.review.case_filter import CaseFilter


def test_fields_statuses_alternatives_and_text_combine(reviewed_project: Path) -> None:
    board = build_board(open_project())
    assert len(board.items) == 20

    def found(text: str) -> set[str]:
        return {item.id for item in board.items if CaseFilter.parse(text).matches(item)}

    assert found("status:rejected") == {"calculator/calculate/hostile/failed-60-light"}
    assert found("status:to-review") == {
        f"calculator/calculate/add/done-{width}-{theme}"
        for width, theme in ((60, "dark"), (60, "light"), (100, "dark"), (100, "light"))
    }
    assert found("status:rejected,to-review") == found("status:rejected") | found(
        "status:to-review"
    )
    assert found("tool:calc phase:executing theme:light width:60") == {
        "calculator/calculate/add/executing-60-light",
        "calculator/calculate/hostile/executing-60-light",
    }
    assert found("hostile 100") == {
        "calculator/calculate/hostile/args-streaming-100-dark",
        "calculator/calculate/hostile/executing-100-dark",
        "calculator/calculate/hostile/failed-100-dark",
        "calculator/calculate/hostile/failed-100-light",
    }
    assert found("") == {item.id for item in board.items}


def test_unknown_fields_and_statuses_are_named() -> None:
    parsed = CaseFilter.parse("colour:red status:pending add")
    assert parsed.problems == (
        "no field 'colour' (fields: status, tool, api, variant, phase, theme, width, surface)",
        "no status 'pending' (to-review, changed, new, unchanged, accepted, rejected, outdated, "
        "unreviewed)",
    )
    assert parsed.words == ("add",)
