"""The one atomic-write helper: bytes as given, the file's mode kept, a killed writer's
temporary file cleared by the next write (never a live writer's), a lock that says who
waited too long."""

from __future__ import annotations

import fcntl
import os
import signal
import stat
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from workbench.core.file_writes import (
    FileLockTimeout,
    locked,
    temporary_name,
    write_atomically,
)


def test_text_is_written_as_given_and_an_existing_file_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(b"old")
    path.chmod(0o640)
    write_atomically(path, "one\r\ntwo\n")
    assert path.read_bytes() == b"one\r\ntwo\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_new_file_gets_the_umask_default(tmp_path: Path) -> None:
    previous = os.umask(0o027)
    try:
        write_atomically(tmp_path / "new.txt", b"data")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o640


KILLED = textwrap.dedent(
    """\
    import os, signal, sys
    from pathlib import Path
    from workbench.core.file_writes import write_atomically

    os.replace = lambda *args, **kwargs: os.kill(os.getpid(), signal.SIGKILL)
    write_atomically(Path(sys.argv[1]), "x" * 100_000)
    """
)


def test_a_killed_writers_file_goes_at_the_next_write_and_a_live_writers_stays(
    tmp_path: Path,
) -> None:
    path = tmp_path / "data.txt"
    killed = subprocess.run([sys.executable, "-c", KILLED, str(path)], timeout=60, check=False)
    assert killed.returncode == -signal.SIGKILL
    [left] = list(tmp_path.iterdir())
    assert left.name.startswith(".data.txt.")
    live = tmp_path / temporary_name(path)  # This process is alive: its file is in use.
    live.write_text("in progress")
    unrelated = tmp_path / ".data.txt.backup"
    unrelated.write_text("a person's")
    write_atomically(path, "new")
    assert sorted(entry.name for entry in tmp_path.iterdir()) == sorted(
        [".data.txt.backup", live.name, "data.txt"]
    )


def test_an_old_temporary_file_of_an_earlier_version_goes_and_a_fresh_one_stays(
    tmp_path: Path,
) -> None:
    path = tmp_path / "reviews.yaml"
    old, fresh = tmp_path / ".reviews.yaml.k2x_9q0a", tmp_path / ".reviews.yaml.m3n4b5v6"
    for leftover in (old, fresh):
        leftover.write_text("half a file")
    hour_ago = time.time() - 3600
    os.utime(old, (hour_ago, hour_ago))
    write_atomically(path, "new")
    assert sorted(entry.name for entry in tmp_path.iterdir()) == [fresh.name, "reviews.yaml"]


def test_a_lock_held_too_long_is_an_error_that_names_the_lock(tmp_path: Path) -> None:
    path = tmp_path / "reviews.yaml"
    held = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with locked(path):
            held.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(30)
        with (
            pytest.raises(FileLockTimeout, match=r"\.reviews\.yaml\.lock"),
            locked(path, timeout=0.2),
        ):
            pass
    finally:
        release.set()
        holder.join(30)
    with locked(path, timeout=5):
        pass


COUNTING_WRITER = """
import sys
from pathlib import Path
from workbench.core.file_writes import locked, write_atomically

path = Path(sys.argv[1])
for _ in range(int(sys.argv[2])):
    with locked(path):
        count = int(path.read_text()) if path.exists() else 0
        write_atomically(path, str(count + 1))
"""


def test_writers_racing_for_a_removed_lock_file_lose_no_count_and_leave_no_lock(
    tmp_path: Path,
) -> None:
    # Each holder removes the lock file as it lets go; a waiter that locked the removed inode
    # must lock the new one, or two writers would read the same count and one add would be lost.
    path = tmp_path / "count.txt"
    writers = [
        subprocess.Popen([sys.executable, "-c", COUNTING_WRITER, str(path), "100"])
        for _ in range(4)
    ]
    for writer in writers:
        assert writer.wait(timeout=120) == 0
    assert path.read_text() == "400"
    assert sorted(entry.name for entry in tmp_path.iterdir()) == ["count.txt"]


def test_a_waiter_that_locked_a_removed_lock_file_locks_the_one_at_the_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "reviews.yaml"
    lock_file = tmp_path / ".reviews.yaml.lock"
    real_flock = fcntl.flock
    removed: list[int] = []

    def flock_after_the_holder_let_go(handle: int, operation: int) -> None:
        if not removed:
            # The holder lets go between the waiter's open and its flock: it removes its file.
            removed.append(handle)
            os.unlink(lock_file)
        real_flock(handle, operation)

    monkeypatch.setattr(fcntl, "flock", flock_after_the_holder_let_go)
    with locked(path):
        probe = os.open(lock_file, os.O_RDWR)  # Raises if the waiter kept the removed file.
        try:
            with pytest.raises(BlockingIOError):
                real_flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(probe)
    assert removed
    assert not lock_file.exists()
