"""Watch a project's files and reload it after each batch of changes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

from watchfiles import Change, DefaultFilter, awatch

from workbench.reload.reloader import ProjectReloader, ReloadOutcome

WATCHED_SUFFIXES = (".py", ".yaml", ".yml", ".json", ".toml")
STEP_MS = 30
"""How long the watcher waits for more changes after one arrives: an editor's save is often
several events (write, rename, chmod) within a few milliseconds."""
DEBOUNCE_MS = 300
"""The longest a batch may keep growing before it is reloaded."""


class ChangeFilter(DefaultFilter):
    """watchfiles' defaults (no .git, .venv, __pycache__, editor swap files), and only files
    a reload reads: Python modules, fixtures, manifests and pyproject.toml."""

    def __call__(self, change: Change, path: str) -> bool:
        return path.endswith(WATCHED_SUFFIXES) and super().__call__(change, path)


async def reloads(
    reloader: ProjectReloader, *, stop: asyncio.Event | None = None
) -> AsyncIterator[ReloadOutcome]:
    """Yield a reloaded project after every batch of relevant changes, until ``stop`` is set.

    The reload runs in a thread (it reads files and imports modules) while the watcher keeps
    collecting what is saved meanwhile. When the set of watched paths changes (a new tool, a
    new fixture directory) or a watched single file was replaced, the watcher starts again.
    """
    while stop is None or not stop.is_set():
        watched = reloader.watched_paths()
        files = {path for path in watched if path.is_file()}
        restart = False
        async for changes in awatch(
            *watched,
            watch_filter=ChangeFilter(),
            step=STEP_MS,
            debounce=DEBOUNCE_MS,
            stop_event=stop,
        ):
            changed = {Path(path).resolve() for _change, path in changes}
            relevant = {path for path in changed if reloader.is_relevant(path)}
            if not relevant:
                continue
            yield await asyncio.to_thread(reloader.reload, relevant)
            # An editor that saves by renaming replaces a watched file's inode: watch it anew.
            if set(reloader.watched_paths()) != set(watched) or relevant & files:
                restart = True
                break
        if not restart:
            return
