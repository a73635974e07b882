"""The CI gate over a review board: which cases fail it and why, as text, JSON and JUnit XML.

A case fails when it is rejected, or when it is changed or new (against the committed
snapshot, or against the picture last reviewed) and nobody accepted what it draws now; a new
case of an observed recording (see :mod:`workbench.coverage`) fails only once someone decided
about it or accepted it (then a change fails as any other). With
``require_review`` a case nobody ever reviewed fails too. A review file line that cannot be
read fails the gate as well: it may have held a rejection.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from xml.etree import ElementTree

from workbench.core.sanitize import clean, safe_json
from workbench.review.board import ReviewBoard, ReviewItem
from workbench.review.decisions import Decision
from workbench.review.diff import unified_text

MAX_LOGGED_DIFFS = 20
"""Failing cases whose diff goes into the text output; the rest are listed by id."""
MAX_LOGGED_DIFF_LINES = 40


@dataclass(frozen=True)
class GateResult:
    board: ReviewBoard
    failures: list[tuple[ReviewItem, str]]
    require_review: bool = False

    @property
    def ok(self) -> bool:
        return not self.failures and not self.board.file_errors


def run_gate(board: ReviewBoard, *, require_review: bool = False) -> GateResult:
    return GateResult(board, board.failures(require_review=require_review), require_review)


def summary(board: ReviewBoard) -> str:
    counts = board.counts()
    return (
        f"{counts['cases']} cases: {counts['changed']} changed, {counts['new']} new, "
        f"{counts['unchanged']} unchanged · {counts['accepted']} accepted, "
        f"{counts['rejected']} rejected, {counts['outdated']} changed since reviewed, "
        f"{counts['unreviewed']} never reviewed"
    )


def format_text(result: GateResult) -> list[str]:
    """What ``workbench review --check`` prints: one line per failing case (with its diff for
    the first few), the review file's problems, stale decisions, and a summary."""
    lines: list[str] = []
    for index, (item, reason) in enumerate(result.failures):
        lines.append(f"FAIL {item.id}: {reason}")
        if index < MAX_LOGGED_DIFFS and item.snapshot != "unchanged" and item.text_changed:
            diff = unified_text(item.committed_text, item.fresh.text, limit=MAX_LOGGED_DIFF_LINES)
            lines.extend(f"    {line}" for line in diff.splitlines())
    board = result.board
    lines.extend(problem.format() for problem in board.review_file.problems)
    lines.extend(stale_line(board, decision) for decision in board.stale)
    observed = board.observed_new()
    if observed:
        lines.append(
            f"{observed} new case(s) of recordings of tools with no surfaces of their own are "
            "not gated until accepted (see `recordings/` in the README)"
        )
    verdict = "the review gate passes" if result.ok else "the review gate fails"
    failing = len(result.failures) + len(board.file_errors)
    lines.append(f"{summary(board)} — {verdict}" + (f" ({failing} failing)" if failing else ""))
    return lines


def stale_line(board: ReviewBoard, decision: Decision) -> str:
    where = f"{board.review_file.display_path}:{decision.line}" if decision.line else "reviews"
    return (
        f"{where}: stale: {decision.case_id} is not a case any more (renamed or removed); "
        "`workbench review --prune` drops its decision"
    )


def case_json(item: ReviewItem, reason: str | None) -> dict[str, Any]:
    decision = item.decision
    return {
        "id": item.id,
        "tool": item.key.tool,
        "api": item.key.api,
        "variant": item.key.variant,
        "phase": item.key.phase,
        "width": item.key.width,
        "theme": item.key.theme,
        "surface": item.key.surface,
        "snapshot": item.snapshot,
        "textChanged": item.snapshot != "unchanged" and item.text_changed,
        "review": item.review,
        "hash": item.fresh.hash,
        "decision": (
            {
                "status": decision.status,
                "hash": decision.hash,
                "reviewer": decision.reviewer,
                "at": decision.at,
                "note": decision.note,
            }
            if decision is not None
            else None
        ),
        "gate": "fail" if reason else "pass",
        "reason": reason,
    }


def to_json(result: GateResult) -> dict[str, Any]:
    board = result.board
    reasons = {item.id: reason for item, reason in result.failures}
    return {
        "ok": result.ok,
        "reviewFile": board.review_file.display_path,
        "requireReview": result.require_review,
        "counts": board.counts(),
        "failing": len(result.failures),
        "cases": [case_json(item, reasons.get(item.id)) for item in board.items],
        "stale": [
            {"id": decision.case_id, "line": decision.line, "status": decision.status}
            for decision in board.stale
        ],
        "problems": [problem.to_json() for problem in board.review_file.problems],
    }


def format_json(result: GateResult) -> str:
    return safe_json(to_json(result), indent=2)


def format_junit(result: GateResult) -> str:
    """One test per case, one suite per tool and API; the review file is a test of its own."""
    board = result.board
    reasons = {item.id: reason for item, reason in result.failures}
    root = ElementTree.Element("testsuites", name="workbench-review")
    suites: dict[str, ElementTree.Element] = {}
    for item in board.items:
        name = f"{item.key.tool}/{item.key.api}"
        suite = suites.get(name)
        if suite is None:
            suite = suites[name] = ElementTree.SubElement(root, "testsuite", name=name)
        case = ElementTree.SubElement(
            suite,
            "testcase",
            classname=f"{item.key.tool}.{item.key.api}.{item.key.variant}",
            name=item.key.name,
        )
        properties = ElementTree.SubElement(case, "properties")
        for key, value in (
            ("snapshot", item.snapshot),
            ("review", item.review),
            ("hash", item.fresh.hash),
        ):
            ElementTree.SubElement(properties, "property", name=key, value=value)
        reason = reasons.get(item.id)
        if reason is not None:
            failure = ElementTree.SubElement(
                case, "failure", message=clean(reason), type=f"review-{item.review}"
            )
            if item.snapshot != "unchanged" and item.text_changed:
                failure.text = clean(unified_text(item.committed_text, item.fresh.text))
    problems = board.review_file.problems
    file_suite = ElementTree.SubElement(root, "testsuite", name="review-file")
    file_case = ElementTree.SubElement(
        file_suite, "testcase", classname="review-file", name=board.review_file.display_path
    )
    errors = board.file_errors
    if errors:
        failure = ElementTree.SubElement(
            file_case,
            "failure",
            message=f"{len(errors)} line(s) are not decisions",
            type="review-file",
        )
        failure.text = "\n".join(errors)
    notes = [problem.format() for problem in problems if problem.severity != "error"]
    notes += [stale_line(board, decision) for decision in board.stale]
    if notes:
        ElementTree.SubElement(file_case, "system-out").text = clean("\n".join(notes))
    for suite in root:
        cases = suite.findall("testcase")
        suite.set("tests", str(len(cases)))
        suite.set("failures", str(sum(1 for case in cases if case.find("failure") is not None)))
    root.set("tests", str(sum(int(suite.get("tests", "0")) for suite in root)))
    root.set("failures", str(sum(int(suite.get("failures", "0")) for suite in root)))
    ElementTree.indent(root)
    return ElementTree.tostring(root, encoding="unicode", xml_declaration=True)
