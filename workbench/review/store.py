"""The snapshot store: the files under ``snapshots/`` a case is compared with.

A case at ``tool/api/variant/phase-width-theme`` (its :class:`~workbench.review.cases.CaseAddress`)
has ``<root>/tool/api/variant/phase-width-theme.txt`` (what a reviewer reads in a diff) and the
``.svg`` beside it (what the card looks like). Everything that reads, writes or prunes those
files goes through here: ``workbench snapshot``, the pytest plugin's syrupy extension and the
review board's "accept". Only a file named like a case is a snapshot: a README, notes or a
design mock-up beside them is never reported or deleted.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from workbench.core.file_writes import write_atomically
from workbench.fixtures.cache import Stamp, stamp_of
from workbench.review.cases import CaseAddress

TEXT_SUFFIX = ".txt"
SVG_SUFFIX = ".svg"
SNAPSHOT_SUFFIXES = (TEXT_SUFFIX, SVG_SUFFIX)


@dataclass(frozen=True)
class StoredSnapshot:
    """A case's committed files as read (``None``: there is no such file)."""

    text: str | None
    svg: str | None

    @property
    def missing(self) -> bool:
        return self.text is None and self.svg is None


@dataclass(frozen=True)
class SnapshotStore:
    """The snapshot files under ``root``."""

    root: Path

    def path(self, address: CaseAddress, suffix: str) -> Path:
        """The file of ``address`` with ``suffix`` (``.txt`` or ``.svg``)."""
        return self.root / address.relative_dir / f"{address.name}{suffix}"

    def paths(self, address: CaseAddress) -> tuple[Path, Path]:
        """The text and SVG files of ``address``."""
        return self.path(address, TEXT_SUFFIX), self.path(address, SVG_SUFFIX)

    def read(self, address: CaseAddress) -> StoredSnapshot:
        text_path, svg_path = self.paths(address)
        return StoredSnapshot(read_file(text_path), read_file(svg_path))

    def stamps(self, address: CaseAddress) -> tuple[Stamp | None, Stamp | None]:
        """The text and SVG files' stamps (size, mtime_ns, ctime_ns, inode; ``None``: no
        file): taken before a read, they say whether the files changed since."""
        # Joined as strings: a run stamps every case's files, and a Path costs more than a stat.
        stem = os.path.join(self.root, address.id)
        return stamp_of(stem + TEXT_SUFFIX), stamp_of(stem + SVG_SUFFIX)

    def write(self, address: CaseAddress, text: str, svg: str) -> None:
        """Make ``text`` and ``svg`` the committed snapshot of ``address``."""
        for path, content in zip(self.paths(address), (text, svg), strict=True):
            write_file(path, content)

    def address_of(self, path: Path) -> CaseAddress | None:
        """The case a file under the root is named for, or ``None`` if it is no snapshot."""
        if path.suffix not in SNAPSHOT_SUFFIXES:
            return None
        return CaseAddress.parse(path.relative_to(self.root).with_suffix("").as_posix())

    def unused(self, case_ids: Collection[str], *, select: str | None = None) -> list[Path]:
        """Snapshot files of no case in ``case_ids``, sorted.

        ``select`` is the ``-k`` text the cases were chosen by: only a file whose id contains
        it can be unused (a filtered run says nothing about the others).
        """
        if not self.root.is_dir():
            return []
        unused = []
        # A walk with string lookups: a run checks tens of thousands of files, nearly all used.
        for directory, folders, names in os.walk(self.root):
            folders.sort()
            relative = os.path.relpath(directory, self.root).replace(os.sep, "/")
            prefix = "" if relative == "." else f"{relative}/"
            for name in names:
                stem, suffix = os.path.splitext(name)
                if suffix not in SNAPSHOT_SUFFIXES or f"{prefix}{stem}" in case_ids:
                    continue
                path = Path(directory, name)
                address = self.address_of(path)
                if address is None or address.id in case_ids or not path.is_file():
                    continue
                if select and select not in address.id:
                    continue
                unused.append(path)
        return sorted(unused)

    def delete_unused(self, case_ids: Collection[str], *, select: str | None = None) -> list[Path]:
        """Delete :meth:`unused`; the files that went."""
        deleted = []
        for path in self.unused(case_ids, select=select):
            try:
                path.unlink()
            except FileNotFoundError:
                continue  # Another pytest-xdist worker removed it first.
            deleted.append(path)
        return deleted


def read_file(path: Path) -> str | None:
    """One snapshot file's text (newlines as Python reads text), ``None`` if there is none."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def write_file(path: Path, content: str) -> None:
    """Write one snapshot file in one step (creating its folder): the only snapshot writer."""
    write_atomically(path, content)
