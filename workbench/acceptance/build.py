"""Build the review board: draw every case of the snapshot matrix, read its committed
snapshot and the decision about it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path

from workbench.core.call_state import Phase
from workbench.coverage import coverage
from workbench.project import Project
from workbench.rendering.compare import compare_case
from workbench.rendering.matrix import SnapshotCase, snapshot_cases
from workbench.rendering.renderer import SnapshotRenderer
from workbench.review.board import CommittedFiles, Picture, ReviewBoard, ReviewItem
from workbench.review.decisions import read_review_file
from workbench.review.shards import Shard
from workbench.review.store import SnapshotStore, StoredSnapshot

Progress = Callable[[int, int, str], None]
"""Called after each case with (done, total, case id)."""

_THEME_ORDER = {"dark": 0, "light": 1}
_PHASES = list(Phase)


class MissingCasesError(Exception):
    """Merged results that leave cases of the matrix undrawn, or hold cases it has not."""


def select_cases(
    project: Project, select: str | None = None, shard: Shard | None = None
) -> list[SnapshotCase]:
    """The snapshot matrix, narrowed to case ids containing ``select`` and to ``shard``'s."""
    return narrow(snapshot_cases(project.catalog, project.registry), select, shard)


def narrow(
    cases: Sequence[SnapshotCase], select: str | None, shard: Shard | None
) -> list[SnapshotCase]:
    """The cases whose id contains ``select``, and of those the ones ``shard`` owns: a shard
    of a ``-k`` run splits what ``-k`` chose."""
    chosen = [case for case in cases if not select or select in case.test_id]
    if shard is not None:
        chosen = shard.select(chosen, lambda case: case.test_id)
    return chosen


def case_order(case: SnapshotCase) -> int:
    """Within a variant: the phases in lifecycle order (``Phase`` is declared in that order),
    each at its widths and themes; then the folded card, the Portal, the hosts' first looks
    and model views."""
    surface = {"card": 0, "collapsed": 1, "portal": 2}.get(
        case.surface, 3 if case.surface.startswith("look-") else 4
    )
    phase_index = _PHASES.index(case.phase)
    return ((surface * 100 + phase_index) * 10_000 + case.width) * 10 + _THEME_ORDER.get(
        case.theme, 9
    )


def build_board(
    project: Project,
    *,
    snapshot_root: Path | None = None,
    review_path: Path | None = None,
    select: str | None = None,
    on_progress: Progress | None = None,
    renderer: SnapshotRenderer | None = None,
    shard: Shard | None = None,
    pictures: Mapping[str, Picture] | None = None,
) -> ReviewBoard:
    """Draw the (selected) cases and join them with the committed snapshots and decisions.

    With ``shard``, only its cases are on the board, and stale decisions are left to the
    merge (another shard may own their case's neighbours). With ``pictures`` (the shards'
    merged results) nothing is drawn: every selected case must be there, and nothing else.
    """
    root = (snapshot_root or project.config.snapshot_dir).resolve()
    review_file = read_review_file(review_path or project.config.review_file)
    all_cases = snapshot_cases(project.catalog, project.registry)
    cases = narrow(all_cases, select, shard)
    if pictures is not None:
        check_complete(cases, pictures)
    observed = {
        (row.tool, row.api)
        for row in coverage(project.catalog, project.registry, recordings=project.config.recordings)
        if row.observed
    }
    items: list[ReviewItem] = []
    owned = renderer is None
    drawer = renderer or SnapshotRenderer(project.catalog, project.registry)
    store = SnapshotStore(root)
    # Drawn with the render cache: a case whose files matched its drawing in any run (this
    # one's, the snapshot run's) and changed since in neither passes on their stamps.
    matched = drawer.cache.matched_snapshots() if drawer.cache and pictures is None else None
    try:
        for index, case in enumerate(cases):
            key = case.key
            committed: StoredSnapshot | CommittedFiles
            if pictures is not None:
                picture = pictures[case.test_id]
                committed = store.read(case.address)
            else:
                found = compare_case(case, drawer, store, matched)
                if found.drawn is None:
                    committed = CommittedFiles(partial(store.read, case.address))
                    picture = Picture.held_by(committed, found.picture)
                else:
                    assert found.committed is not None and found.text is not None
                    committed = found.committed
                    picture = Picture(found.text, found.drawn.svg, found.picture)
            items.append(
                ReviewItem(
                    key=key,
                    ref=case.ref,
                    description=case.description,
                    fresh=picture,
                    committed=committed,
                    decision=review_file.decision_for(key.id, picture.hash),
                    order=case_order(case),
                    observed=(key.tool, key.api) in observed,
                )
            )
            if on_progress is not None:
                on_progress(index + 1, len(cases), key.id)
    finally:
        if owned:
            drawer.close()
    if matched is not None:
        # Only a run of the whole matrix knows which cases are gone.
        matched.save({case.test_id for case in all_cases} if not select and not shard else None)
    known = {case.test_id for case in all_cases}
    stale = [
        decision
        for decision in review_file
        if shard is None
        and decision.case_id not in known
        and (not select or select in decision.case_id)
    ]
    stale.sort(key=lambda decision: (decision.case_id, decision.line or 0))
    return ReviewBoard(items=items, review_file=review_file, snapshot_root=root, stale=stale)


def check_complete(cases: Sequence[SnapshotCase], pictures: Mapping[str, Picture]) -> None:
    """Raise :class:`MissingCasesError` unless ``pictures`` holds exactly ``cases``."""
    wanted = {case.test_id for case in cases}
    missing = [case.test_id for case in cases if case.test_id not in pictures]
    foreign = sorted(case_id for case_id in pictures if case_id not in wanted)
    problems = []
    if missing:
        problems.append(
            f"{len(missing)} of {len(cases)} case(s) are in no results file (a shard missing?), "
            f"e.g. {', '.join(missing[:3])}"
        )
    if foreign:
        problems.append(
            f"{len(foreign)} case(s) in the results are not in this project's matrix (results "
            f"of another commit?), e.g. {', '.join(foreign[:3])}"
        )
    if problems:
        raise MissingCasesError("; ".join(problems))
