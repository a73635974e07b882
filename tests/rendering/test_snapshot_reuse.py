"""A snapshot run after nothing changed reads nothing: a case whose key and committed files'
stamps are those it last matched with passes on a stat. Each kind of change (an input, a file
edited with its old size and time, deleted, replaced by a copy) has exactly its cases read and
compared again; files changed just now, and a memo that is corrupt, are never trusted."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.rendering.cache_cli import cli_with_cache, counting
from tests.testing.small_project import PYPROJECT
from workbench.cli import main
from workbench.config import load_config
from workbench.project import open_project
from workbench.rendering import cache as render_cache
from workbench.rendering.cache import CacheStats, RenderCache, RenderInputs
from workbench.rendering.matrix import snapshot_cases
from workbench.rendering.renderer import SnapshotRenderer
from workbench.review.store import StoredSnapshot
from workbench.testing.report import SnapshotRun, run_snapshots

REPO = Path(__file__).resolve().parents[2]
ONE_CASE = "calculator/calculate/arithmetic/done-60-dark"


@dataclasses.dataclass
class Result:
    run: SnapshotRun
    drawn: set[str]
    """Case ids drawn (not read back from the cache)."""
    read: set[str]
    """Case ids whose committed files were read."""
    stats: CacheStats

    @property
    def statuses(self) -> dict[str, str]:
        return {outcome.case.test_id: outcome.status for outcome in self.run.outcomes}


@dataclasses.dataclass
class Project:
    root: Path
    cache_dir: Path
    monkeypatch: pytest.MonkeyPatch

    @property
    def snaps(self) -> Path:
        return self.root / "snaps"

    def file(self, case_id: str, suffix: str) -> Path:
        return self.snaps / f"{case_id}{suffix}"

    def run(self, *, update: bool = False, select: str | None = None) -> Result:
        """Open the project afresh and run its snapshots through the cache, counting."""
        with counting(self.monkeypatch) as counted:
            project = open_project(config=load_config(self.root), installed=False)
            cache = RenderCache(self.cache_dir, RenderInputs(project.catalog, project.registry))
            cases = snapshot_cases(project.catalog, project.registry)
            if select is not None:
                cases = [case for case in cases if select in case.test_id]
            with SnapshotRenderer(project.catalog, project.registry, cache=cache) as renderer:
                run = run_snapshots(cases, renderer, self.snaps, update=update, select=select)
        read_back = {case.test_id for case in cases} & counted.read_ids(self.snaps)
        drawn = counted.drawn_ids
        return Result(run, drawn, read_back, cache.stats)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Project:
    """The calculator's fixture file, its snapshots recorded, and a first run that matched
    them all. Files of this test are seconds old, not the racy window's two."""
    root = tmp_path / "project"
    (root / "fixtures").mkdir(parents=True)
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    shutil.copy(REPO / "fixtures" / "calculator" / "calculate.yaml", root / "fixtures")
    monkeypatch.setattr(render_cache, "RACY_WINDOW_NS", 0)
    made = Project(root, tmp_path / "cache", monkeypatch)
    made.run(update=True)
    first = made.run()
    assert set(first.statuses.values()) == {"passed"}
    assert first.read == set(first.statuses)  # Compared once, so remembered.
    return made


def test_a_run_after_nothing_changed_reads_and_draws_nothing(project: Project) -> None:
    result = project.run()
    cases = set(result.statuses)
    assert set(result.statuses.values()) == {"passed"}
    assert result.drawn == set() and result.read == set()
    assert result.stats.reused == result.stats.unchanged == len(cases)
    assert f"reused ({len(cases)} on unchanged snapshot files), 0 drawn" in result.stats.summary()
    # A report still gets each case's pictures: the files that hold the drawing.
    outcome = next(item for item in result.run.outcomes if item.case.test_id == ONE_CASE)
    text = project.file(ONE_CASE, ".txt").read_text(encoding="utf-8")
    assert outcome.text == outcome.expected_text == text
    assert outcome.svg == project.file(ONE_CASE, ".svg").read_text(encoding="utf-8")
    assert outcome.picture and outcome.diff == ""


def test_a_file_edited_with_its_old_size_and_time_is_compared_again(project: Project) -> None:
    path = project.file(ONE_CASE, ".txt")
    before = path.stat()
    text = path.read_text(encoding="utf-8")
    edited = text.replace("=", "#", 1)
    assert edited != text and len(edited) == len(text)
    path.write_text(edited, encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # As rsync -t or tar leave it.

    result = project.run()
    assert result.read == {ONE_CASE}
    assert result.statuses[ONE_CASE] == "failed"
    assert result.drawn == set()  # The drawing did not change; its file did.
    assert [status for status in result.statuses.values() if status != "passed"] == ["failed"]


def test_a_deleted_file_is_noticed(project: Project) -> None:
    project.file(ONE_CASE, ".svg").unlink()

    result = project.run()
    assert result.read == {ONE_CASE}
    assert result.statuses[ONE_CASE] == "failed"


def test_a_file_replaced_by_a_copy_is_compared_again_then_remembered(project: Project) -> None:
    """What git checkout does: the same bytes in a new file put in its place."""
    path = project.file(ONE_CASE, ".svg")
    before = path.stat()
    copy = path.with_name("copy.tmp")
    shutil.copyfile(path, copy)
    os.utime(copy, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(copy, path)

    result = project.run()
    assert result.read == {ONE_CASE}
    assert set(result.statuses.values()) == {"passed"}
    assert project.run().read == set()


def test_a_changed_variant_reads_and_draws_only_its_cases(project: Project) -> None:
    fixture = project.root / "fixtures" / "calculate.yaml"
    text = fixture.read_text(encoding="utf-8")
    fixture.write_text(text.replace("label:", "label: Edited,", 1), encoding="utf-8")

    result = project.run()
    changed = {case for case in result.statuses if case.startswith("calculator/calculate/arith")}
    assert changed and result.drawn == result.read == changed
    assert {result.statuses[case] for case in changed} == {"failed"}


def test_files_changed_just_now_are_not_trusted(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A same-size edit in the same tick of a coarse clock keeps a stamp: a file that new
    is read on every run until it is older than the racy window."""
    monkeypatch.setattr(render_cache, "RACY_WINDOW_NS", 3600 * 10**9)
    project.run(update=True)  # Nothing to rewrite: the memo is kept as it was.
    os.utime(project.file(ONE_CASE, ".txt"))  # A new change time: the memo no longer holds.
    assert project.run().read == {ONE_CASE}
    assert project.run().read == {ONE_CASE}  # Not remembered: too recent.


def test_a_filtered_run_keeps_what_the_others_matched(project: Project) -> None:
    os.utime(project.file(ONE_CASE, ".txt"))
    filtered = project.run(select="arithmetic/done-60")
    assert filtered.read == {ONE_CASE}
    assert project.run().read == set()


@pytest.mark.parametrize(
    "content",
    [b"", b"{", b"[1, 2]", b'{"format": 0, "cases": {}}', b'{"format": 1, "cases": [1]}'],
)
def test_a_corrupt_or_foreign_memo_is_ignored(project: Project, content: bytes) -> None:
    (memo,) = project.cache_dir.glob("matched-*.json")
    memo.write_bytes(content)

    result = project.run()
    assert result.read == set(result.statuses)
    assert set(result.statuses.values()) == {"passed"}
    assert project.run().read == set()  # Written whole again.


MEMO_ID = "a/b/c/done-60-dark"
MEMO_STAMPS = ((10, 20, 30, 40), (11, 21, 31, 41))
FILES = StoredSnapshot("# the card\n", "<svg/>")
HASHES = [hashlib.sha256(text.encode()).hexdigest() for text in ("# the card\n", "<svg/>")]
EXACT = ["key", [10, 20, 30, 40], [11, 21, 31, 41], "picture", *HASHES]
NEAR_MISSES = [
    EXACT,
    ["other key", *EXACT[1:]],
    ["key", [10, 20, 30, 41], *EXACT[2:]],  # Stamps differ, texts the same: a fresh checkout.
    [*EXACT[:4], HASHES[1], HASHES[0]],  # Stamps the same: trusted without a read.
    ["key", [], [], "picture", *HASHES],  # Stamps too recent to keep.
    ["key", [], [], "picture", HASHES[0], "0" * 64],
    ["key", EXACT[2], EXACT[1], "picture", "0" * 64, HASHES[1]],
    [*EXACT[:3], 7, *HASHES],
    [*EXACT, "extra"],
    EXACT[:4],
]


def vouches(entry: object) -> bool:
    """The oracle: the key is the case's, and the stamps or else the texts are the same."""
    return (
        isinstance(entry, list)
        and len(entry) == 6
        and entry[0] == "key"
        and isinstance(entry[3], str)
        and (entry[1:3] == EXACT[1:3] or entry[4:6] == HASHES)
    )


@settings(max_examples=80, deadline=None)
@given(
    entry=st.sampled_from(NEAR_MISSES)
    | st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=4), inner),
        max_leaves=12,
    )
)
def test_only_a_memo_entry_of_the_same_key_and_files_vouches_for_a_case(entry: object) -> None:
    cache = RenderCache(Path("unused"), RenderInputs.__new__(RenderInputs))
    memo = render_cache.MatchedSnapshots(Path("unused.json"), cache, {MEMO_ID: entry})
    found = memo.picture(MEMO_ID, "key", MEMO_STAMPS, lambda: FILES)
    assert found == (entry[3] if vouches(entry) else None)  # type: ignore[index]
    gone = memo.picture(MEMO_ID, "key", (MEMO_STAMPS[0], None), lambda: FILES)
    assert gone is None  # A file is gone.


def test_a_fresh_checkout_reads_the_files_but_no_drawing(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CI restores the cache onto a new clone: every file is new, with the same bytes."""
    for path in sorted(project.snaps.rglob("*.*")):
        copy = path.with_name("copy.tmp")
        shutil.copyfile(path, copy)
        os.replace(copy, path)
    gets: list[str] = []
    get = RenderCache.get
    monkeypatch.setattr(RenderCache, "get", lambda self, key: gets.append(key) or get(self, key))

    result = project.run()
    assert set(result.statuses.values()) == {"passed"}
    assert result.read == set(result.statuses) and result.drawn == set() and gets == []
    assert result.stats.unchanged == len(result.statuses)
    assert project.run().read == set()  # The new stamps are kept: a stat next time.


def test_the_cli_says_what_passed_unchanged(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = cli_with_cache(monkeypatch, project.root, project.cache_dir.parent / "cli-cache")
    outputs = [runner.invoke(main, ["snapshot"]) for _ in range(2)]
    assert all(result.exit_code == 0 for result in outputs), outputs[-1].output
    assert "unchanged" not in outputs[0].output
    assert "40 reused (40 on unchanged snapshot files), 0 drawn" in outputs[1].output
    report = project.root / "report.md"
    third = runner.invoke(main, ["snapshot", "--report", str(report)])
    assert third.exit_code == 0, third.output
    # The report reads what it shows of the unchanged cases from their files.
    assert "40 cases: 0 changed, 0 new, 40 unchanged" in report.read_text(encoding="utf-8")


def test_pruning_lists_the_folder_only_when_its_known_size_could_pass_the_bound(
    tmp_path: Path,
) -> None:
    inputs = RenderInputs.__new__(RenderInputs)
    cache = RenderCache(tmp_path, inputs, max_bytes=10_000)
    for number in range(5):
        cache.put(f"{number:064x}", {"text": "x" * 100})
    assert cache.prune() == 0  # Measured: far below the bound.
    # Another process's entry, unknown to the size file: trusted until a write could pass it.
    stray = cache.path_for("f" * 64)
    stray.parent.mkdir()
    stray.write_bytes(os.urandom(20_000))
    assert RenderCache(tmp_path, inputs, max_bytes=10_000).prune() == 0
    writer = RenderCache(tmp_path, inputs, max_bytes=10_000)
    writer.put("e" * 64, {"text": os.urandom(10_000).hex()})
    os.utime(stray, (1, 1))  # The oldest.
    assert writer.prune() >= 1 and not stray.exists()
    # A day after the last measure, the folder is listed whatever was written.
    stray.write_bytes(os.urandom(20_000))
    os.utime(stray, (1, 1))
    size_file = tmp_path / render_cache.SIZE_FILE
    size_file.write_text('{"format": 1, "bytes": 0, "measured": 0}', encoding="utf-8")
    assert RenderCache(tmp_path, inputs, max_bytes=10_000).prune() >= 1
    assert not stray.exists()
