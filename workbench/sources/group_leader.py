"""Run a command as the leader of its own process group, and take the group down with it.

    python -I -S group_leader.py COMMAND [ARGS...]

Workbench starts every stdio server through this script, in a new session (so the script's
pid is the group id), with the server's stdin, stdout and stderr passed straight through. It
covers what the parent cannot: when Workbench dies without running any cleanup (SIGKILL, a
crash), the kernel sends this script SIGTERM (``PR_SET_PDEATHSIG`` on Linux; elsewhere a
thread notices the new parent), and it terminates the whole group, grandchildren included,
escalating to SIGKILL. When the server exits on its own, whatever it left in the group is
sent SIGTERM too. The script's exit status is the server's.

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


def _terminate_group(signum: int | None = None, frame: object = None) -> None:
    """SIGTERM the group (not ourselves), give it GRACE_S, then SIGKILL it, ourselves included."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.killpg(0, signal.SIGTERM)
    deadline = time.monotonic() + GRACE_S
    while _child_running() and time.monotonic() < deadline:
        time.sleep(0.02)
    os.killpg(0, signal.SIGKILL)


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
    code = child.wait()
    # The server is gone; anything it left behind in the group goes too.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.killpg(0, signal.SIGTERM)
    if code < 0:
        # Die of the same signal, so the parent sees what the server saw.
        with contextlib.suppress(OSError, ValueError):  # SIGKILL has no handler to reset
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
