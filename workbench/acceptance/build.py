"""Build the review board: draw every case of the snapshot matrix, read its committed
snapshot and the decision about it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from workbench.core.call_state import Phase
from workbench.coverage import coverage
from workbench.project import Project
from workbench.rendering.matrix import SnapshotCase, snapshot_cases, snapshot_text_of
from workbench.rendering.renderer import SnapshotRenderer
from workbench.review.board import Picture, ReviewBoard, ReviewItem, read_committed
from workbench.review.decisions import read_review_file

Progress = Callable[[int, int, str], None]
"""Called after each case with (done, total, case id)."""

_THEME_ORDER = {"dark": 0, "light": 1}
_PHASES = list(Phase)


def select_cases(project: Project, select: str | None = None) -> list[SnapshotCase]:
    """The snapshot matrix, narrowed to case ids containing ``select``."""
    cases = snapshot_cases(project.catalog, project.registry)
    if select:
        cases = [case for case in cases if select in case.test_id]
    return cases


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
) -> ReviewBoard:
    """Draw the (selected) cases and join them with the committed snapshots and decisions."""
    root = (snapshot_root or project.config.snapshot_dir).resolve()
    review_file = read_review_file(review_path or project.config.review_file)
    all_cases = snapshot_cases(project.catalog, project.registry)
    cases = [case for case in all_cases if not select or select in case.test_id]
    observed = {
        (row.tool, row.api)
        for row in coverage(project.catalog, project.registry, recordings=project.config.recordings)
        if row.observed
    }
    items: list[ReviewItem] = []
    owned = renderer is None
    drawer = renderer or SnapshotRenderer(project.catalog, project.registry)
    try:
        for index, case in enumerate(cases):
            rendered = drawer.render(case)
            key = case.key
            committed_text, committed_svg = read_committed(root, key)
            picture = Picture(snapshot_text_of(case, rendered.text), rendered.svg, rendered.picture)
            items.append(
                ReviewItem(
                    key=key,
                    ref=case.ref,
                    description=case.description,
                    fresh=picture,
                    committed_text=committed_text,
                    committed_svg=committed_svg,
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
    known = {case.test_id for case in all_cases}
    stale = [
        decision
        for decision in review_file
        if decision.case_id not in known and (not select or select in decision.case_id)
    ]
    stale.sort(key=lambda decision: (decision.case_id, decision.line or 0))
    return ReviewBoard(items=items, review_file=review_file, snapshot_root=root, stale=stale)
