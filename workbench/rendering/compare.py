"""One snapshot case compared with its committed files: the one place that decides whether a
case is unchanged, for the snapshot run, the pytest plugin's report and ``workbench review``.

With the render cache's match memo (:class:`~workbench.rendering.cache.MatchedSnapshots`), a
case whose key and files' stamps are those it last matched with passes on a ``stat``: it is
neither drawn nor are its files read. Otherwise it is drawn (or read back from the cache), its
files are read and compared, and a match is remembered for the next run.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from workbench.rendering.matrix import SnapshotCase, snapshot_text_of
from workbench.review.store import SnapshotStore, StoredSnapshot

if TYPE_CHECKING:
    from workbench.rendering.cache import MatchedSnapshots
    from workbench.rendering.renderer import RenderedSnapshot, SnapshotRenderer


@dataclass(frozen=True)
class Comparison:
    """A case beside its committed files: either passed on their stamps (``drawn`` and
    ``committed`` are ``None``: the files hold the drawing) or drawn and read."""

    case: SnapshotCase
    picture: str
    """The drawing's content hash, as review decisions name it."""
    drawn: RenderedSnapshot | None
    committed: StoredSnapshot | None

    @cached_property
    def text(self) -> str | None:
        """The drawing's text snapshot (with its header line), if it was drawn (built once:
        a run asks for it two or three times a case)."""
        return snapshot_text_of(self.case, self.drawn.text) if self.drawn is not None else None

    @property
    def unchanged(self) -> bool:
        """The committed files hold the drawing (known without reading them, or compared)."""
        if self.drawn is None or self.committed is None:
            return True
        return self.committed.text == self.text and self.committed.svg == self.drawn.svg


def compare_case(
    case: SnapshotCase,
    renderer: SnapshotRenderer,
    store: SnapshotStore,
    matched: MatchedSnapshots | None,
) -> Comparison:
    """``case`` drawn (or read back) and its files read; unless neither the case nor its files
    changed since they last matched, which is known from a ``stat`` of the files."""
    files = matched.stamp(case, store) if matched is not None else None
    picture = files.unchanged() if files is not None else None
    if picture is not None:
        return Comparison(case, picture, None, None)
    rendered = renderer.render(case)
    comparison = Comparison(case, rendered.picture, rendered, store.read(case.address))
    if files is not None and comparison.unchanged:
        assert comparison.committed is not None
        files.matched(rendered.picture, comparison.committed)
    return comparison
