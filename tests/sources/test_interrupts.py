"""One ctrl-c ends `workbench call` and `workbench tools` at once, whenever it comes, and leaves
no process behind: not the server, not its group leader, not its grandchildren.

Each run gets a marker in its environment; every process the CLI starts inherits it, so a scan
of ``/proc`` finds whatever is left, whatever group or session it moved to.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.app.test_untrusted_terminal import Terminal
from tests.sources.helpers import FAULTY, LOAD_SLACK_S

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="finds leftover processes through /proc"
)

MARKER = "WORKBENCH_INTERRUPT_TEST"
CTRL_C_S = 3.0
"""A first ctrl-c ends the command within this, whatever the server does; `bench/faults.py`
measures it (about 1 s of graces for a server deaf to stdin EOF and SIGTERM, plus the exit)."""
EXIT_BOUND_S = CTRL_C_S + 4 * LOAD_SLACK_S
"""What a test allows: a command that hangs never ends (before the fix, a third of the
starts), one that works ends in about 2 s. The bound tells a hang from a slow exit, not a fast
exit from a slow one (`bench/faults.py` measures that): a CI run at load 7 on 2 cores once took
6 s, past the 5.5 s this bound used to be."""
START_BOUND_S = 30.0
"""How long a moment to interrupt at may take to arrive on a loaded machine."""


def marked(marker: str) -> list[int]:
    """Live (not zombie) processes carrying ``marker`` in their environment."""
    needle = f"{MARKER}={marker}".encode()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as handle:
                if needle not in handle.read().split(b"\0"):
                    continue
            with open(f"/proc/{name}/stat", "rb") as handle:
                if handle.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                    continue
        except OSError:
            continue
        found.append(int(name))
    return found


def command_line(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read()
    except OSError:
        return b""


@dataclass
class Run:
    process: subprocess.Popen[bytes]
    marker: str
    pidfile: Path

    def others(self) -> list[int]:
        """Marked processes besides the CLI itself: the leader, the server, its children."""
        return [pid for pid in marked(self.marker) if pid != self.process.pid]


def start(tmp_path: Path, command: str, *server_flags: str) -> Run:
    (tmp_path / "pyproject.toml").write_text("[tool.workbench]\ninclude_bundled = false\n")
    pidfile = tmp_path / f"pids-{uuid.uuid4().hex}"
    server = shlex.join([sys.executable, str(FAULTY), *server_flags, "--pidfile", str(pidfile)])
    argv = {
        # --inherit-env: the marker must reach the server and its group, or a scan for what
        # was left behind would find nothing whatever was left (servers get a minimal
        # environment by default).
        "call": ["call", "faulty.hang", "--mcp", server, "--timeout", "60", "--inherit-env"],
        "tools": ["tools", "--mcp", server, "--inherit-env"],
    }[command]
    marker = uuid.uuid4().hex
    process = subprocess.Popen(
        [sys.executable, "-m", "workbench", *argv],
        cwd=tmp_path,
        env={**os.environ, MARKER: marker},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # A background job starts with SIGINT ignored: give the CLI a ctrl-c it can receive.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    return Run(process, marker, pidfile)


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + START_BOUND_S
    while not condition():
        assert time.monotonic() < deadline, f"never saw: {what}"
        time.sleep(0.001)


def at_once(run: Run) -> None:
    """While the CLI itself starts (imports, reading the project)."""


def as_the_leader_starts(run: Run) -> None:
    """As soon as the group leader exists: the CLI is spawning the server."""
    wait_until(
        lambda: any(b"group_leader" in command_line(pid) for pid in run.others()),
        "the group leader",
    )


def during_the_handshake(run: Run) -> None:
    """The server runs (it wrote its pids), the handshake is under way or just done."""
    wait_until(lambda: run.pidfile.exists(), "the server's pid file")


def mid_call(run: Run) -> None:
    """The call is under way (the server hangs on it)."""
    during_the_handshake(run)
    time.sleep(1.0)


def interrupt(run: Run) -> tuple[float, bytes]:
    """ctrl-c: how long the CLI took to exit after it, and its stderr."""
    sent = time.monotonic()
    run.process.send_signal(signal.SIGINT)
    try:
        _, stderr = run.process.communicate(timeout=20)
    finally:
        if run.process.poll() is None:
            run.process.kill()
            run.process.communicate()
    return time.monotonic() - sent, stderr


def ended_by_ctrl_c(code: int | None, stderr: bytes) -> bool:
    """Click's "Aborted!" (exit 1), or, before the CLI took over, Python's own death by SIGINT."""
    return (code == 1 and b"Aborted!" in stderr) or code == -signal.SIGINT


def assert_nothing_left(run: Run) -> None:
    # The CLI waits for the group to be gone before it exits; a moment for the kernel to
    # finish what it was told is all the slack this needs.
    deadline = time.monotonic() + 1.0
    while run.others() and time.monotonic() < deadline:
        time.sleep(0.05)
    left = run.others()
    for pid in left:  # Never into the next test.
        os.kill(pid, signal.SIGKILL)
    assert not left, [command_line(pid) for pid in left]


MOMENTS = [at_once, as_the_leader_starts, during_the_handshake, mid_call]
SERVER_FLAGS = ["--ignore-term", "--grandchild", "ignores-term"]
"""The hardest server to end: deaf to SIGTERM and stdin EOF, with a grandchild deaf to SIGTERM."""


CASES = [
    *(pytest.param("call", moment, id=f"call-{moment.__name__}") for moment in MOMENTS),
    # tools makes no call: it lists and stops.
    *(pytest.param("tools", moment, id=f"tools-{moment.__name__}") for moment in MOMENTS[:3]),
]


@pytest.mark.slow
@pytest.mark.parametrize(("command", "moment"), CASES)
def test_one_ctrl_c_ends_the_command_and_leaves_nothing(
    tmp_path: Path, command: str, moment: Callable[[Run], None]
) -> None:
    run = start(tmp_path, command, *SERVER_FLAGS)
    try:
        moment(run)
        seconds, stderr = interrupt(run)
    finally:
        if run.process.poll() is None:
            run.process.kill()
            run.process.communicate()
    assert_nothing_left(run)
    assert ended_by_ctrl_c(run.process.returncode, stderr), (run.process.returncode, stderr)
    assert b"Traceback" not in stderr, stderr
    assert seconds < EXIT_BOUND_S, f"exited {seconds:.1f} s after ctrl-c"


def stacks_of(terminal: Terminal) -> str:
    """Every thread's stack in a hung program started with ``-X faulthandler`` (it dies)."""
    os.kill(terminal.pid, signal.SIGABRT)
    terminal.pump(2.0)
    _, found, dump = bytes(terminal.output).partition(b"Fatal Python error")
    return (found + dump).decode(errors="replace").replace("\r\n", "\n")[-6000:]


@pytest.mark.slow
@pytest.mark.parametrize("moment", ["as-the-leader-starts", "once-ready"])
def test_sigint_ends_the_live_tui_and_leaves_nothing(tmp_path: Path, moment: str) -> None:
    """The TUI reads ctrl-c as a key (ctrl+q quits); a SIGINT from outside still ends it."""
    (tmp_path / "pyproject.toml").write_text("[tool.workbench]\ninclude_bundled = false\n")
    marker = uuid.uuid4().hex
    server = shlex.join([sys.executable, str(FAULTY), *SERVER_FLAGS])
    os.environ[MARKER] = marker  # The pty child inherits it.
    try:
        terminal = Terminal(
            [
                sys.executable,
                # Faulthandler: a TUI that hangs is made to print every thread's stack (below).
                *("-X", "faulthandler", "-m", "workbench", "live", "--no-demo", "--inherit-env"),
                *("--mcp", server),
            ],
            cwd=tmp_path,
        )
    finally:
        del os.environ[MARKER]

    def others() -> list[int]:
        return [pid for pid in marked(marker) if pid != terminal.pid]

    try:
        deadline = time.monotonic() + START_BOUND_S
        while True:
            assert time.monotonic() < deadline, "the TUI never got that far"
            terminal.pump(0.001 if moment == "as-the-leader-starts" else 0.1)
            if moment == "as-the-leader-starts":
                if any(b"group_leader" in command_line(pid) for pid in others()):
                    break
            elif "faulty" in terminal.screen():
                break
        sent = time.monotonic()
        os.kill(terminal.pid, signal.SIGINT)
        while not os.waitpid(terminal.pid, os.WNOHANG)[0]:
            if time.monotonic() - sent > EXIT_BOUND_S:
                pytest.fail(f"the TUI did not end; where it was:\n{stacks_of(terminal)}")
            terminal.pump(0.05)
        deadline = time.monotonic() + 1.0
        while others() and time.monotonic() < deadline:
            time.sleep(0.05)
        left = others()
        assert not left, [command_line(pid) for pid in left]
    finally:
        for pid in [*others(), terminal.pid]:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            terminal.close()
