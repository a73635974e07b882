"""The review board: every snapshot case as drawn now, beside its committed snapshot and the
decision about it; the queue order, the counts and the CI gate.

The board is built by drawing the cases (``workbench.acceptance``); here it is plain data, so
the TUI, the gate and the reports read the same statuses.

A case's **snapshot** is ``unchanged``, ``changed`` (its text or its colours differ from the
committed files) or ``new`` (no committed files). Its **review** is ``accepted`` or
``rejected`` (a decision about exactly this picture), ``outdated`` (a decision about an
earlier picture: the case changed since a person looked at it) or ``unreviewed``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from workbench.fixtures.catalog import VariantRef
from workbench.review.cases import CaseKey
from workbench.review.decisions import (
    Decision,
    ReviewFile,
    Status,
    make_decision,
    record_decisions,
    remove_decisions,
)
from workbench.review.store import SnapshotStore, StoredSnapshot

SnapshotStatus = Literal["unchanged", "changed", "new"]
ReviewStatus = Literal["accepted", "rejected", "outdated", "unreviewed"]

GROUPS: tuple[str, ...] = ("to review", "never reviewed", "rejected", "accepted")
"""Queue sections, in order: changed or new (or changed since reviewed) and not yet decided;
unchanged and never reviewed; then the decided ones."""


class CommittedFiles:
    """A case's committed files, read once, when first asked for: a case known to be
    unchanged (its files matched its drawing and have not changed since) needs them only for
    a report."""

    def __init__(self, read: Callable[[], StoredSnapshot]) -> None:
        self._read = read
        self._stored: StoredSnapshot | None = None

    def get(self) -> StoredSnapshot:
        if self._stored is None:
            self._stored = self._read()
        return self._stored


class Picture:
    """One drawing of a case: the text snapshot (with its header line), the SVG, and the hash
    of what a reviewer sees (text and colours, independent of the SVG exporter)."""

    __slots__ = ("_svg", "_text", "files", "hash")

    def __init__(self, text: str, svg: str, hash: str) -> None:
        self._text: str | None = text
        self._svg: str | None = svg
        self.hash = hash
        self.files: CommittedFiles | None = None
        """Set when the drawing is what these files hold (then read from them if asked)."""

    @classmethod
    def held_by(cls, files: CommittedFiles, hash: str) -> Picture:
        """The drawing with ``hash`` that ``files`` are known to hold, not read yet."""
        picture = cls("", "", hash)
        picture._text = picture._svg = None
        picture.files = files
        return picture

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = self.files.get().text if self.files is not None else None
        return self._text or ""

    @property
    def svg(self) -> str:
        if self._svg is None:
            self._svg = self.files.get().svg if self.files is not None else None
        return self._svg or ""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Picture):
            return NotImplemented
        return (self.hash, self.text, self.svg) == (other.hash, other.text, other.svg)

    def __hash__(self) -> int:
        return hash(self.hash)

    def __repr__(self) -> str:
        return f"Picture(hash={self.hash!r})"


@dataclass
class ReviewItem:
    """One case on the board."""

    key: CaseKey
    ref: VariantRef
    description: str
    """What a reviewer should see, in one line (the text snapshot's header)."""
    fresh: Picture
    committed: StoredSnapshot | CommittedFiles
    """Its committed files (read when first asked for, if they hold ``fresh``)."""
    decision: Decision | None = None
    """The decision that applies (about this picture, else the newest about the case)."""
    order: int = 0
    """Position within its variant: phase order, then width, theme, surface."""
    observed: bool = False
    """A recording of a tool with no surface of its own (see :mod:`workbench.coverage`):
    while it is new and nobody decided about it, the gate lets it pass."""

    @property
    def id(self) -> str:
        return self.key.id

    @property
    def committed_text(self) -> str | None:
        return self._committed().text

    @property
    def committed_svg(self) -> str | None:
        return self._committed().svg

    def _committed(self) -> StoredSnapshot:
        committed = self.committed
        return committed.get() if isinstance(committed, CommittedFiles) else committed

    @property
    def snapshot(self) -> SnapshotStatus:
        if self.fresh.files is not None and self.fresh.files is self.committed:
            return "unchanged"  # Its files hold the drawing: known without reading them.
        if self.committed_text is None and self.committed_svg is None:
            return "new"
        if self.committed_text != self.fresh.text or self.committed_svg != self.fresh.svg:
            return "changed"
        return "unchanged"

    @property
    def text_changed(self) -> bool:
        """The text differs (``False`` for a colour-only change)."""
        return self.committed_text != self.fresh.text

    @property
    def review(self) -> ReviewStatus:
        if self.decision is None:
            return "unreviewed"
        if self.decision.hash != self.fresh.hash:
            return "outdated"
        return self.decision.status

    @property
    def changed(self) -> bool:
        """Drawn differently from the committed snapshot, or from what was last reviewed."""
        return self.snapshot != "unchanged" or self.review == "outdated"

    @property
    def group(self) -> int:
        """Index into :data:`GROUPS`."""
        review = self.review
        if review == "rejected":
            return 2
        if review == "accepted":
            return 3
        return 0 if self.changed else 1

    def gate_failure(self, *, require_review: bool = False) -> str | None:
        """Why CI must fail on this case, or ``None``."""
        review = self.review
        if review == "rejected":
            assert self.decision is not None
            note = f": {self.decision.note}" if self.decision.note else ""
            return f"rejected by {self.decision.reviewer}{note}"
        if review == "accepted":
            return None
        if self.snapshot == "new":
            if self.observed and review == "unreviewed":
                # A recording joins the gate when someone opts in: accepting commits its
                # snapshot (then a change fails), rejecting fails at once.
                return "never reviewed" if require_review else None
            return "new and not accepted (no committed snapshot)"
        if self.snapshot == "changed":
            what = "text" if self.text_changed else "colours"
            return f"changed ({what}) and not accepted"
        if review == "outdated":
            assert self.decision is not None
            return (
                f"changed since {self.decision.reviewer} {self.decision.status} it "
                f"({self.decision.at}) and not accepted"
            )
        if require_review:
            return "never reviewed"
        return None


def queue_order(items: Iterable[ReviewItem]) -> list[ReviewItem]:
    """Changed and new first, then never reviewed, then rejected, then accepted; within each,
    grouped by tool, API and variant."""
    return sorted(
        items,
        key=lambda item: (item.group, item.key.tool, item.key.api, item.key.variant, item.order),
    )


@dataclass
class ReviewBoard:
    """Every drawn case, the review file and what is wrong with it."""

    items: list[ReviewItem]
    review_file: ReviewFile
    snapshot_root: Path
    stale: list[Decision] = field(default_factory=list)
    """Decisions about cases that no longer exist (a renamed variant, a dropped width)."""

    def counts(self) -> dict[str, int]:
        """How many cases per snapshot status and per review status, and in all."""
        counts: Counter[str] = Counter()
        for item in self.items:
            counts[item.snapshot] += 1
            counts[item.review] += 1
        result = {name: counts[name] for name in ("unchanged", "changed", "new", *_REVIEWS)}
        result["cases"] = len(self.items)
        result["to review"] = sum(1 for item in self.items if item.group == 0)
        return result

    def observed_new(self) -> int:
        """New cases of observed recordings nobody decided about: on the board, not gated."""
        return sum(
            1
            for item in self.items
            if item.observed and item.snapshot == "new" and item.review == "unreviewed"
        )

    def group_counts(self) -> dict[str, int]:
        """How many cases in each of the queue's groups (:data:`GROUPS`), which share none.

        Not the review statuses: a changed case nobody decided about is "unreviewed" but in
        the group "to review", so a line that sets the groups side by side counts it once.
        """
        counts = Counter(item.group for item in self.items)
        return {name: counts[index] for index, name in enumerate(GROUPS)}

    def failures(self, *, require_review: bool = False) -> list[tuple[ReviewItem, str]]:
        found = []
        for item in self.items:
            reason = item.gate_failure(require_review=require_review)
            if reason is not None:
                found.append((item, reason))
        return found

    @property
    def file_errors(self) -> list[str]:
        return [
            problem.format() for problem in self.review_file.problems if problem.severity == "error"
        ]

    def decide(
        self,
        items: Iterable[ReviewItem],
        status: Status,
        reviewer: str,
        note: str = "",
        *,
        write_snapshots: bool = True,
    ) -> list[Decision]:
        """Record ``status`` for each item's current picture, in one write of the review file.

        Accepting makes the picture the committed snapshot (as ``cargo insta review`` does):
        the changed or new snapshot files are written, so the snapshot tests pass too.
        """
        chosen = list(items)
        decisions = [
            make_decision(item.id, status, item.fresh.hash, reviewer, note) for item in chosen
        ]
        if status == "accepted" and write_snapshots:
            for item in chosen:
                if item.snapshot != "unchanged":
                    write_snapshot(self.snapshot_root, item)
        self.review_file = record_decisions(self.review_file.path, decisions)
        for item, decision in zip(chosen, decisions, strict=True):
            item.decision = self.review_file.decision_for(item.id, item.fresh.hash) or decision
        return decisions

    def prune_stale(self) -> int:
        """Remove decisions about cases that no longer exist; how many went."""
        review, removed = remove_decisions(
            self.review_file.path, {decision.case_id for decision in self.stale}
        )
        self.review_file = review
        self.stale = []
        return removed


_REVIEWS: tuple[ReviewStatus, ...] = ("accepted", "rejected", "outdated", "unreviewed")


def snapshot_paths(root: Path, key: CaseKey) -> tuple[Path, Path]:
    """The committed text and SVG files of a case."""
    return SnapshotStore(root).paths(key.address)


def write_snapshot(root: Path, item: ReviewItem) -> None:
    """Make the item's fresh picture its committed snapshot (text and SVG)."""
    SnapshotStore(root).write(item.key.address, item.fresh.text, item.fresh.svg)
    item.committed = StoredSnapshot(item.fresh.text, item.fresh.svg)
