"""Compare rendered snapshots with the files on disk, and write the report reviewers open.

This is ``workbench snapshot``: the same matrix and renderer as the pytest plugin, outside
pytest. Its report is the review report (``workbench review --report``): every case at its
real size, and each change with the expected and actual pictures side by side and its text
diff.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from workbench.acceptance.build import case_order
from workbench.rendering.compare import compare_case
from workbench.rendering.matrix import SnapshotCase, snapshot_text_of
from workbench.rendering.renderer import RenderedSnapshot, SnapshotRenderer
from workbench.review.board import Picture, ReviewBoard, ReviewItem
from workbench.review.decisions import read_review_file
from workbench.review.diff import snapshot_diff
from workbench.review.store import SnapshotStore, StoredSnapshot

if TYPE_CHECKING:
    from workbench.rendering.cache import MatchedSnapshots

STATUSES = ("passed", "failed", "new", "updated")


@dataclass
class SnapshotOutcome:
    case: SnapshotCase
    status: str
    """``passed``, ``failed`` (differs), ``new`` (no file yet) or ``updated`` (rewritten)."""
    drawn: RenderedSnapshot | None
    """The drawing (``None``: passed on unchanged files, which then hold it; read if asked)."""
    committed: StoredSnapshot | None
    """The files it was compared with, as read (``None``: not read, see ``drawn``)."""
    store: SnapshotStore
    picture: str = ""
    """The drawing's content hash, as review decisions name it."""

    def _committed(self) -> StoredSnapshot:
        if self.committed is None:
            self.committed = self.store.read(self.case.address)
        return self.committed

    @property
    def text(self) -> str:
        if self.drawn is not None:
            return snapshot_text_of(self.case, self.drawn.text)
        return self._committed().text or ""

    @property
    def svg(self) -> str:
        return self.drawn.svg if self.drawn is not None else self._committed().svg or ""

    @property
    def expected_text(self) -> str | None:
        return self._committed().text

    @property
    def expected_svg(self) -> str | None:
        return self._committed().svg

    @property
    def diff(self) -> str:
        if self.expected_text is None:
            return ""
        return "\n".join(snapshot_diff(self.expected_text, self.text))


@dataclass
class SnapshotRun:
    outcomes: list[SnapshotOutcome] = field(default_factory=list)
    unused: list[Path] = field(default_factory=list)
    deleted: list[Path] = field(default_factory=list)
    seconds: float = 0.0

    def count(self, status: str) -> int:
        return sum(1 for outcome in self.outcomes if outcome.status == status)

    @property
    def ok(self) -> bool:
        return not self.count("failed") and not self.count("new") and not self.unused


def run_snapshots(
    cases: Sequence[SnapshotCase],
    renderer: SnapshotRenderer,
    root: Path,
    *,
    update: bool = False,
    select: str | None = None,
    on_progress: Callable[[SnapshotCase], None] | None = None,
    prune: bool = True,
    matrix_ids: Collection[str] | None = None,
) -> SnapshotRun:
    """Render every case and compare it with ``root``; with ``update`` rewrite and prune.

    ``select`` is the ``-k`` text the cases were chosen by: only snapshot files whose id
    contains it can be unused (a filtered run says nothing about the others). ``prune=False``
    leaves files no case wrote alone (``workbench new`` records one tool's snapshots beside
    the others'). ``matrix_ids`` are the ids of every case when ``cases`` are one shard's: a
    file is unused only if no shard draws it.
    """
    store = SnapshotStore(root)
    run = SnapshotRun()
    cache = renderer.cache
    matched = cache.matched_snapshots() if cache is not None else None
    for case in cases:
        run.outcomes.append(_compare(case, renderer, store, matched, update=update))
        if on_progress is not None:
            on_progress(case)
    case_ids = matrix_ids if matrix_ids is not None else {case.test_id for case in cases}
    if matched is not None:
        # Only a run of the whole matrix knows which cases are gone.
        matched.save(case_ids if prune and not select else None)
    if prune:
        if update:
            run.deleted = store.delete_unused(case_ids, select=select)
        else:
            run.unused = store.unused(case_ids, select=select)
    return run


def _compare(
    case: SnapshotCase,
    renderer: SnapshotRenderer,
    store: SnapshotStore,
    matched: MatchedSnapshots | None,
    *,
    update: bool,
) -> SnapshotOutcome:
    """One case compared with its files (:func:`compare_case`); with ``update`` a case that
    differs is written."""
    found = compare_case(case, renderer, store, matched)
    rendered, committed = found.drawn, found.committed
    if found.unchanged:
        return SnapshotOutcome(case, "passed", rendered, committed, store, found.picture)
    assert rendered is not None and committed is not None and found.text is not None
    if update:
        store.write(case.address, found.text, rendered.svg)
        status = "updated" if committed.text is not None else "new"
    else:
        status = "new" if committed.missing else "failed"
    return SnapshotOutcome(case, status, rendered, committed, store, rendered.picture)


def to_board(run: SnapshotRun, root: Path, review_path: Path) -> ReviewBoard:
    """The run as a review board: each case drawn now beside the snapshot it was compared
    with (before ``--update`` rewrote it), and the decision about it."""
    review_file = read_review_file(review_path)
    items = []
    for outcome in run.outcomes:
        case = outcome.case
        picture = Picture(outcome.text, outcome.svg, outcome.picture)
        items.append(
            ReviewItem(
                key=case.key,
                ref=case.ref,
                description=case.description,
                fresh=picture,
                committed=StoredSnapshot(outcome.expected_text, outcome.expected_svg),
                decision=review_file.decision_for(case.test_id, picture.hash),
                order=case_order(case),
            )
        )
    return ReviewBoard(items=items, review_file=review_file, snapshot_root=root)


def write_report(run: SnapshotRun, path: Path, *, root: Path, review_path: Path) -> str:
    """The review report of this run (``.html`` with its images folder, or ``.md``); what
    was written, in a phrase."""
    from workbench.acceptance.html_report import write_html_report
    from workbench.acceptance.markdown_report import write_markdown_report

    board = to_board(run, root, review_path)
    if path.suffix.lower() == ".md":
        return f"{write_markdown_report(board, path):,} bytes"
    files, size = write_html_report(board, path)
    return f"{files} image(s) in {path.stem}_files/, {size / 1e6:.1f} MB"
