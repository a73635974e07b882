"""Nothing a stdio server starts outlives it: stop, timeout, cancel, TUI quit, Workbench crash.

The fault server forks a grandchild — plain, holding the stdout pipe, deaf to SIGTERM, or in
a process group of its own (``setpgid(0, 0)``) —
and may ignore SIGTERM itself; it writes both pids to a file, and every test checks that
neither (nor the group leader between Workbench and the server) is left running.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.app.test_untrusted_terminal import CTRL_Q, CTRL_S, Terminal
from tests.sources.helpers import FAULTY, faulty_spec, pid_gone, run_call
from workbench.core.result import ErrorType
from workbench.core.runtime import CallContext
from workbench.sources import mcp_stdio, process_group
from workbench.sources.base import SourceState
from workbench.sources.mcp_source import McpSource
from workbench.sources.process_group import StdioLaunch

LEFTOVER_BOUND_S = 6.0
"""Stdin grace, SIGTERM grace and SIGKILL: the group is gone well within this."""


def pids_from(pidfile: Path, timeout_s: float = 15.0) -> list[int]:
    """The server's pid, its grandchild's, and the group leader's (the server's parent)."""
    deadline = time.monotonic() + timeout_s
    while not (pidfile.exists() and pidfile.read_text().endswith("\n")):
        assert time.monotonic() < deadline, "the server never wrote its pids"
        time.sleep(0.05)
    pids = [int(item) for item in pidfile.read_text().split()]
    with open(f"/proc/{pids[0]}/stat", encoding="ascii") as handle:
        leader = int(handle.read().rsplit(")", 1)[1].split()[1])
    return [*pids, leader]


def assert_all_gone(pids: list[int], timeout_s: float = LEFTOVER_BOUND_S) -> None:
    deadline = time.monotonic() + timeout_s
    while not all(pid_gone(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in pids if not pid_gone(pid)]
    for pid in left:  # Do not leave them to the next test either.
        os.kill(pid, signal.SIGKILL)
    assert not left, f"left running: {left}"


VARIANTS = [
    pytest.param(["--grandchild", "plain"], id="forks-a-grandchild"),
    pytest.param(["--grandchild", "holds-stdout"], id="grandchild-holds-stdout"),
    pytest.param(["--grandchild", "ignores-term"], id="grandchild-ignores-sigterm"),
    pytest.param(["--grandchild", "plain", "--ignore-term"], id="server-ignores-sigterm"),
    # setpgid(0, 0): out of the group, still in the session the leader started.
    pytest.param(["--grandchild", "setpgid"], id="grandchild-in-a-group-of-its-own"),
    pytest.param(
        ["--grandchild", "setpgid", "--ignore-term"], id="grandchild-in-its-own-group-server-deaf"
    ),
]


@pytest.mark.parametrize("flags", VARIANTS)
async def test_stopping_the_source_leaves_nothing(flags: list[str], tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    source = McpSource(faulty_spec(*flags, "--pidfile", str(pidfile)))
    await source.start()
    assert source.status.state is SourceState.READY, source.status
    pids = pids_from(pidfile)
    assert len(pids) == 3 and not any(pid_gone(pid) for pid in pids)
    result = await source.invoke("faulty", "echo", {"text": "hi"}, CallContext())
    assert result.content == "hi"
    started = time.monotonic()
    await source.stop()
    assert time.monotonic() - started < LEFTOVER_BOUND_S
    assert_all_gone(pids, timeout_s=0.5)


async def test_a_server_asking_after_its_stdin_closed_is_not_waited_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """server-everything asks for roots 350 ms after the handshake: asked once its stdin is
    closed, it waits for an answer that cannot come, kept alive by its request timer. It is
    terminated then, not after the stdin grace (made far longer than the bound here)."""
    monkeypatch.setattr(mcp_stdio, "STDIN_GRACE_S", 20.0)
    pidfile = tmp_path / "pids"
    source = McpSource(faulty_spec("--ask-on-eof", "--pidfile", str(pidfile)))
    await source.start()
    assert source.status.state is SourceState.READY, source.status
    pids = pids_from(pidfile)
    result = await source.invoke("faulty", "echo", {"text": "hi"}, CallContext())
    assert result.content == "hi"
    started = time.monotonic()
    await source.stop()
    assert time.monotonic() - started < LEFTOVER_BOUND_S
    assert_all_gone(pids, timeout_s=0.5)


async def test_a_timed_out_call_then_stop_leaves_nothing(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    source = McpSource(faulty_spec("--grandchild", "ignores-term", "--pidfile", str(pidfile)))
    await source.start()
    pids = pids_from(pidfile)
    run = await run_call(source, "faulty", "hang", {}, timeout_ms=1_000)
    assert run.result.error is not None and run.result.error.type == ErrorType.TIMEOUT
    assert run.seconds < 2.5
    await source.stop()
    assert_all_gone(pids, timeout_s=0.5)


def _workbench_call(tmp_path: Path, *flags: str, api: str, timeout: str) -> subprocess.Popen[bytes]:
    (tmp_path / "pyproject.toml").write_text("[tool.workbench]\ninclude_bundled = false\n")
    server = shlex.join([sys.executable, str(FAULTY), *flags])
    return subprocess.Popen(
        [sys.executable, "-m", "workbench", "call", api, "--mcp", server, "--timeout", timeout],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # A background job starts with SIGINT ignored: give the CLI a ctrl-c it can receive.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("how", "signum"),
    [
        ("timeout", None),
        ("cancel (ctrl-c)", signal.SIGINT),
        ("crash (SIGKILL)", signal.SIGKILL),
    ],
)
def test_workbench_call_leaves_nothing_however_it_ends(
    tmp_path: Path, how: str, signum: int | None
) -> None:
    pidfile = tmp_path / "pids"
    flags = ("--grandchild", "ignores-term", "--ignore-term", "--pidfile", str(pidfile))
    # Only the timeout case may end by its timeout: the others must end by their signal.
    timeout = "2" if signum is None else "60"
    process = _workbench_call(tmp_path, *flags, api="faulty.hang", timeout=timeout)
    try:
        pids = pids_from(pidfile)
        if signum is not None:
            time.sleep(0.5)  # The call is under way.
            process.send_signal(signum)
        _, stderr = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    expected = {None: 1, signal.SIGINT: 1, signal.SIGKILL: -9}[signum]
    assert process.returncode == expected, stderr
    if signum == signal.SIGINT:
        assert b"Aborted!" in stderr
    assert_all_gone(pids)


@pytest.mark.slow
def test_quitting_the_tui_leaves_nothing(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    server = shlex.join(
        [sys.executable, str(FAULTY), "--grandchild", "holds-stdout", "--pidfile", str(pidfile)]
    )
    (tmp_path / "pyproject.toml").write_text("[tool.workbench]\ninclude_bundled = false\n")
    terminal = Terminal(
        [sys.executable, "-m", "workbench", "live", "--no-demo", "--mcp", server], cwd=tmp_path
    )
    try:
        terminal.wait_for("faulty")
        pids = pids_from(pidfile)
        terminal.press(CTRL_S)  # Call the first API, so a call is under way or done.
        terminal.press(CTRL_Q, settle=1.0)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            finished, _ = os.waitpid(terminal.pid, os.WNOHANG)
            if finished:
                break
            terminal.pump(0.1)
        else:
            pytest.fail("the TUI did not quit")
        assert_all_gone(pids)
    finally:
        with contextlib.suppress(ProcessLookupError, ChildProcessError, OSError):
            terminal.close()


def test_the_group_leader_forwards_the_servers_exit_status(tmp_path: Path) -> None:
    from workbench.sources.process_group import leader_argv

    code = subprocess.run(leader_argv(sys.executable, ["-c", "raise SystemExit(7)"])).returncode
    killed = subprocess.run(
        leader_argv(sys.executable, ["-c", "import os, signal; os.kill(os.getpid(), 9)"])
    ).returncode
    assert (code, killed) == (7, -9)


def test_a_command_that_is_not_there_is_named_before_anything_starts() -> None:
    from workbench.sources.process_group import resolve_command

    with pytest.raises(FileNotFoundError):
        resolve_command("no-such-command-xyz", {"PATH": "/usr/bin"}, None)
    assert resolve_command("sh", {"PATH": "/usr/bin:/bin"}, None).endswith("/sh")


async def test_asyncio_run_ending_during_a_spawn_ends_it_and_what_it_started(
    tmp_path: Path,
) -> None:
    """The real case: every task cancelled (as ``asyncio.run`` does when it ends) just after
    the leader was forked and before asyncio's task connecting its pipes first ran."""
    pidfile = tmp_path / "pids"
    launch = StdioLaunch(sys.executable, [str(FAULTY), "--pidfile", str(pidfile)])
    start = asyncio.ensure_future(process_group.spawn_in_session(launch))
    deadline = time.monotonic() + 10
    while not any("_connect_pipes" in repr(task) for task in asyncio.all_tasks()):
        assert not start.done() and time.monotonic() < deadline, "no pipes were connected"
        await asyncio.sleep(0)
    others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    for task in others:
        task.cancel()
    done, _ = await asyncio.wait(others, timeout=10)
    assert start in done and start.cancelled()
    assert done == set(others)
    assert_all_gone(running_with(str(pidfile)))


def running_with(needle: str) -> list[int]:
    """Live processes whose command line holds ``needle``."""
    found = []
    for name in os.listdir("/proc"):
        with contextlib.suppress(OSError):
            if name.isdigit() and needle.encode() in Path(f"/proc/{name}/cmdline").read_bytes():
                found.append(int(name))
    return found
