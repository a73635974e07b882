"""Processes started for a source: each in a session of its own, and nothing left behind.

A server that starts children (language servers, browsers, workers do) leaves them running
when only the server is killed. So every stdio server starts in a new session through the
:mod:`~workbench.sources.group_leader` script, and stopping it signals every process in that
session — always, even when the server itself already exited, since its children may not
have. The session, not the process group: a child that moves to a group of its own
(``setpgid(0, 0)``, as shell job control and ``process_group=0`` do) stays in the session,
and only a new session (``setsid``) leaves it. The script also ends the session when
Workbench dies without cleaning up.

On Linux the members are found in ``/proc``; elsewhere the group is signalled instead.
Daemons that leave the session on purpose (``setsid``) escape; catching those would take
cgroups, which an unprivileged user cannot create.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import anyio
import anyio.abc

from workbench.sources.group_leader import session_members

GROUP_LEADER = Path(__file__).with_name("group_leader.py")
POLL_S = 0.02
KILL_WAIT_S = 0.5
"""How long a process killed at once (a cancelled start) has to be reaped."""
SPAWN_WAIT_S = 1.0
"""How long a cancelled start waits for its spawn to end. It takes milliseconds, unless asyncio's
own pipe-connecting task was cancelled before it ran (``asyncio.run`` ending cancels every
task): asyncio then kills what it started (the group leader, whose server gets SIGTERM as it
dies) but waits for ever for an exit it never sees, and waiting on it would hang ours. Cancelled
again, it stops waiting; a ctrl-c still ends a command within `bench/faults.py`'s 3 s."""


@dataclass(frozen=True)
class StdioLaunch:
    """What to run: an ``mcpServers`` stdio entry, with its environment already decided."""

    command: str
    args: Sequence[str] = ()
    env: Mapping[str, str] | None = None
    cwd: str | None = None


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


def close_transport(process: anyio.abc.Process) -> None:
    """Close the asyncio subprocess transport: nothing public does once its pipes are gone."""
    transport = getattr(getattr(process, "_process", None), "_transport", None)
    close = getattr(transport, "close", None)
    if callable(close):
        with contextlib.suppress(OSError):
            close()


async def spawn_in_session(launch: StdioLaunch) -> anyio.abc.Process:
    """Start ``launch`` under the group leader, in a new session, run to its end even when
    we are cancelled.

    asyncio connects a new process's pipes in a task of its own; a cancel that lands before
    they are all connected (a ctrl-c during the start: ``asyncio.run`` cancels every task)
    leaves ``create_subprocess_exec`` waiting for them for ever (CPython 3.11), with the
    server started and nobody to end it. Spawning takes milliseconds, so a cancel waits for
    it (at most :data:`SPAWN_WAIT_S`), kills what it started, and only then goes through.
    Raises :class:`FileNotFoundError` or :class:`PermissionError` for a command that cannot
    run.
    """
    env = dict(launch.env) if launch.env is not None else dict(os.environ)
    executable = resolve_command(launch.command, env, launch.cwd)
    argv = leader_argv(executable, launch.args)
    spawning = asyncio.ensure_future(
        anyio.open_process(argv, env=env, cwd=launch.cwd, start_new_session=True)
    )
    try:
        return await asyncio.shield(spawning)
    except asyncio.CancelledError:
        deadline = time.monotonic() + SPAWN_WAIT_S
        while not spawning.done() and (left := deadline - time.monotonic()) > 0:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait({spawning}, timeout=left)
        if not spawning.done():
            spawning.cancel()
        elif not spawning.cancelled() and spawning.exception() is None:
            await kill_at_once(spawning.result())
        raise


async def kill_at_once(process: anyio.abc.Process) -> None:
    """SIGKILL the session ``process`` leads, reap it (bounded), and close its pipes."""
    kill_group_now(process.pid)
    with contextlib.suppress(asyncio.CancelledError), anyio.move_on_after(KILL_WAIT_S):
        await process.wait()
    close_transport(process)


def _members(sid: int) -> list[int] | None:
    return session_members(sid) if sys.platform.startswith("linux") else None


def _group_exists(pgid: int) -> bool:
    """Whether process group ``pgid`` has a process (where ``/proc`` cannot list members)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def group_alive(sid: int) -> bool:
    """Whether any live process is still in the session (elsewhere: the group) ``sid``.

    Zombies do not count: where no init reaps orphans (some containers), a dead grandchild
    stays a member forever, and waiting for it would only burn the grace period.
    """
    members = _members(sid)
    return bool(members) if members is not None else _group_exists(sid)


def signal_group(sid: int, signum: int) -> bool:
    """Send ``signum`` to every process of the session ``sid``; ``False`` when none is left.

    The group first (one call reaches every process still in it), then each member that
    moved to a group of its own.
    """
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(sid, signum)
    members = _members(sid)
    if members is None:
        return _group_exists(sid)
    for pid in members:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signum)
    return bool(members)


async def wait_group_gone(pgid: int, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while group_alive(pgid):
        if time.monotonic() >= deadline:
            return False
        await anyio.sleep(POLL_S)
    return True


async def terminate_group(pgid: int, *, grace_s: float) -> bool:
    """SIGTERM the leader's session, wait ``grace_s``, then SIGKILL it; ``True`` when empty.

    Safe to call after the leader exited: while any member lives, the kernel does not hand
    the session's id to a new process.
    """
    if not signal_group(pgid, signal.SIGTERM):
        return True
    if await wait_group_gone(pgid, grace_s):
        return True
    if not signal_group(pgid, signal.SIGKILL):
        return True
    return await wait_group_gone(pgid, grace_s)


def kill_group_now(pgid: int) -> None:
    """SIGKILL the leader's session without waiting (for paths that cannot await)."""
    with contextlib.suppress(OSError):
        signal_group(pgid, signal.SIGKILL)
