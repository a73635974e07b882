"""Syrupy extensions that keep one file per snapshot under the project's ``snapshots/``.

``snapshots/<tool>/<api>/<variant>/<phase>-<width>-<theme>.txt`` is what a reviewer reads in
a diff; the ``.svg`` beside it is what the card looks like. Where the files are, and how they
are read and written, is the snapshot store's (:mod:`workbench.review.store`), as for
``workbench snapshot`` and the review board. Failures print a unified diff.

A snapshot file on disk is untrusted text too (written by an older Workbench, edited by hand,
or from another branch): what a failure prints of it goes through the sanitizer.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from workbench.core.sanitize import clean, clean_line
from workbench.rendering.matrix import SnapshotCase
from workbench.review.diff import snapshot_diff
from workbench.review.store import SnapshotStore, read_file, write_file

CASE_PARAM = "workbench_case"
UNCHANGED = "\x00workbench: unchanged since this file matched the case's drawing\x00"
"""What a snapshot assertion compares when the render cache vouches for a case's files: the
file is not read, and the assertion still counts as the file's use."""


class SnapshotRoot:
    """Where snapshots live; the pytest plugin sets it from ``[tool.workbench] snapshots``."""

    path: Path = Path("snapshots").resolve()
    unchanged: ClassVar[set[str]] = set()
    """Snapshot files whose next read gives :data:`UNCHANGED` (see
    :class:`~workbench.rendering.cache.MatchedSnapshots`): set just before their assertion."""

    @classmethod
    def store(cls) -> SnapshotStore:
        return SnapshotStore(cls.path)

    @classmethod
    def vouch_for(cls, case: SnapshotCase) -> None:
        """The next assertions of ``case``'s files compare :data:`UNCHANGED`, read nothing."""
        store = cls.store()
        cls.unchanged.update(str(path) for path in store.paths(case.address))


def _case(test_location: Any) -> SnapshotCase:
    case = test_location.item.callspec.params[CASE_PARAM]
    assert isinstance(case, SnapshotCase)
    return case


class _CaseFileExtension(SingleFileSnapshotExtension):
    _write_mode = WriteMode.TEXT

    @classmethod
    def get_location(cls, *, test_location: Any, index: Any) -> str:
        address = _case(test_location).key.address
        return str(SnapshotRoot.store().path(address, f".{cls.file_extension}"))

    @classmethod
    def get_snapshot_name(cls, *, test_location: Any, index: Any = 0) -> str:
        # Must equal the file's stem, which is what syrupy reads back from disk.
        return _case(test_location).key.name

    @classmethod
    def dirname(cls, *, test_location: Any) -> str:
        # Differs from discovery_dirname so discovery is directory-scoped and files that are
        # not snapshots (a README in snapshots/) are never reported or deleted.
        return str(SnapshotRoot.path / "__per_case__")

    @classmethod
    def discovery_dirname(cls, *, test_location: Any) -> str:
        return str(SnapshotRoot.path)

    def owns_snapshot_collection(self, *, filepath: str, test_location: Any) -> bool:
        return filepath.endswith(f".{self.file_extension}")

    def read_snapshot_data_from_location(
        self, *, snapshot_location: str, snapshot_name: str, session_id: str
    ) -> str | None:
        if snapshot_location in SnapshotRoot.unchanged:
            SnapshotRoot.unchanged.discard(snapshot_location)
            return UNCHANGED
        return read_file(Path(snapshot_location))

    @classmethod
    def write_snapshot_collection(
        cls, *, snapshot_collection: Any, name_order: dict[str, int] | None = None
    ) -> None:
        # One file, one snapshot: written as every other snapshot writer writes it.
        data = next(iter(snapshot_collection)).data
        if not isinstance(data, str):
            raise TypeError(f"a snapshot is text, not {type(data).__name__}")
        write_file(Path(snapshot_collection.location), data)

    @classmethod
    def matches_test_location(cls, *, test_location: Any, snapshot_location: str) -> bool:
        return True

    def diff_lines(self, serialized_data: Any, snapshot_data: Any) -> Iterator[str]:
        for line in snapshot_diff(str(snapshot_data), str(serialized_data)):
            yield clean_line(line)


class TextSnapshotExtension(_CaseFileExtension):
    file_extension = "txt"


class SVGSnapshotExtension(_CaseFileExtension):
    file_extension = "svg"


class ShownSnapshotAssertion(SnapshotAssertion):
    """A snapshot assertion whose repr (pytest prints it as ``snapshot_text = …`` in a
    failure) is the snapshot's text through the sanitizer, not its raw bytes."""

    def __repr__(self) -> str:
        return clean(super().__repr__())


def shown_safely(assertion: SnapshotAssertion) -> SnapshotAssertion:
    """``assertion``, printing itself sanitized (syrupy builds the instance; we only narrow
    its class to one that adds nothing but a safe ``__repr__``)."""
    assertion.__class__ = ShownSnapshotAssertion
    return assertion
