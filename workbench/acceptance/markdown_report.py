"""The review report as Markdown, for a pull request comment: the counts, a table per tool and
API, and each case that needs a person (to review, rejected) with its text diff.

Pull request comments are capped (GitHub: 65,536 characters), so the report stops adding
cases before :data:`MAX_CHARS` and says how many it showed.
"""

from __future__ import annotations

import re
from pathlib import Path

from workbench.acceptance.gate import run_gate, summary
from workbench.core.sanitize import clean
from workbench.review.board import ReviewBoard, ReviewItem, queue_order
from workbench.review.diff import unified_text

MAX_CHARS = 60_000
MAX_DIFF_LINES = 60
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|~])")


def _inline(text: object) -> str:
    """Plain text inside Markdown: no markup, no HTML, one line."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(clean(text).split()))


def _fence(body: str, language: str = "") -> str:
    """A fenced block longer than any run of backticks in ``body``, so it cannot be closed."""
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{body}\n{fence}"


def _case_block(item: ReviewItem, reason: str | None) -> str:
    lines = [f"#### `{item.id}`", "", _inline(item.description), ""]
    if reason:
        lines.append(f"**{_inline(reason)}**")
        lines.append("")
    decision = item.decision
    if decision is not None:
        note = f": {_inline(decision.note)}" if decision.note else ""
        earlier = " (for an earlier picture)" if item.review == "outdated" else ""
        lines.append(
            f"{decision.status.capitalize()} by {_inline(decision.reviewer)} on "
            f"{decision.at}{earlier}{note}"
        )
        lines.append("")
    if item.snapshot == "new":
        lines.append(_fence(clean(item.fresh.text).rstrip("\n"), "text"))
    elif item.snapshot == "changed" and item.text_changed:
        diff = unified_text(item.committed_text, item.fresh.text, limit=MAX_DIFF_LINES)
        lines.append(_fence(clean(diff), "diff"))
    elif item.snapshot == "changed":
        lines.append("The text is the same: only colours or styles changed (see the HTML report).")
    lines.append("")
    return "\n".join(lines)


def render_markdown(board: ReviewBoard) -> str:
    result = run_gate(board)
    reasons = {item.id: reason for item, reason in result.failures}
    verdict = "passes ✅" if result.ok else f"fails ❌ ({len(result.failures)} case(s))"
    parts = [
        "## Workbench review",
        "",
        f"{_inline(summary(board))}. The review gate {verdict}.",
        "",
        "| tool | API | cases | to review | rejected | accepted | never reviewed |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    rows: dict[tuple[str, str], list[int]] = {}
    for item in board.items:
        row = rows.setdefault((item.key.tool, item.key.api), [0, 0, 0, 0, 0])
        row[0] += 1
        row[1] += item.group == 0
        row[2] += item.review == "rejected"
        row[3] += item.review == "accepted"
        row[4] += item.review == "unreviewed"
    for (tool, api), counts in sorted(rows.items()):
        parts.append(f"| {_inline(tool)} | {_inline(api)} | " + " | ".join(map(str, counts)) + " |")
    parts.append("")
    problems = [problem.format() for problem in board.review_file.problems]
    problems += [f"stale decision: {decision.case_id}" for decision in board.stale]
    if problems:
        parts.append("### Review file")
        parts.append("")
        parts.extend(f"- {_inline(problem)}" for problem in problems[:50])
        parts.append("")
    attention = [
        item for item in queue_order(board.items) if item.group == 0 or item.review == "rejected"
    ]
    if attention:
        parts.append(f"### Needs a reviewer ({len(attention)})")
        parts.append("")
        parts.append("Run `workbench review` to accept or reject them, case by case.")
        parts.append("")
    text = "\n".join(parts)
    shown = 0
    for item in attention:
        block = _case_block(item, reasons.get(item.id))
        if len(text) + len(block) > MAX_CHARS:
            break
        text += "\n" + block
        shown += 1
    if shown < len(attention):
        text += (
            f"\n_Showing {shown} of {len(attention)} cases that need a reviewer; "
            "`workbench review --report report.html` shows them all._\n"
        )
    return text


def write_markdown_report(board: ReviewBoard, path: Path) -> int:
    """Write the report; returns its size in bytes."""
    data = render_markdown(board).encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return len(data)
