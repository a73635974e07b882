"""Which files under ``snapshots/`` are snapshots no case draws any more.

Only a file named like a case is a snapshot: ``<tool>/<api>/<variant>/<phase>-<width>-<theme>``
with ``.txt`` or ``.svg`` (:func:`~workbench.review.cases.parse_case_id`). A README, notes or a
design mock-up beside the snapshots is never one, so ``workbench snapshot --update`` and
``pytest --snapshot-update`` (both through :func:`unused_snapshots`) never delete it.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from workbench.review.cases import parse_case_id

SNAPSHOT_SUFFIXES = (".txt", ".svg")


def case_id_of(root: Path, path: Path) -> str | None:
    """The case id a file under ``root`` is named for, or ``None`` if it is not a snapshot."""
    if path.suffix not in SNAPSHOT_SUFFIXES:
        return None
    case_id = path.relative_to(root).with_suffix("").as_posix()
    return case_id if parse_case_id(case_id) is not None else None


def unused_snapshots(
    root: Path, case_ids: Collection[str], *, select: str | None = None
) -> list[Path]:
    """Snapshot files under ``root`` of no case in ``case_ids``, sorted.

    ``select`` is the ``-k`` text the cases were chosen by: only a file whose id contains it
    can be unused (a filtered run says nothing about the others).
    """
    if not root.is_dir():
        return []
    unused = []
    for path in sorted(root.rglob("*")):
        case_id = case_id_of(root, path)
        if case_id is None or case_id in case_ids or not path.is_file():
            continue
        if select and select not in case_id:
            continue
        unused.append(path)
    return unused


def delete_unused_snapshots(
    root: Path, case_ids: Collection[str], *, select: str | None = None
) -> list[Path]:
    """Delete :func:`unused_snapshots`; the files that went."""
    deleted = []
    for path in unused_snapshots(root, case_ids, select=select):
        try:
            path.unlink()
        except FileNotFoundError:
            continue  # Another pytest-xdist worker removed it first.
        deleted.append(path)
    return deleted
