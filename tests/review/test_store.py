"""The snapshot store: a case's address, its files, and what counts as a snapshot."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench.config import load_config
from workbench.project import open_project
from workbench.rendering.matrix import snapshot_cases
from workbench.review.cases import CaseAddress, CaseKey, parse_case_id
from workbench.review.store import SnapshotStore

REPO = Path(__file__).resolve().parents[2]

_PART = st.from_regex(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,12}", fullmatch=True)
ADDRESSES = st.builds(
    CaseAddress,
    tool=_PART,
    api=_PART,
    variant=_PART,
    prefix=st.from_regex(r"[a-z][a-z-]{0,16}", fullmatch=True),
    width=st.integers(min_value=1, max_value=9999),
    theme=st.from_regex(r"[a-z]{1,8}", fullmatch=True),
)


@pytest.mark.parametrize(
    ("key", "case_id"),
    [
        (CaseKey("calc", "add", "two", "done", 60, "dark"), "calc/add/two/done-60-dark"),
        (
            CaseKey("fs", "read", "big", "args-streaming", 100, "light"),
            "fs/read/big/args-streaming-100-light",
        ),
        # Every surface but the open card is named by itself, not by its phase.
        (CaseKey("fs", "read", "big", "done", 80, "dark", "portal"), "fs/read/big/portal-80-dark"),
        (
            CaseKey("fs", "read", "big", "done", 60, "light", "collapsed"),
            "fs/read/big/collapsed-60-light",
        ),
        (
            CaseKey("sh", "run", "v1.2", "failed", 100, "dark", "look-codex"),
            "sh/run/v1.2/look-codex-100-dark",
        ),
        (
            CaseKey("sh", "run", "v_2", "done", 100, "dark", "model-gemini-cli"),
            "sh/run/v_2/model-gemini-cli-100-dark",
        ),
    ],
)
def test_a_case_key_is_named_by_its_address_and_reads_back(key: CaseKey, case_id: str) -> None:
    assert key.id == case_id
    assert key.name == case_id.rsplit("/", 1)[1]
    assert key.variant_id == case_id.rsplit("/", 1)[0]
    assert CaseAddress.parse(case_id) == key.address
    store = SnapshotStore(Path("/snapshots"))
    text, svg = store.paths(key.address)
    assert (text.as_posix(), svg.as_posix()) == (
        f"/snapshots/{case_id}.txt",
        f"/snapshots/{case_id}.svg",
    )
    assert store.address_of(text) == store.address_of(svg) == key.address


@pytest.mark.parametrize(
    "text",
    [
        "",
        "calc/add/two",
        "calc/add/two/done-60",
        "calc/add/two/done-0-dark",  # no width 0
        "calc/add/two/done-60-Dark",
        "calc/add/two/60-dark",
        "calc/add/two/three/done-60-dark",
        "calc/add/.hidden/done-60-dark",
        "calc/add/two/done-12345-dark",
        "calc/add/two/README",
    ],
)
def test_what_is_not_a_case_id_has_no_address(text: str) -> None:
    assert CaseAddress.parse(text) is None
    assert parse_case_id(text) is None


@given(ADDRESSES)
def test_every_address_round_trips_through_its_id_and_its_files(address: CaseAddress) -> None:
    assert CaseAddress.parse(address.id) == address
    store = SnapshotStore(Path("/root"))
    for path in store.paths(address):
        assert store.address_of(path) == address


def test_every_case_of_the_bundled_matrix_round_trips() -> None:
    project = open_project(config=load_config(REPO))
    cases = snapshot_cases(project.catalog, project.registry)
    store = SnapshotStore(REPO / "snapshots")
    for case in cases:
        assert CaseAddress.parse(case.test_id) == case.address == case.key.address
        assert case.key.id == case.test_id and case.key.name == case.name
        text, _ = store.paths(case.address)
        # The committed snapshots are where the store looks for them.
        assert text.is_file(), text
    assert store.unused({case.test_id for case in cases}) == []


def test_written_snapshots_read_back_and_only_case_files_are_ever_unused(tmp_path: Path) -> None:
    store = SnapshotStore(tmp_path / "snapshots")
    kept = CaseAddress("calc", "add", "two", "done", 60, "dark")
    gone = CaseAddress("calc", "add", "old", "portal", 80, "light")
    assert store.read(kept).missing
    store.write(kept, "# text\n card\n", "<svg/>\n")
    store.write(gone, "old\n", "<svg>old</svg>")
    assert store.read(kept).text == "# text\n card\n"
    assert store.read(kept).svg == "<svg/>\n"
    assert store.paths(kept)[0].read_bytes() == b"# text\n card\n"
    readme = tmp_path / "snapshots" / "calc" / "README.md"
    notes = tmp_path / "snapshots" / "calc" / "add" / "old" / "notes.txt"
    readme.write_text("keep me")
    notes.write_text("keep me too")
    assert store.unused({kept.id}, select="two") == []  # a filtered run says nothing of others
    assert store.unused({kept.id}) == sorted(store.paths(gone))
    assert store.delete_unused({kept.id}) == sorted(store.paths(gone))
    assert store.read(gone).missing and not store.read(kept).missing
    assert readme.is_file() and notes.is_file()
    assert SnapshotStore(tmp_path / "nowhere").unused(set()) == []
