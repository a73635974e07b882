"""Read a file that may be anything: only a regular file, only up to a limit, never waiting.

Fixture files and caches are found by name, and what is at a name can be a FIFO (reading it
waits for a writer forever), a device (a symlink to ``/dev/zero`` never ends), a directory,
or a file being swapped while it is read. Checking the path first leaves a race; this opens
without blocking, then checks what was opened.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Literal

from workbench.core.limits import format_size

READ_CHUNK = 1024 * 1024


class UnreadableFile(Exception):
    """A path whose bytes were not read, and why, in words for the user."""

    def __init__(self, reason: str, code: Literal["unreadable", "too-large"]) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


def read_regular_file(path: Path, limit: int) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes.

    Raises :class:`UnreadableFile` for anything else. The kind and size are taken from the
    open file (``fstat``), and the read stops past ``limit`` even if the file grows meanwhile.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        raise UnreadableFile(f"cannot read file: {error.strerror or error}", "unreadable") from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            kind = "a directory" if stat.S_ISDIR(info.st_mode) else "a FIFO, socket or device"
            raise UnreadableFile(f"not a regular file ({kind})", "unreadable")
        too_large = UnreadableFile(f"file is larger than {format_size(limit)}", "too-large")
        if info.st_size > limit:
            raise too_large
        # One read of the whole size: one bytes object, no copy to join. More only if the
        # file grew since fstat, and never past the limit.
        chunks = [os.read(descriptor, min(info.st_size, limit) + 1)]
        read = len(chunks[0])
        while chunks[-1]:
            if read > limit:
                raise too_large
            chunks.append(os.read(descriptor, min(READ_CHUNK, limit + 1 - read)))
            read += len(chunks[-1])
        return chunks[0] if len(chunks) <= 2 else b"".join(chunks)
    except OSError as error:
        raise UnreadableFile(f"cannot read file: {error.strerror or error}", "unreadable") from None
    finally:
        os.close(descriptor)
