"""Writers of the review file: two at once keep every decision, a file keeps its mode, and a
writer killed mid-write leaves nothing the next write does not clear."""

from __future__ import annotations

import multiprocessing
import os
import stat
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from workbench.review.decisions import make_decision, read_review_file, record_decisions

PER_WRITER = 300


def _record_many(path: str, writer: str) -> None:
    for number in range(PER_WRITER):
        case_id = f"tool{writer}/api/v{number}/done-60-dark"
        record_decisions(Path(path), [make_decision(case_id, "accepted", "0" * 16, writer)])


def test_two_processes_recording_at_once_keep_every_decision(tmp_path: Path) -> None:
    path = tmp_path / "reviews.yaml"
    context = multiprocessing.get_context("spawn")
    writers = [context.Process(target=_record_many, args=(str(path), name)) for name in "ab"]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(timeout=300)
    for writer in writers:
        if writer.is_alive():
            writer.kill()
    assert [writer.exitcode for writer in writers] == [0, 0]
    review = read_review_file(path)
    assert not review.problems
    assert len(list(review)) == 2 * PER_WRITER


@pytest.fixture
def umask_022() -> Iterator[None]:
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_review_file_gets_the_umask_default_and_an_old_one_keeps_its_mode(
    tmp_path: Path, umask_022: None
) -> None:
    path = tmp_path / "reviews.yaml"
    record_decisions(path, [make_decision("t/a/v/done-60-dark", "accepted", "0" * 16, "Ann")])
    assert _mode(path) == 0o644
    path.chmod(0o664)
    record_decisions(path, [make_decision("t/a/v/done-60-light", "accepted", "0" * 16, "Ann")])
    assert _mode(path) == 0o664


KILLED_MID_WRITE = textwrap.dedent(
    """\
    import os, signal, sys
    from pathlib import Path
    from workbench.review.decisions import make_decision, record_decisions

    # Die the way SIGKILL kills: the new file is written, the rename never happens.
    os.replace = lambda *args, **kwargs: os.kill(os.getpid(), signal.SIGKILL)
    record_decisions(
        Path(sys.argv[1]), [make_decision("t/a/v/done-60-light", "accepted", "1" * 16, "Bo")]
    )
    """
)


def test_the_write_after_a_killed_writer_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "reviews.yaml"
    record_decisions(path, [make_decision("t/a/v/done-60-dark", "accepted", "0" * 16, "Ann")])
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_MID_WRITE, str(path)], timeout=60, check=False
    )
    assert killed.returncode == -9
    temporaries = [entry for entry in tmp_path.iterdir() if entry.name.startswith(".reviews.yaml.")]
    assert temporaries  # The killed one's.
    record_decisions(path, [make_decision("t/a/v/portal-60-dark", "accepted", "2" * 16, "Cy")])
    left = sorted(entry.name for entry in tmp_path.iterdir())
    assert left == ["reviews.yaml"]
    assert len(list(read_review_file(path))) == 2
