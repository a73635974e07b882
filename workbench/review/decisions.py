"""The review file: one line per snapshot case saying what a person decided, kept in git.

``snapshots/reviews.yaml`` (``[tool.workbench] reviews`` moves it) sits beside the snapshots it
judges, so a pull request that changes a snapshot shows the decision about it in the same
diff. Each line is a YAML flow mapping, and the whole file is valid YAML::

    calculator/calculate/add/done-60-dark: {status: accepted, hash: 1f0e3dad99908345, \
    reviewer: Ann Lee, at: '2026-12-01T09:22:51Z', note: baseline}

(one line in the file; cut here to fit). Lines are sorted by case id. Two branches that
review different cases touch different lines, and ``.gitattributes`` merges the file with
git's built-in ``union`` driver, so even neighbouring lines never conflict; if both branches
decided the same case, both lines survive the merge, and the decision about the picture the
case draws now wins (else the newer one).

Every line is read on its own: a line that is not a decision (a typo, a hand edit, a conflict
marker) is a problem at its line number and is written back unchanged; every other line loads.
"""

from __future__ import annotations

import contextlib
import getpass
import os
import re
import subprocess
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml

from workbench.core.file_writes import locked, write_atomically
from workbench.core.problems import Problem
from workbench.core.sanitize import clean
from workbench.review.cases import parse_case_id

Status = Literal["accepted", "rejected"]
STATUSES: tuple[Status, ...] = ("accepted", "rejected")
HASH_PATTERN = re.compile(r"^[0-9a-f]{16}$")
MAX_NOTE = 2000
"""A note is a sentence or a paragraph; a pasted log belongs in the pull request."""

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

HEADER = """\
# Workbench review decisions: one line per snapshot case, sorted by case id.
# Written by `workbench review`; a decision holds for the picture whose hash it names, and a
# case that draws differently is back in the review queue. Lines Workbench cannot read are
# reported with their line number and kept as they are; other comments are not kept.
"""
FIELDS = ("status", "hash", "reviewer", "at", "note")


@dataclass(frozen=True)
class Decision:
    """What one person decided about one picture of one case."""

    case_id: str
    status: Status
    hash: str
    """The content hash of the picture that was judged (see ``workbench.rendering``)."""
    reviewer: str
    at: str
    """UTC, ISO 8601 to the second: ``2026-12-01T09:22:51Z``."""
    note: str = ""
    line: int | None = None
    """Where it was read from, for messages."""

    def to_line(self) -> str:
        return _decision_line(
            self.case_id, self.status, self.hash, self.reviewer, self.at, self.note
        )

    @property
    def sort_key(self) -> str:
        return self.case_id


@dataclass(frozen=True)
class UnreadLine:
    """A line that is not a decision, kept verbatim so a rewrite never loses it."""

    text: str
    line: int

    @property
    def sort_key(self) -> str:
        return self.text


@dataclass
class ReviewFile:
    """The decisions read from a review file, and what was wrong with it."""

    path: Path
    decisions: dict[str, list[Decision]] = field(default_factory=dict)
    """Per case id; more than one only after a union merge of two branches' decisions."""
    unread: list[UnreadLine] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def display_path(self) -> str:
        with contextlib.suppress(ValueError):
            return self.path.relative_to(Path.cwd()).as_posix()
        return str(self.path)

    def __iter__(self) -> Iterator[Decision]:
        for decisions in self.decisions.values():
            yield from decisions

    def decision_for(self, case_id: str, picture: str | None = None) -> Decision | None:
        """The decision that applies: about ``picture`` if one is, else the newest."""
        found = self.decisions.get(case_id, [])
        matching = [decision for decision in found if decision.hash == picture]
        candidates = matching or found
        return max(candidates, key=lambda decision: decision.at) if candidates else None

    def set(self, decision: Decision) -> None:
        """Record ``decision`` as the only one for its case."""
        self.decisions[decision.case_id] = [replace(decision, line=None)]

    def remove(self, case_ids: Iterable[str]) -> int:
        removed = 0
        for case_id in case_ids:
            removed += len(self.decisions.pop(case_id, []))
        return removed

    def render(self) -> str:
        entries: list[Decision | UnreadLine] = [*self, *self.unread]
        entries.sort(key=lambda entry: entry.sort_key)
        lines = [
            entry.to_line() if isinstance(entry, Decision) else entry.text for entry in entries
        ]
        return HEADER + "".join(f"{line}\n" for line in lines)


@lru_cache(maxsize=65_536)
def _decision_line(case_id: str, status: str, hash: str, reviewer: str, at: str, note: str) -> str:
    # Cached (as is parsing, below): each write renders every line of the file, and two
    # processes adding hundreds of decisions would otherwise spend their time in PyYAML.
    record = {"status": status, "hash": hash, "reviewer": reviewer, "at": at, "note": note}
    if not note:
        del record["note"]
    flow = yaml.safe_dump(
        record, default_flow_style=True, sort_keys=False, allow_unicode=True, width=2**31
    ).strip()
    return f"{_dump_key(case_id)}: {flow}"


def _dump_key(case_id: str) -> str:
    # Case ids are identifiers joined by '/', plain YAML scalars; anything else gets quoted.
    if parse_case_id(case_id) is not None:
        return case_id
    return yaml.safe_dump(case_id, default_style='"', width=2**31).strip()


def read_review_file(path: Path) -> ReviewFile:
    """Read ``path`` (a missing file is an empty one); never raises on bad content."""
    review = ReviewFile(path=path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return review
    except OSError as error:
        review.problems.append(
            Problem(review.display_path, f"cannot read: {error.strerror or error}")
        )
        return review
    text = data.decode("utf-8", errors="replace")
    # Split on newlines only: str.splitlines() also breaks at form feeds and other separators
    # a hand edit may hold, and would number the lines differently from an editor.
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        decision, problem = parse_line(line, number, review.display_path)
        if decision is not None:
            found = review.decisions.setdefault(decision.case_id, [])
            # A union merge repeats lines both sides kept when its hunk spans them.
            if not any(
                replace(known, line=None) == replace(decision, line=None) for known in found
            ):
                found.append(decision)
        else:
            review.unread.append(UnreadLine(line, number))
            if problem is not None:
                review.problems.append(problem)
    for case_id, decisions in review.decisions.items():
        if len(decisions) > 1:
            lines = ", ".join(str(decision.line) for decision in decisions)
            review.problems.append(
                Problem(
                    review.display_path,
                    f"{len(decisions)} decisions for {case_id} (lines {lines}), as a merge of two "
                    "branches leaves them: the one about the picture the case draws now applies, "
                    "else the newest; the next decision about it replaces them all",
                    line=decisions[-1].line,
                    severity="warning",
                    code="duplicate",
                )
            )
    return review


def parse_line(line: str, number: int, file: str) -> tuple[Decision | None, Problem | None]:
    """One line of a review file as a decision, or the problem that says why it is not one."""
    decision, wrong = _parse_line(line)
    if decision is not None:
        return replace(decision, line=number), None
    message, field = wrong or ("not a decision line", "")
    return None, Problem(file, message, line=number, field=field, code="review-line")


@lru_cache(maxsize=65_536)
def _parse_line(line: str) -> tuple[Decision | None, tuple[str, str] | None]:
    """The decision on ``line`` (numbered 0), else what is wrong with it and in which field."""

    def problem(message: str, field: str = "") -> tuple[None, tuple[str, str]]:
        return None, (message, field)

    try:
        data = yaml.load(line, Loader=_LOADER)
    except yaml.YAMLError as error:
        reason = getattr(error, "problem", None) or str(error).splitlines()[0]
        return problem(f"not a decision line (YAML: {reason})")
    if not isinstance(data, dict) or len(data) != 1:
        return problem("not a decision line: expected `CASE-ID: {status: ..., hash: ..., ...}`")
    [(key, record)] = data.items()
    if not isinstance(key, str) or parse_case_id(key) is None:
        return problem(
            f"{key!r} is not a case id (tool/api/variant/phase-width-theme, as in snapshots/)"
        )
    if not isinstance(record, dict):
        return problem("the decision must be on the same line: {status: ..., hash: ..., ...}", key)
    unknown = sorted(str(name) for name in record if name not in FIELDS)
    if unknown:
        return problem(f"unknown field {unknown[0]!r} (fields: {', '.join(FIELDS)})", key)
    status = record.get("status")
    if status not in STATUSES:
        return problem(f"status must be accepted or rejected, not {status!r}", f"{key}.status")
    picture = record.get("hash")
    if not isinstance(picture, str) or not HASH_PATTERN.match(picture):
        return problem("hash must be 16 lowercase hex digits", f"{key}.hash")
    reviewer = record.get("reviewer")
    if not isinstance(reviewer, str) or not reviewer.strip():
        return problem("reviewer must be a name", f"{key}.reviewer")
    at = _timestamp(record.get("at"))
    if at is None:
        return problem("at must be a UTC time like '2026-12-01T09:22:51Z'", f"{key}.at")
    note = record.get("note", "")
    if note is None:
        note = ""
    if not isinstance(note, str):
        return problem("note must be text", f"{key}.note")
    return Decision(key, status, picture, reviewer.strip(), at, note), None


def _timestamp(value: Any) -> str | None:
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
    else:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return format_time(moment)


def format_time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def now() -> str:
    return format_time(datetime.now(UTC))


def write_review_file(review: ReviewFile) -> None:
    """Write atomically (a crash leaves the old file or the new one, never half of one).

    Whoever read ``review`` from disk to change it holds the file's lock (:func:`update`)."""
    write_atomically(review.path, review.render())


def record_decisions(path: Path, decisions: Iterable[Decision]) -> ReviewFile:
    """Add ``decisions`` to the file as it is on disk now, replacing earlier ones about the
    same cases; the file is locked from the read to the write, so a decision another process
    records meanwhile is kept."""
    chosen = list(decisions)
    with locked(path):
        review = read_review_file(path)
        for decision in chosen:
            review.set(decision)
        write_review_file(review)
    return review


def remove_decisions(path: Path, case_ids: Iterable[str]) -> tuple[ReviewFile, int]:
    """Remove the decisions about ``case_ids`` from the file as it is on disk now (locked, as
    :func:`record_decisions`); the file as written and how many decisions went."""
    with locked(path):
        review = read_review_file(path)
        removed = review.remove(case_ids)
        if removed:
            write_review_file(review)
    return review, removed


def make_decision(
    case_id: str, status: Status, picture: str, reviewer: str, note: str = ""
) -> Decision:
    """A decision made now; the note and the name are one line of plain text each."""
    text = one_line(note)
    if len(text) > MAX_NOTE:
        text = text[: MAX_NOTE - 1] + "…"
    return Decision(case_id, status, picture, one_line(reviewer) or "unknown reviewer", now(), text)


def one_line(text: str) -> str:
    """Control characters removed, every run of whitespace (newlines too) one space."""
    return " ".join(clean(text).split())


def reviewer_name(root: Path, override: str | None = None) -> str:
    """``--reviewer``, else ``WORKBENCH_REVIEWER``, else ``git config user.name``, else the
    login name."""
    for candidate in (override, os.environ.get("WORKBENCH_REVIEWER")):
        if candidate and one_line(candidate):
            return one_line(candidate)
    try:
        found = subprocess.run(
            ["git", "config", "user.name"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        found = ""
    if one_line(found):
        return one_line(found)
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "unknown reviewer"
