"""The CLI run in a project with the render cache on, in a cache folder of the test's own, and
what a run drew and read."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from workbench.rendering.matrix import SnapshotCase
from workbench.rendering.renderer import CardDrawer
from workbench.review import store as store_module


def cli_with_cache(monkeypatch: pytest.MonkeyPatch, root: Path, cache: Path) -> CliRunner:
    """A runner for commands run in ``root`` with their cache in ``cache`` (the suite turns
    the render cache off everywhere else)."""
    monkeypatch.delenv("WORKBENCH_NO_RENDER_CACHE", raising=False)
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(cache))
    monkeypatch.chdir(root)
    return CliRunner()


@dataclasses.dataclass
class Counted:
    """What ran inside :func:`counting`: the cases drawn (not read back from the cache), in
    order, and the snapshot files read."""

    drawn: list[SnapshotCase] = dataclasses.field(default_factory=list)
    read: list[Path] = dataclasses.field(default_factory=list)

    @property
    def drawn_ids(self) -> set[str]:
        return {case.test_id for case in self.drawn}

    def read_ids(self, snapshots: Path) -> set[str]:
        """The ids of the cases whose files under ``snapshots`` were read."""
        return {path.relative_to(snapshots).with_suffix("").as_posix() for path in self.read}


@contextmanager
def counting(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counted]:
    """Count the cases drawn and the snapshot files read until the block ends."""
    counted = Counted()
    draw, draw_portal, read_file = (
        CardDrawer.draw,
        CardDrawer.draw_portal_frame,
        store_module.read_file,
    )

    def counting_draw(self: CardDrawer, case: SnapshotCase) -> object:
        counted.drawn.append(case)
        return draw(self, case)

    def counting_portal(self: CardDrawer, case: SnapshotCase) -> object:
        counted.drawn.append(case)
        return draw_portal(self, case)

    def counting_read(path: Path) -> str | None:
        counted.read.append(path)
        return read_file(path)

    with monkeypatch.context() as patch:
        patch.setattr(CardDrawer, "draw", counting_draw)
        patch.setattr(CardDrawer, "draw_portal_frame", counting_portal)
        patch.setattr(store_module, "read_file", counting_read)
        yield counted
