"""How Workbench writes a user's files (review decisions, fixtures, manifests, snapshots).

:func:`write_atomically` replaces a file in one step: a crash leaves the old file or the new
one, never half of one. The new file keeps what the old one had that is not its text: its
permission bits (a new file gets the umask's default, as ``open()`` would give it, not
``mkstemp``'s 0600). The bytes are written as given: line endings are the caller's, never
translated.

The temporary file is ``.NAME.PID.RANDOM.wb-tmp`` beside the target. A writer killed
mid-write (SIGKILL, a power cut: nothing a signal handler could catch) leaves it behind, so
the next write of the same file removes the temporary files of its name whose writer process
is gone. Only that naming pattern is touched, and never a live process's file (nor, for the
``.NAME.xxxxxxxx`` files earlier versions left, one younger than ten minutes).

:func:`locked` holds an exclusive ``flock`` on ``.NAME.lock`` beside the file for a
read-modify-write, so two processes adding to the same file both keep what they added. The
holder removes the lock file before it lets go, so a user's folders keep no lock files; a
waiter that then gets the lock of a removed file (its path gone, or another inode there)
opens the path again, so two processes never hold locks on different inodes at once.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import secrets
import stat
import time
from collections.abc import Iterator
from pathlib import Path

TEMPORARY_SUFFIX = ".wb-tmp"
LOCK_TIMEOUT_S = 60.0
"""A read-modify-write takes milliseconds; a lock held this long belongs to a stuck process."""


class FileLockTimeout(OSError):
    """Another process held the file's lock for longer than :data:`LOCK_TIMEOUT_S`."""


def temporary_name(path: Path) -> str:
    """The name of a temporary file that will replace ``path``."""
    return f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}{TEMPORARY_SUFFIX}"


def _temporary_pattern(path: Path) -> re.Pattern[str]:
    return re.compile(
        rf"^\.{re.escape(path.name)}\.(?P<pid>[0-9]+)\.[0-9a-f]{{8}}{re.escape(TEMPORARY_SUFFIX)}$"
    )


def _legacy_pattern(path: Path) -> re.Pattern[str]:
    # What earlier versions left (tempfile.mkstemp's ".NAME.xxxxxxxx"), which names no process.
    return re.compile(rf"^\.{re.escape(path.name)}\.[a-z0-9_]{{8}}$")


LEGACY_AGE_S = 600.0
"""An earlier version's temporary file this old is no write in progress (a write takes ms)."""


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # Someone else's live process, or a number no process has: leave it.
    return True


def _stale(directory: Path, name: str, path: Path) -> bool:
    match = _temporary_pattern(path).match(name)
    if match is not None:
        return not _alive(int(match["pid"]))
    if _legacy_pattern(path).match(name) is None:
        return False
    try:
        return time.time() - os.lstat(directory / name).st_mtime > LEGACY_AGE_S
    except OSError:
        return False


def remove_stale_temporaries(path: Path) -> list[Path]:
    """Remove the temporary files a killed writer of ``path`` left; which went."""
    removed: list[Path] = []
    try:
        names = os.listdir(path.parent)
    except OSError:
        return removed
    for name in names:
        if not _stale(path.parent, name, path):
            continue
        stale = path.parent / name
        with contextlib.suppress(FileNotFoundError):
            stale.unlink()
            removed.append(stale)
    return removed


def write_atomically(path: Path, content: str | bytes) -> None:
    """Replace ``path`` with ``content`` (text is written as UTF-8, line endings untouched)."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(path)
    try:
        existing_mode: int | None = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        existing_mode = None
    temporary = path.parent / temporary_name(path)
    # 0o666 less the umask, as open() creates a file; an existing file's bits are copied below.
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    try:
        with os.fdopen(handle, "wb") as stream:
            if existing_mode is not None:
                os.fchmod(stream.fileno(), existing_mode)
            stream.write(data)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def newline_of(text: str) -> str:
    """A file's line ending, to write added lines with: CRLF if it uses it, else LF."""
    return "\r\n" if "\r\n" in text else "\n"


def lock_path(path: Path) -> Path:
    """The lock file of ``path``: ``.NAME.lock`` beside it."""
    return path.parent / f".{path.name}.lock"


@contextlib.contextmanager
def locked(path: Path, *, timeout: float = LOCK_TIMEOUT_S) -> Iterator[None]:
    """Hold the exclusive lock of ``path`` (across a read-modify-write of it)."""
    target = lock_path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + timeout
    delay = 0.001
    while True:
        handle = os.open(target, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            os.close(handle)
            if error.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise
        else:
            if _still_at(handle, target):
                break
            # The holder we waited for removed this lock file: lock the one now at the path.
            os.close(handle)
            continue
        if time.monotonic() >= deadline:
            raise FileLockTimeout(
                errno.EWOULDBLOCK,
                f"another process has held {target} for {timeout:.0f} s; "
                "is a workbench process stuck?",
            )
        time.sleep(delay)
        delay = min(delay * 2, 0.05)
    try:
        yield
    finally:
        # Removed while still held: a waiter that locks the removed inode sees it is gone.
        with contextlib.suppress(OSError):
            os.unlink(target)
        os.close(handle)  # Closing releases the lock.


def _still_at(handle: int, target: Path) -> bool:
    """Whether the locked file ``handle`` is still the one at ``target``."""
    try:
        at_path = os.stat(target)
    except FileNotFoundError:
        return False
    held = os.fstat(handle)
    return (held.st_dev, held.st_ino) == (at_path.st_dev, at_path.st_ino)
