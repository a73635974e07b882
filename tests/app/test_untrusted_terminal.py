"""The live TUI on a hostile MCP server: no escape sequence of the server's reaches the terminal.

The app runs in a real pseudo-terminal against a stdio server whose names, descriptions,
schema defaults, enums, results, progress and log messages all carry escapes (OSC 52 clipboard
writes, title changes, screen clears, C1 controls, bidi overrides). Every byte the app writes
is read back and checked; the only OSC Textual itself sends is 22 (the pointer shape). The
server's text is shown as it is, each control as a visible mark.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import shlex
import signal
import struct
import sys
import termios
import time
from pathlib import Path

import pyte
import pytest

from tests.sources.helpers import SERVERS

END, UP, ENTER, CTRL_S, CTRL_Q = b"\x1b[F", b"\x1b[A", b"\r", b"\x13", b"\x11"


class Terminal:
    """A program in a pseudo-terminal of a fixed size, with everything it wrote kept."""

    def __init__(self, argv: list[str], *, cwd: Path, columns: int = 120, rows: int = 40) -> None:
        self.output = bytearray()
        self.display = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.display)
        self.fed = 0
        size = struct.pack("HHHH", rows, columns, 0, 0)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # pragma: no cover - the child
            # Sized before the program starts, so its first frame has the right size.
            fcntl.ioctl(0, termios.TIOCSWINSZ, size)
            os.chdir(cwd)
            env = {
                **os.environ,
                "COLUMNS": str(columns),
                "LINES": str(rows),
                "TERM": "xterm-256color",
            }
            os.execve(argv[0], argv, env)

    def pump(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if ready:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    return
                if not data:
                    return
                self.output.extend(data)

    def screen(self) -> str:
        """What the terminal shows now, as a terminal emulator draws it."""
        self.stream.feed(bytes(self.output[self.fed :]))
        self.fed = len(self.output)
        return "\n".join(self.display.display)

    def wait_for(self, text: str, timeout: float = 45.0) -> None:
        """Wait until the screen shows ``text``."""
        deadline = time.monotonic() + timeout
        while text not in self.screen() and time.monotonic() < deadline:
            self.pump(0.2)
        assert text in self.screen(), f"{text!r} never shown:\n{self.screen()}"
        self.pump(1.0)  # let the app settle (focus, workers) before the next key

    def press(self, *keys: bytes, settle: float = 0.4) -> None:
        for key in keys:
            os.write(self.fd, key)
            self.pump(settle)

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)


@pytest.mark.slow
def test_a_hostile_servers_text_reaches_the_terminal_inert(tmp_path: Path) -> None:
    server = shlex.join([sys.executable, str(SERVERS / "hostile.py")])
    (tmp_path / "pyproject.toml").write_text("[tool.workbench]\ninclude_bundled = false\n")
    terminal = Terminal(
        [sys.executable, "-m", "workbench", "live", "--no-demo", "--mcp", server], cwd=tmp_path
    )
    try:
        terminal.wait_for("default HOSTILE")  # the first API's form, with the schema's default
        terminal.press(CTRL_S)
        terminal.wait_for("1 ✓")  # the first call is done (its history row)
        # The last API: the row above the server's last one (the roots it was offered).
        terminal.press(END, UP, ENTER, CTRL_S)
        terminal.wait_for("2 ✓")  # chatty is done, after a log message and a progress note
        # The result is shown, its escapes as visible marks (␛, ⟨U+009D⟩), never acted on.
        terminal.wait_for("said")
        terminal.wait_for("⟨U+009D⟩8;;http://evil⟨U+009C⟩⟨U+2066⟩END")
        terminal.press(CTRL_Q, settle=1.0)
    finally:
        terminal.close()
    output = bytes(terminal.output)
    osc = re.findall(rb"\x1b\](\d*)", output)
    assert set(osc) <= {b"22"}, f"OSC sequences other than the pointer shape: {set(osc)}"
    for name, pattern in {
        "screen clear": rb"\x1b\[[23]J",
        "C1 control": rb"\xc2[\x80-\x9f]",
        "bidi control": rb"\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]",
        "device control string": rb"\x1b[P_^X]",
        "a link to the server's URL": rb"\x1b\]8;;http://evil|\xc2\x9d8;;http://evil",
    }.items():
        assert not re.search(pattern, output), f"{name} reached the terminal"
    # BEL only ends Textual's own OSC 22.
    assert output.count(b"\x07") == len(osc)
