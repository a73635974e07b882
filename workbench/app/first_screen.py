"""The first screen of the last start, kept to be shown at the next one while the project loads.

A start's first useful frame (the tree, the first variant's card) needs Workbench's models,
the project and its surfaces: three times what a bare Textual app costs to start. The frame
those produce depends only on files and a few settings, so each start keeps it: the next
start with the same command line, folder, environment, terminal size and theme shows it at
once, loads the project behind it, and swaps the real screen in when it is ready (the two
are the same picture, so the swap does not show). Keys typed meanwhile are kept and replayed.

The picture is kept with the stamp (size, times, inode) of every file that went into it: the
Python modules the start imported (Workbench, the tools' code, Textual, Rich), every file and
folder under the project's fixture folders and tool folders (what `workbench dev` watches),
the config file, each folder where a config file could appear and each folder on Python's
path (where a plugin is installed). One stamp that differs, a file that came or went, and the
start draws as if nothing were kept; a file changed while the start loaded keeps it from
keeping its frame. A picture that cannot be read is ignored. ``WORKBENCH_NO_CACHE=1`` turns
this off with the other caches.

This module imports nothing heavy: the start reads it before its first frame.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.fixtures.cache import cache_dir, stamp_of

FORMAT = 1
"""Changed whenever what a file holds changes: older files are then ignored."""
KEEP_SIZES = 4
"""Pictures kept per command line: one per terminal size and theme, the latest first."""
MAX_FILES = 64
"""Files kept in the folder (one per command line, folder and environment): past this, the
least recently written go."""
MAX_INPUTS = 20_000
"""More files than this in the project's folders: checking them would cost more than it
saves, so nothing is kept."""
SKIPPED_FOLDERS = frozenset({"__pycache__", "node_modules"})
"""Folders under a watched one whose contents never change a drawing (and dot-folders)."""
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
"""What a terminal acts on (C0, DEL, C1) or cannot print (a lone surrogate): never in a
picture. Not ``str.isprintable``: a no-break space or an emoji's joiner is drawn as it is."""
ENVIRONMENT = ("NO_COLOR", "FORCE_COLOR", "COLORTERM", "TERM", "LANG", "LC_ALL", "LC_CTYPE")
"""Environment variables a start's drawing may depend on (with every ``WORKBENCH_``,
``TEXTUAL`` and ``PYTHON`` one)."""


@dataclass(frozen=True)
class KeptFrame:
    """One frame: its size, theme and lines, each a run of ``(text, style index)`` into
    ``styles`` (Rich style definitions, ``""`` for none)."""

    width: int
    height: int
    theme: str
    styles: tuple[str, ...]
    lines: tuple[tuple[tuple[str, int], ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "size": [self.width, self.height],
            "theme": self.theme,
            "styles": list(self.styles),
            "lines": [[[text, style] for text, style in line] for line in self.lines],
        }

    @classmethod
    def from_json(cls, data: Any) -> KeptFrame:
        """The picture ``data`` holds; ``ValueError`` (or ``TypeError``, ``KeyError``) when it
        is not one."""
        width, height = (int(value) for value in data["size"])
        styles = tuple(str(style) for style in data["styles"])
        lines = tuple(
            tuple((str(text), int(style)) for text, style in line) for line in data["lines"]
        )
        if len(lines) != height or any(
            not 0 <= style < len(styles) for line in lines for _, style in line
        ):
            raise ValueError("lines do not match the picture's size or styles")
        # What reaches the terminal from here is never a control sequence, whoever wrote it.
        if any(_CONTROLS.search(text) for line in lines for text, _ in line):
            raise ValueError("a control character in the picture's text")
        # The styles are parsed where the picture is drawn: one Rich cannot parse was a crash.
        from rich.errors import StyleSyntaxError
        from rich.style import Style

        try:
            for style in styles:
                Style.parse(style)
        except StyleSyntaxError as error:
            raise ValueError(f"a style that is not one: {error}") from None
        return cls(width, height, str(data["theme"]), styles, lines)


def _identity(cwd: Path, command: Sequence[str]) -> dict[str, Any]:
    """What, besides files, a start's first frame depends on."""
    environment = {
        name: value
        for name, value in os.environ.items()
        if name in ENVIRONMENT or name.startswith(("WORKBENCH_", "TEXTUAL", "PYTHON"))
    }
    return {
        "format": FORMAT,
        "python": [sys.executable, sys.version, list(sys.path)],
        "cwd": str(cwd),
        "command": list(command),
        "environment": dict(sorted(environment.items())),
    }


class FirstScreenStore:
    """The pictures kept for one command line in one folder (a file in the cache folder)."""

    def __init__(self, file: Path, identity: dict[str, Any]) -> None:
        self.file = file
        self.identity = identity
        self._pictures: list[KeptFrame] | None = None
        self._inputs: dict[str, Any] | None = None

    @classmethod
    def for_start(cls, command: Sequence[str], cwd: Path | None = None) -> FirstScreenStore | None:
        """The store for ``command`` (the start's options, as they decide what it shows) run
        in ``cwd``; ``None`` when caches are turned off."""
        folder = cache_dir(Path.cwd(), project=False)
        if folder is None:
            return None
        identity = _identity((cwd or Path.cwd()).resolve(), command)
        digest = hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()
        return cls(folder / "first-screen" / f"{digest[:32]}.json", identity)

    def picture(self, width: int, height: int, theme: str) -> KeptFrame | None:
        """The kept picture of this size and theme, if every input it came from is unchanged."""
        return next(
            (
                picture
                for picture in self._current()
                if (picture.width, picture.height, picture.theme) == (width, height, theme)
            ),
            None,
        )

    def _current(self) -> list[KeptFrame]:
        """The pictures still true (read and checked once)."""
        if self._pictures is None:
            self._pictures = []
            data = self._read()
            if data is not None:
                self._inputs = data["inputs"]
                self._pictures = data["pictures"]
        return self._pictures

    def _read(self) -> dict[str, Any] | None:
        try:
            data = json.loads(self.file.read_bytes())
            if data.get("identity") != self.identity:
                return None  # Another start's file under the same name: never shown.
            pictures = [KeptFrame.from_json(item) for item in data["pictures"]]
            inputs = data["inputs"]
            if not isinstance(inputs.get("files"), list) or not isinstance(
                inputs.get("absent"), list
            ):
                return None
            if not _unchanged(inputs):
                return None  # Drawn from files that changed since: never shown.
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return None  # Missing, cut short, foreign: drawn as if nothing were kept.
        return {"pictures": pictures, "inputs": inputs}

    def save(
        self,
        picture: KeptFrame,
        inputs: Iterable[Path],
        absent: Iterable[Path],
        unchanged_since: int | None = None,
    ) -> bool:
        """Keep ``picture``, drawn from the files ``inputs`` (and the imported modules) with
        each of ``absent`` missing; whether anything was written (nothing when the same
        picture is kept already, or an input changed after ``unchanged_since``, a ctime in
        ns: it may have been read before the change, and would be stamped after it). Run off
        the UI thread: it reads every input's stamp."""
        stamps = _stamps(inputs, absent)
        if stamps is None or (
            unchanged_since is not None
            and any(
                stamp is not None and stamp[2] >= unchanged_since for _, stamp in stamps["files"]
            )
        ):
            return False
        self._current()
        kept: list[KeptFrame] = []
        if self._inputs is not None and _unchanged(self._inputs):
            # The other sizes' frames are still true: kept, checked from now on against the
            # files of both (a start that drew from a kept frame imports other modules).
            kept = list(self._pictures or [])
            if picture in kept:
                return False
            files = {file: stamp for file, stamp in self._inputs["files"]}
            files.update((file, stamp) for file, stamp in stamps["files"])
            stamps = {
                "files": [[file, stamp] for file, stamp in files.items()],
                "absent": sorted({*self._inputs["absent"], *stamps["absent"]}),
            }
        others = [
            other
            for other in kept
            if (other.width, other.height, other.theme)
            != (picture.width, picture.height, picture.theme)
        ]
        pictures = [picture, *others][:KEEP_SIZES]
        data = {
            "identity": self.identity,
            "inputs": stamps,
            "pictures": [item.to_json() for item in pictures],
        }
        from workbench.core.file_writes import write_atomically

        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(self.file, json.dumps(data, separators=(",", ":")))
        except OSError:
            return False  # A read-only cache: the next start draws as this one did.
        self._pictures, self._inputs = pictures, stamps
        _prune(self.file.parent)
        return True


def _prune(folder: Path) -> None:
    """Remove the least recently written files past :data:`MAX_FILES` (one per folder a user
    ever started Workbench in would otherwise pile up)."""
    try:
        files = [(entry.stat().st_mtime_ns, entry.path) for entry in os.scandir(folder)]
    except OSError:
        return
    for _, path in sorted(files, reverse=True)[MAX_FILES:]:
        try:
            os.unlink(path)
        except OSError:
            continue  # Another start pruned it first.


def _module_files() -> list[str]:
    """The source file of every module imported so far."""
    files = set()
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if isinstance(file, str) and os.path.isabs(file):
            files.add(file)
    return sorted(files)


def _walk(path: Path, found: dict[str, Any]) -> bool:
    """Stamp ``path`` and, for a folder, everything under it (dot-folders and caches left
    out) into ``found``; ``False`` past :data:`MAX_INPUTS`."""
    pending = [str(path)]
    while pending:
        current = pending.pop()
        found[current] = stamp_of(current)
        if len(found) > MAX_INPUTS:
            return False
        try:
            with os.scandir(current) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        if not entry.name.startswith(".") and entry.name not in SKIPPED_FOLDERS:
                            pending.append(entry.path)
                    else:
                        found[entry.path] = stamp_of(entry.path)
        except (NotADirectoryError, FileNotFoundError, PermissionError):
            continue
        except OSError:
            continue
    return True


def _stamps(inputs: Iterable[Path], absent: Iterable[Path]) -> dict[str, Any] | None:
    """What :func:`_unchanged` checks: each file's stamp, each absent path; ``None`` when
    there are too many to check quickly."""
    found: dict[str, Any] = {file: stamp_of(file) for file in _module_files()}
    # Each folder on the path, not walked: a package installed or removed there (a plugin's
    # entry point, a module a tool could not import) changes the folder, not a stamped file.
    for folder in sys.path:
        if folder:
            found.setdefault(folder, stamp_of(folder))
    for path in inputs:
        if not _walk(path, found):
            return None
    return {
        "files": [
            [file, list(stamp) if stamp is not None else None] for file, stamp in found.items()
        ],
        "absent": sorted(str(path) for path in absent),
    }


def _unchanged(inputs: dict[str, Any]) -> bool:
    """Whether every stamped file is as it was and every absent path still absent."""
    for file, stamp in inputs["files"]:
        now = stamp_of(file)
        if (list(now) if now is not None else None) != stamp:
            return False
    return not any(os.path.lexists(path) for path in inputs["absent"])
