"""Processes started for a source: each in its own process group, and nothing left behind.

A server that starts children (language servers, browsers, workers do) leaves them running
when only the server is killed. So every stdio server starts in a new session through the
:mod:`~workbench.sources.group_leader` script, and stopping it signals the whole group —
always, even when the server itself already exited, since its children may not have. The
script also takes the group down when Workbench dies without cleaning up.

Daemons that leave the group on purpose (``setsid``) escape any group kill; catching those
would take cgroups.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import anyio

GROUP_LEADER = Path(__file__).with_name("group_leader.py")
POLL_S = 0.02


def resolve_command(command: str, env: Mapping[str, str], cwd: str | None) -> str:
    """The executable ``command`` names, checked before spawning so errors say which it was.

    Raises :class:`FileNotFoundError` or :class:`PermissionError`, as a direct spawn would.
    """
    if os.sep in command or (os.altsep and os.altsep in command):
        path = Path(command) if Path(command).is_absolute() else Path(cwd or ".") / command
        if not path.exists():
            raise FileNotFoundError(2, "No such file or directory", command)
        if not os.access(path, os.X_OK) or path.is_dir():
            raise PermissionError(13, "Permission denied", command)
        return command
    found = shutil.which(command, path=env.get("PATH", os.defpath))
    if found is None:
        raise FileNotFoundError(2, "No such file or directory", command)
    return found


def leader_argv(command: str, args: Sequence[str]) -> list[str]:
    """The argv that runs ``command`` under the group leader script (isolated, no site)."""
    return [sys.executable, "-I", "-S", str(GROUP_LEADER), command, *args]


def group_members(pgid: int) -> list[int] | None:
    """Live (not zombie) processes in group ``pgid``; ``None`` where ``/proc`` cannot tell."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return None
    members = []
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        # pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses.
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) >= 3 and fields[0] != b"Z" and int(fields[2]) == pgid:
            members.append(int(name))
    return members


def group_alive(pgid: int) -> bool:
    """Whether any live process is still in group ``pgid``.

    Zombies do not count: where no init reaps orphans (some containers), a dead grandchild
    stays a group member forever, and waiting for it would only burn the grace period.
    """
    if sys.platform.startswith("linux"):
        members = group_members(pgid)
        if members is not None:
            return bool(members)
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def signal_group(pgid: int, signum: int) -> bool:
    """Send ``signum`` to the group; ``False`` when the group is already gone."""
    try:
        os.killpg(pgid, signum)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


async def wait_group_gone(pgid: int, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while group_alive(pgid):
        if time.monotonic() >= deadline:
            return False
        await anyio.sleep(POLL_S)
    return True


async def terminate_group(pgid: int, *, grace_s: float) -> bool:
    """SIGTERM the group, wait ``grace_s``, then SIGKILL it; ``True`` when it is empty.

    Safe to call after the leader exited: while any member lives, the kernel does not hand
    the group's id to a new process.
    """
    if not signal_group(pgid, signal.SIGTERM):
        return True
    if await wait_group_gone(pgid, grace_s):
        return True
    if not signal_group(pgid, signal.SIGKILL):
        return True
    return await wait_group_gone(pgid, grace_s)


def kill_group_now(pgid: int) -> None:
    """SIGKILL the group without waiting (for paths that cannot await)."""
    with contextlib.suppress(OSError):
        os.killpg(pgid, signal.SIGKILL)
