"""Run a command as the leader of its own process group, and take the group down with it.

    python -I -S group_leader.py COMMAND [ARGS...]

Workbench starts every stdio server through this script, in a new session (so the script's
pid is the session and group id), with the server's stdin, stdout and stderr passed straight
through; once the server runs, the script lets go of its own copies of them, so a server
that closes its stdout is seen to close it. It covers what the parent cannot: when Workbench
dies without running any cleanup (SIGKILL, a crash), the kernel sends this script SIGTERM
(``PR_SET_PDEATHSIG`` on Linux; elsewhere a thread notices the new parent), and it
terminates the whole session, grandchildren included (also those that moved to a process
group of their own), escalating to SIGKILL. When the server exits on its own, whatever it
left in the session is sent SIGTERM too. The script's exit status is the server's.

Standard library only, and started with ``-I -S``: it must not import Workbench.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time

GRACE_S = 2.0
PR_SET_PDEATHSIG = 1
NOT_STARTED = 127

child: subprocess.Popen[bytes] | None = None


def session_members(sid: int) -> list[int] | None:
    """Live (not zombie) processes in session ``sid``; ``None`` where ``/proc`` cannot tell.

    Workbench's :mod:`~workbench.sources.process_group` uses this scan too: the script must
    stay free of Workbench, so the one copy lives here.
    """
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
        # pid (comm) state ppid pgrp session ...: comm may hold spaces and parentheses.
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) >= 4 and fields[0] != b"Z" and int(fields[3]) == sid:
            members.append(int(name))
    return members


def _session_members() -> list[int]:
    """Other live processes of our session, when we lead one (Linux ``/proc``).

    A child that called ``setpgid(0, 0)`` left our process group but not our session.
    """
    me = os.getpid()
    if os.getsid(0) != me or not sys.platform.startswith("linux"):
        return []
    return [pid for pid in session_members(me) or [] if pid != me]


def _signal_session(signum: int) -> None:
    """``signum`` to our group (ourselves included) and to every other member of our session."""
    with contextlib.suppress(OSError):
        os.killpg(0, signum)
    for pid in _session_members():
        with contextlib.suppress(OSError):
            os.kill(pid, signum)


def _terminate_group(signum: int | None = None, frame: object = None) -> None:
    """SIGTERM the session (not ourselves), give it GRACE_S, then SIGKILL it, ourselves last."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _signal_session(signal.SIGTERM)
    deadline = time.monotonic() + GRACE_S
    while (_child_running() or _session_members()) and time.monotonic() < deadline:
        time.sleep(0.02)
    for pid in _session_members():
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    os.killpg(0, signal.SIGKILL)


def _let_go_of_stdio() -> None:
    """Point our fds 0-2 at /dev/null: the server's pipes then close when the server closes
    them (a server that closes its stdout must be seen to, not kept open by us)."""
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        if null > 2:
            os.close(null)


def _child_running() -> bool:
    # Not child.poll(): this runs in a signal handler that may have interrupted child.wait(),
    # which holds the lock poll() needs, so poll() would say "running" for ever.
    if child is None:
        return False
    try:
        pid, _ = os.waitpid(child.pid, os.WNOHANG)
    except ChildProcessError:
        return False
    return pid == 0


def _arm_death_signal() -> bool:
    """Ask the kernel for SIGTERM when our parent dies (Linux only)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _die_with_parent(parent: int) -> None:
    if _arm_death_signal():
        return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.25)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, daemon=True).start()


def main(argv: list[str]) -> int:
    global child
    if not argv:
        print("usage: group_leader.py COMMAND [ARGS...]", file=sys.stderr)
        return 2
    if os.getpgrp() != os.getpid():
        # Started without a session of its own: lead a new group, or killpg(0) would hit
        # whoever started us.
        os.setpgid(0, 0)
    parent = os.getppid()
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(signum, _terminate_group)
    _die_with_parent(parent)
    if os.getppid() != parent:  # The parent died before the death signal was armed.
        _terminate_group()
    try:
        # The server dies with this script too, should it be killed outright (SIGKILL).
        child = subprocess.Popen(argv, preexec_fn=_arm_death_signal)
    except OSError as error:
        print(f"cannot start {argv[0]}: {error.strerror or error}", file=sys.stderr)
        return NOT_STARTED
    _let_go_of_stdio()
    code = child.wait()
    # The server is gone; anything it left behind in the session goes too.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _signal_session(signal.SIGTERM)
    if code < 0:
        # Die of the same signal, so the parent sees what the server saw.
        with contextlib.suppress(OSError, ValueError):  # SIGKILL has no handler to reset
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
