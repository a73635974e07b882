"""Which files under ``snapshots/`` are snapshots no case draws any more.

Kept for callers of the old names: the rule (only a file named like a case is a snapshot)
lives in :class:`~workbench.review.store.SnapshotStore`.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from workbench.review.store import SNAPSHOT_SUFFIXES, SnapshotStore

__all__ = ["SNAPSHOT_SUFFIXES", "case_id_of", "delete_unused_snapshots", "unused_snapshots"]


def case_id_of(root: Path, path: Path) -> str | None:
    """The case id a file under ``root`` is named for, or ``None`` if it is not a snapshot."""
    address = SnapshotStore(root).address_of(path)
    return address.id if address is not None else None


def unused_snapshots(
    root: Path, case_ids: Collection[str], *, select: str | None = None
) -> list[Path]:
    """:meth:`SnapshotStore.unused <workbench.review.store.SnapshotStore.unused>`."""
    return SnapshotStore(root).unused(case_ids, select=select)


def delete_unused_snapshots(
    root: Path, case_ids: Collection[str], *, select: str | None = None
) -> list[Path]:
    """:meth:`SnapshotStore.delete_unused <workbench.review.store.SnapshotStore.delete_unused>`."""
    return SnapshotStore(root).delete_unused(case_ids, select=select)
