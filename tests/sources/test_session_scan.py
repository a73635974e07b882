"""One ``/proc`` scan finds a session's members, for Workbench and its group leader script."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from workbench.sources import group_leader, process_group

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

SESSION = """
import os, subprocess, sys, time
moved = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], process_group=0)
done = subprocess.Popen([sys.executable, "-c", "pass"])
os.waitid(os.P_PID, done.pid, os.WEXITED | os.WNOWAIT)  # exited, left a zombie
print(moved.pid, flush=True)
time.sleep(60)
"""
"""A session leader with a child in a group of its own, and a zombie (not a member)."""


def test_the_scan_lists_live_members_even_outside_the_leaders_group() -> None:
    leader = subprocess.Popen(
        [sys.executable, "-c", SESSION], stdout=subprocess.PIPE, start_new_session=True
    )
    try:
        assert leader.stdout is not None
        moved = int(leader.stdout.readline())
        members = group_leader.session_members(leader.pid)
        assert members is not None
        assert sorted(members) == sorted([leader.pid, moved])
        assert os.getpgid(moved) != leader.pid  # really outside the leader's group
        # Workbench stops a session with this very scan.
        assert process_group.group_alive(leader.pid)
    finally:
        process_group.signal_group(leader.pid, signal.SIGKILL)
        leader.wait()
    deadline = time.monotonic() + 10
    while group_leader.session_members(leader.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert group_leader.session_members(leader.pid) == []
    assert not process_group.group_alive(leader.pid)


def test_a_session_nobody_is_in_has_no_members() -> None:
    assert group_leader.session_members(2**22 + 12345) == []
