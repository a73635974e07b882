"""The fault matrix: `workbench` against servers and endpoints that misbehave, case by case.

Each case runs the real CLI in a fresh process (`workbench call`, `tools`, `check`) against
the raw fault servers of the test suite (stdio `faulty.py`, streamable-HTTP `faulty_http.py`,
the hostile-text server) and loopback HTTP endpoints serving bombs. Each case states what it
expects: the exit code, the error type, texts in the output, and a time limit on what it
times (the call itself, from the JSON timings; for a signal, from the signal to the exit;
otherwise the wall time beyond the baseline's). Per case it prints those, the exit code, the
wall time, the peak RSS of the workbench process, processes left running afterwards (found
by a marker in their environment, whatever group or session they moved to), the escape bytes
that reached stdout/stderr (ESC, C1 controls, bidi overrides), and PASS, or FAIL with every
expectation missed. The baseline row is a trivial call measured in the same run; the
x-columns are ratios against it.

    python bench/faults.py [--only SUBSTRING] [--list]

A new case is one ``Case(...)`` in :func:`cases`: name, argv, the expected exit code and
error type, the texts its output must hold, and ``within_s``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.net.bombs import gzip_gzip_bomb  # noqa: E402
from tests.net.local_server import LocalServer, Reply, running_server  # noqa: E402
from tests.sources.helpers import SERVERS, serve_asgi  # noqa: E402

FAULTY = SERVERS / "faulty.py"
HOSTILE = SERVERS / "hostile.py"
MARKER = "WORKBENCH_FAULT_CASE"
ESCAPES = re.compile(rb"\x1b|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]")
BOMB_GIB = 1024
CTRL_C_S = 3.0
"""A first ctrl-c ends any command within this, nothing left behind."""


@dataclass
class Case:
    name: str
    argv: list[str]
    code: int
    """The exit code expected (0 success, 1 a failed result, 2 a usage error, -N signal N)."""
    error: str | None = None
    """The error type expected in the output (``ConnectionClosed``, ``LimitExceeded``, ...)."""
    texts: tuple[str, ...] = ()
    """Texts the output (stdout and stderr) must hold."""
    within_s: float = 5.0
    """Limit on the timed part: the call (JSON timings), signal-to-exit, or wall over baseline."""
    env: dict[str, str] = field(default_factory=dict)
    check: Callable[[str, str], bool] | None = None
    """Anything else the output must satisfy, named in ``expected``."""
    expected: str = ""
    """What ``check`` looks for, as printed."""
    signal_after: tuple[int, float] | None = None
    """Send this signal after this many seconds (a cancel, a crash)."""
    signal_at_leader: bool = False
    """Count ``signal_after``'s seconds from the moment the group leader exists: the CLI is
    spawning the server (a ctrl-c during the start)."""
    as_json: bool = True
    """Run ``call`` with ``--format json``, to read how long the call itself took."""
    settle_s: float = 0.5
    """How long after the CLI's exit leftovers may still be ending. The CLI waits for its
    servers itself; only when it is killed outright does the group leader end them, after
    its own grace."""

    def describe(self) -> str:
        parts = [f"exit {self.code}"]
        if self.error:
            parts.append(self.error)
        if self.expected:
            parts.append(self.expected)
        return " ".join(parts) + f" <={self.within_s:g} s"


@dataclass
class Outcome:
    code: int
    wall_s: float
    peak_mb: float
    call_s: float | None
    signal_to_exit_s: float | None
    leftovers: int
    escape_bytes: int
    stdout: str
    stderr: str

    def timed_s(self, base: Outcome | None) -> float:
        """What a case's ``within_s`` limits (see :class:`Case`)."""
        if self.signal_to_exit_s is not None:
            return self.signal_to_exit_s
        if self.call_s is not None:
            return self.call_s
        return max(0.0, self.wall_s - (base.wall_s if base is not None else 0.0))

    def misses(self, case: Case, base: Outcome | None) -> list[str]:
        """Every expectation of ``case`` this outcome does not meet (none: it passed)."""
        text = self.stdout + self.stderr
        missed = []
        if self.code != case.code:
            missed.append(f"exit {self.code} (want {case.code})")
        if case.error is not None and case.error not in text:
            missed.append(f"no {case.error}")
        missed += [f"no {item!r}" for item in case.texts if item not in text]
        if case.check is not None and not case.check(self.stdout, self.stderr):
            missed.append(f"not {case.expected}")
        if self.timed_s(base) > case.within_s:
            missed.append(f"{self.timed_s(base):.1f} s > {case.within_s:g} s")
        if self.leftovers:
            missed.append(f"{self.leftovers} left running")
        if self.escape_bytes:
            missed.append(f"{self.escape_bytes} escape bytes")
        return missed


def _faulty(*flags: str) -> str:
    return shlex.join([sys.executable, str(FAULTY), *flags])


def leftovers(marker: str) -> int:
    """Live processes (not zombies) whose environment carries ``marker``."""
    found = 0
    needle = f"{MARKER}={marker}".encode()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as handle:
                if needle not in handle.read().split(b"\0"):
                    continue
            with open(f"/proc/{name}/stat", "rb") as handle:
                state = handle.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if state != b"Z":
            found += 1
            os.kill(int(name), signal.SIGKILL)  # Never into the next case.
    return found


LAUNCHER = """
import os, signal, subprocess, sys, threading, time
pid_file, usage_file, *argv = sys.argv[1:]
# A background job starts with SIGINT ignored; the workbench must get a ctrl-c it can act on.
signal.signal(signal.SIGINT, signal.SIG_DFL)
child = subprocess.Popen(argv)
with open(pid_file, "w") as handle:
    handle.write(str(child.pid))
peak = 0

def watch():
    global peak
    while child.returncode is None:
        try:
            with open(f"/proc/{child.pid}/status") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        peak = max(peak, int(line.split()[1]))
        except OSError:
            return
        time.sleep(0.002)

threading.Thread(target=watch, daemon=True).start()
code = child.wait()
with open(usage_file, "w") as handle:
    handle.write(f"{peak} {code}")
"""
"""Runs the workbench and reports its own peak RSS (VmHWM, polled every 2 ms until it exits).

Not wait4's ru_maxrss: that also counts the children the workbench reaped (the servers)."""


def _leader_started(marker: str) -> bool:
    """Whether a group leader carrying ``marker`` runs: the CLI is spawning a server."""
    needle = f"{MARKER}={marker}".encode()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as handle:
                if b"group_leader" not in handle.read():
                    continue
            with open(f"/proc/{name}/environ", "rb") as handle:
                if needle in handle.read().split(b"\0"):
                    return True
        except OSError:
            continue
    return False


def run(case: Case, project: Path, bound_s: float = 90.0) -> Outcome:
    marker = uuid.uuid4().hex
    env = {**os.environ, **case.env, MARKER: marker, "COLUMNS": "200"}
    argv = list(case.argv)
    if case.as_json and argv[0] == "call":
        argv += ["--format", "json"]
    if argv[0] in ("call", "tools", "live"):
        # Servers get a minimal environment by default: pass ours, so the marker reaches every
        # process the command starts and the count of what was left behind means something.
        argv.append("--inherit-env")
    signalled: float | None = None
    with tempfile.TemporaryDirectory() as scratch:
        pid_file, usage_file = Path(scratch, "pid"), Path(scratch, "usage")
        out_file, err_file = Path(scratch, "out"), Path(scratch, "err")
        started = time.perf_counter()
        with out_file.open("wb") as out, err_file.open("wb") as err:
            launcher = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    LAUNCHER,
                    str(pid_file),
                    str(usage_file),
                    sys.executable,
                    "-m",
                    "workbench",
                    *argv,
                ],
                cwd=project,
                env=env,
                stdout=out,
                stderr=err,
                stdin=subprocess.DEVNULL,
            )
            while not pid_file.exists() or not pid_file.read_text():
                time.sleep(0.005)
            workbench = int(pid_file.read_text())
            if case.signal_after is not None:
                signum, after = case.signal_after
                if case.signal_at_leader:
                    while not _leader_started(marker) and launcher.poll() is None:
                        time.sleep(0.001)
                time.sleep(after)
                os.kill(workbench, signum)
                signalled = time.perf_counter()
            try:
                launcher.wait(timeout=bound_s)
            except subprocess.TimeoutExpired:
                os.kill(workbench, signal.SIGKILL)
                launcher.wait()
        ended = time.perf_counter()
        peak_kb, code = (int(item) for item in usage_file.read_text().split())
        time.sleep(case.settle_s)
        left = leftovers(marker)
        stdout, stderr = out_file.read_bytes(), err_file.read_bytes()
    text_out = stdout.decode("utf-8", "replace")
    call_s = None
    try:
        timings = json.loads(text_out)["timings"]
        call_s = (timings["endedMs"] - timings["startedMs"]) / 1000
    except (ValueError, KeyError, TypeError):
        pass
    return Outcome(
        code=code,
        wall_s=ended - started,
        peak_mb=peak_kb / 1024,
        call_s=call_s,
        signal_to_exit_s=None if signalled is None else ended - signalled,
        leftovers=left,
        escape_bytes=len(ESCAPES.findall(stdout + stderr)),
        stdout=text_out,
        stderr=stderr.decode("utf-8", "replace"),
    )


def cases(http: str, web: LocalServer) -> list[Case]:
    call = ["call", "--mcp"]
    mcp_http = f"{http}/mcp"
    hostile = shlex.join([sys.executable, str(HOSTILE)])
    deaf = _faulty("--ignore-term", "--grandchild", "ignores-term")
    """The hardest server to end: deaf to SIGTERM and stdin EOF, its grandchild to SIGTERM."""
    web_env = {"WORKBENCH_WEB_ONLINE": "1", "WORKBENCH_WEB_ALLOW": "127.0.0.1"}
    return [
        Case(
            "baseline: calculator.calculate",
            ["call", "calculator.calculate", "--args", '{"expression": "2+2"}'],
            code=0,
            texts=("= 4",),
        ),
        Case(
            "stdio echo (what MCP itself costs)",
            [*call, _faulty(), "faulty.echo", "--args", '{"text": "hi"}'],
            code=0,
            texts=("hi",),
        ),
        # --- stdio: size, encoding, depth, garbage ---------------------------------------
        Case(
            "stdio 50 MB answer",
            [*call, _faulty(), "faulty.big", "--args", '{"mb": 50}'],
            code=1,
            error="LimitExceeded",
            texts=("max_message_bytes",),
            within_s=2,
        ),
        Case(
            "stdio 10 MB answer (under the cap)",
            [*call, _faulty(), "faulty.big", "--args", '{"mb": 10}'],
            code=0,
            texts=("truncated: showing",),
            within_s=5,
        ),
        Case(
            "stdio invalid UTF-8 line",
            [*call, _faulty(), "faulty.bad_utf8"],
            code=1,
            error="ProtocolError",
            texts=("not valid UTF-8",),
            within_s=2,
        ),
        Case(
            "stdio result nested 300 deep",
            [*call, _faulty(), "faulty.deep", "--args", '{"depth": 300}'],
            code=1,
            error="LimitExceeded",
            texts=("max_json_depth",),
            within_s=2,
        ),
        Case(
            "stdio result nested 100,000 deep",
            [*call, _faulty(), "faulty.deep", "--args", '{"depth": 100000}'],
            code=1,
            error="LimitExceeded",
            within_s=2,
        ),
        Case(
            "stdio tool list nested 100 deep",
            [*call, _faulty("--deep-tools", "100"), "faulty.echo"],
            code=0,
            texts=("echo",),
        ),
        Case(
            "stdio 20,000 garbage lines",
            [*call, _faulty(), "faulty.garbage", "--args", '{"lines": 20000}'],
            code=0,
            check=lambda out, err: len(err) < 2_000,
            expected="no tracebacks",
        ),
        Case(
            "stdio garbled answer",
            [*call, _faulty(), "faulty.garbled"],
            code=1,
            error="ProtocolError",
            within_s=2,
        ),
        Case(
            "stdio broken JSON answer",
            [*call, _faulty(), "faulty.broken_json"],
            code=1,
            error="ProtocolError",
            texts=("not JSON",),
            within_s=2,
        ),
        Case(
            "stdio server asks for roots after stdin EOF",
            # A Node SDK server whose request timer keeps it alive once its input closes: the
            # exit must not wait for an answer that will never come.
            [*call, _faulty("--ask-on-eof"), "faulty.echo", "--args", '{"text": "bye"}'],
            code=0,
            texts=("bye",),
            within_s=2,
        ),
        Case(
            "stdio one malformed tool",
            [*call, _faulty("--bad-tools"), "faulty.echo", "--args", '{"text": "fine"}'],
            code=0,
            texts=("fine",),
        ),
        Case(
            "stdio 100 MB of stderr",
            [*call, _faulty(), "faulty.stderr_flood", "--args", '{"mb": 100}'],
            code=0,
            texts=("stderr done",),
            within_s=15,
        ),
        Case(
            "stdio 100k log notifications",
            [*call, _faulty(), "faulty.log_flood", "--args", '{"count": 100000}'],
            code=0,
            texts=("sent 100000",),
            within_s=30,
        ),
        Case(
            "stdio 100k progress notifications",
            [*call, _faulty(), "faulty.progress_flood", "--args", '{"count": 100000}'],
            code=0,
            texts=("sent 100000",),
            within_s=30,
        ),
        Case(
            "stdio crash mid-call",
            [*call, _faulty(), "faulty.crash"],
            code=1,
            error="ConnectionClosed",
            texts=("exited with code 3",),
            within_s=2,
        ),
        Case(
            "stdio closes stdout before the handshake",
            [
                *call,
                _faulty("--close-stdout-at-start"),
                "faulty.hang",
                "--handshake-timeout",
                "60",
            ],
            code=2,
            texts=("closed its output (stdout)", "before the handshake"),
            within_s=15,  # Wall over the baseline (no MCP at all); it used to be the 60 s.
        ),
        Case(
            "stdio closes stdout mid-call (no --timeout)",
            [*call, _faulty(), "faulty.hang", "--args", '{"close_stdout": true}'],
            code=1,
            error="ConnectionClosed",
            texts=("closed its output (stdout)",),
            within_s=2,
        ),
        # --- timeouts ------------------------------------------------------------------
        Case(
            "progress forever, --timeout 3",
            [*call, _faulty(), "faulty.progress_flood", "--args", '{"count": 0}', "--timeout", "3"],
            code=1,
            error="Timeout",
            texts=("after 3.0 s (limit 3 s)",),
            within_s=4,
        ),
        Case(
            "progress forever, --timeout 2 --extend-on-progress 5",
            [
                *call,
                _faulty(),
                "faulty.progress_flood",
                "--args",
                '{"count": 0}',
                "--timeout",
                "2",
                "--extend-on-progress",
                "5",
            ],
            code=1,
            error="Timeout",
            texts=("extended by progress up to 5 s",),
            within_s=6,
        ),
        Case(
            "hang, --timeout 2",
            [*call, _faulty(), "faulty.hang", "--timeout", "2"],
            code=1,
            error="Timeout",
            within_s=3,
        ),
        # --- orphans -------------------------------------------------------------------
        Case(
            "grandchild (plain)",
            [*call, _faulty("--grandchild", "plain"), "faulty.echo"],
            code=0,
            texts=("echo",),
        ),
        Case(
            "grandchild holds stdout",
            [*call, _faulty("--grandchild", "holds-stdout"), "faulty.echo"],
            code=0,
            texts=("echo",),
        ),
        Case(
            "grandchild ignores SIGTERM",
            [*call, _faulty("--grandchild", "ignores-term"), "faulty.echo"],
            code=0,
            texts=("echo",),
        ),
        Case(
            "grandchild in its own process group (setpgid)",
            [*call, _faulty("--ignore-term", "--grandchild", "setpgid"), "faulty.echo"],
            code=0,
            texts=("echo",),
        ),
        Case(
            "server ignores SIGTERM",
            [*call, _faulty("--ignore-term", "--grandchild", "plain"), "faulty.echo"],
            code=0,
            texts=("echo",),
        ),
        # --- ctrl-c and crashes: nothing left, whenever it comes --------------------------
        Case(
            "ctrl-c as the server spawns (call)",
            [*call, deaf, "faulty.hang"],
            code=1,
            texts=("Aborted!",),
            within_s=CTRL_C_S,
            signal_after=(signal.SIGINT, 0.0),
            signal_at_leader=True,
            as_json=False,
        ),
        *(
            Case(
                f"ctrl-c {after:g} s after the spawn (call)",
                [*call, _faulty("--grandchild", "plain"), "faulty.hang"],
                code=1,
                texts=("Aborted!",),
                within_s=CTRL_C_S,
                signal_after=(signal.SIGINT, after),
                signal_at_leader=True,
                as_json=False,
            )
            for after in (0.05, 0.2, 0.5)
        ),
        Case(
            "ctrl-c as the server spawns (tools)",
            ["tools", "--mcp", deaf],
            code=1,
            texts=("Aborted!",),
            within_s=CTRL_C_S,
            signal_after=(signal.SIGINT, 0.0),
            signal_at_leader=True,
        ),
        Case(
            "ctrl-c during a hang (deaf server)",
            [*call, deaf, "faulty.hang"],
            code=1,
            texts=("Aborted!",),
            within_s=CTRL_C_S,
            signal_after=(signal.SIGINT, 1.0),
            signal_at_leader=True,
            as_json=False,
        ),
        Case(
            "workbench killed (SIGKILL) mid-call",
            [*call, deaf, "faulty.hang"],
            code=-9,
            within_s=1,
            signal_after=(signal.SIGKILL, 1.0),
            signal_at_leader=True,
            settle_s=3.0,  # The leader's grace (2 s) before its SIGKILL.
        ),
        # --- streamable HTTP -----------------------------------------------------------
        Case(
            "http 200 MB JSON answer",
            [*call, mcp_http, "faulty-http.huge", "--args", '{"mb": 200}'],
            code=1,
            error="LimitExceeded",
            within_s=5,
        ),
        Case(
            "http gzip,gzip bomb (1 GiB)",
            [*call, mcp_http, "faulty-http.bomb", "--args", json.dumps({"mb": BOMB_GIB})],
            code=1,
            error="LimitExceeded",
            within_s=5,
        ),
        Case(
            "http endless JSON body",
            [*call, mcp_http, "faulty-http.endless"],
            code=1,
            error="LimitExceeded",
            within_s=5,
        ),
        Case(
            "http 20 MB SSE event",
            [*call, mcp_http, "faulty-http.sse_big", "--args", '{"mb": 20}'],
            code=1,
            error="LimitExceeded",
            within_s=5,
        ),
        Case(
            "http 2 MB SSE event (SDK default cap: 1 MiB)",
            [*call, mcp_http, "faulty-http.sse_big", "--args", '{"mb": 2}'],
            code=0,
            texts=("zzz",),
        ),
        Case(
            "http result nested 300 deep",
            [*call, mcp_http, "faulty-http.deep", "--args", '{"depth": 300}'],
            code=1,
            error="LimitExceeded",
            within_s=2,
        ),
        # --- HTTP tools, pages, search ------------------------------------------------
        Case(
            "HTTP tool: gzip,gzip bomb",
            ["call", "remote.bomb", "--allow-host", "127.0.0.1"],
            code=1,
            error="LimitExceeded",
            texts=("max_body_bytes",),
        ),
        Case(
            "crawlSinglePage: gzip,gzip bomb",
            [
                "call",
                "web-browsing.crawlSinglePage",
                "--args",
                json.dumps({"url": web.url("/bomb")}),
            ],
            code=0,
            texts=("max_body_bytes",),
            env=web_env,
        ),
        Case(
            "crawlMultiPages: 4 bombs",
            [
                "call",
                "web-browsing.crawlMultiPages",
                "--args",
                json.dumps({"urls": [web.url(f"/bomb?{n}") for n in range(4)]}),
            ],
            code=0,
            texts=("max_body_bytes",),
            env=web_env,
        ),
        Case(
            "search: SearXNG answers a bomb",
            ["call", "web-browsing.search", "--args", '{"query": "x"}'],
            code=1,
            error="LimitExceeded",
            env={**web_env, "WORKBENCH_SEARXNG_URL": web.url("/searx")},
        ),
        # --- hostile text --------------------------------------------------------------
        Case(
            "hostile server, text",
            ["call", "--mcp", hostile, "explode"],
            code=1,
            as_json=False,
            within_s=30,  # Wall over the baseline: these count escape bytes.
        ),
        Case(
            "hostile server, chatty: log, progress, stderr",
            ["call", "--mcp", hostile, "chatty"],
            code=0,
            texts=("said HOSTILE",),
            as_json=False,
            within_s=30,  # Wall over the baseline: these count escape bytes.
        ),
        Case(
            "hostile server, --format json",
            ["call", "--mcp", hostile, "echo", "--format", "json"],
            code=0,
            within_s=30,  # Wall over the baseline: these count escape bytes.
        ),
        Case(
            "hostile server, tools --openai",
            ["tools", "--openai", "--mcp", hostile],
            code=0,
            within_s=30,  # Wall over the baseline: these count escape bytes.
        ),
        # --- fixtures ------------------------------------------------------------------
        Case(
            "check: hostile fixtures + a good one",
            ["check", "hostile"],
            code=1,
            texts=("hostile/huge-int.yaml:",),
            check=lambda out, err: "Traceback" not in err and "good.yaml" not in out,
            expected="no traceback, good.yaml clean",
        ),
    ]


# --- issue 21: well-formed answers that are wrong (an id, an error code, a string, a length) ---


def protocol_cases(http: str) -> list[Case]:
    """Issue 21's well-formed wrong answers: each ends the call at once, saying what happened."""
    call = ["call", "--mcp"]
    faulty = _faulty("--protocol-faults")
    mcp_http = f"{http}/mcp"
    wrong = '{"id": 424242}'
    sse = '{"id": 424242, "sse": true}'
    mismatched = {"code": 1, "error": "MismatchedResponseId", "within_s": 2.0}
    said = ("answered id 424242",)
    return [
        Case(
            "stdio answer with a wrong id",
            [*call, faulty, "faulty.wrong_id", "--args", wrong],
            texts=said,
            **mismatched,  # type: ignore[arg-type]
        ),
        Case(
            "http JSON answer with a wrong id",
            [*call, mcp_http, "faulty-http.wrong_id", "--args", wrong],
            texts=said,
            **mismatched,  # type: ignore[arg-type]
        ),
        Case(
            "http SSE answer with a wrong id",
            [*call, mcp_http, "faulty-http.wrong_id", "--args", sse],
            texts=said,
            **mismatched,  # type: ignore[arg-type]
        ),
        Case(
            "stdio server's own error -32000",
            [*call, faulty, "faulty.server_error", "--args", '{"code": -32000, "message": "db"}'],
            code=1,
            error="ProtocolError",
            texts=("with error -32000: db",),
            within_s=2.0,
        ),
        Case(
            "stdio server's own error -32001",
            [*call, faulty, "faulty.server_error", "--args", '{"code": -32001, "message": "db"}'],
            code=1,
            error="ProtocolError",
            texts=("with error -32001: db",),
            within_s=2.0,
        ),
        Case(
            "http SSE server's own error -32000",
            [
                *call,
                mcp_http,
                "faulty-http.server_error",
                "--args",
                '{"code": -32000, "message": "db", "sse": true}',
            ],
            code=1,
            error="ProtocolError",
            texts=("with error -32000: db",),
            within_s=2.0,
        ),
        Case(
            "stdio lone surrogates in a result",
            [*call, faulty, "faulty.surrogate"],
            code=0,
            texts=("before \ufffd middle",),
            within_s=2.0,
        ),
        Case(
            "http lone surrogate in a result",
            [*call, mcp_http, "faulty-http.surrogate"],
            code=0,
            texts=("before \ufffd after",),
            within_s=2.0,
        ),
        Case(
            "stdio 100,000 tools (13.7 MB list)",
            [*call, _faulty("--many-tools", "100000"), "faulty.echo", "--args", '{"text": "hi"}'],
            code=0,
            texts=("hi",),
            within_s=5.0,
        ),
    ]


HOSTILE_FIXTURES = {
    "huge-int.yaml": "state: {value: " + "9" * 5000 + "}",
    "inf.yaml": "state: {value: .inf}",
    "binary.yaml": "state: {value: !!binary aGVsbG8=}",
    "deep.yaml": "state: " + "[" * 500 + "]" * 500,
}


def make_project(web: LocalServer) -> Path:
    project = Path(tempfile.mkdtemp(prefix="workbench-faults-"))
    (project / "pyproject.toml").write_text(
        '[tool.workbench]\nfixtures = ["fixtures"]\ninclude_bundled = true\n'
    )
    remote = project / "fixtures" / "remote"
    remote.mkdir(parents=True)
    (remote / "manifest.yaml").write_text(
        "identifier: remote\nmeta: {title: Remote}\n"
        f"api:\n  - name: bomb\n    url: {web.url('/bomb')}\n"
    )
    hostile = project / "hostile"
    hostile.mkdir()
    head = (
        "tool: calculator\napi: calculate\nvariants:\n  - id: v\n    label: L\n"
        "    kind: typical\n    args: {expression: '1'}\n    result:\n      success: true\n"
        "      content: ok\n      "
    )
    for name, tail in HOSTILE_FIXTURES.items():
        (hostile / name).write_text(head + tail + "\n")
    (hostile / "good.yaml").write_text(head + "state: {value: 1}\n")
    return project


@contextmanager
def endpoints() -> Iterator[tuple[str, LocalServer]]:
    from tests.sources.servers.faulty_http import app

    bomb = gzip_gzip_bomb(BOMB_GIB)
    with ExitStack() as stack:
        web = stack.enter_context(running_server())
        headers = {"Content-Encoding": "gzip, gzip"}
        web.route("/bomb", Reply(body=bomb, content_type="text/html", headers=headers))
        web.route(
            "/searx/search",
            Reply(body=bomb, content_type="application/json", headers=headers),
        )
        http = stack.enter_context(serve_asgi(app))
        yield http, web


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="run the cases whose name has this text")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    options = parser.parse_args()
    print("building a 1 GiB gzip,gzip bomb (1,827 bytes on the wire)...", file=sys.stderr)
    with endpoints() as (http, web):
        project = make_project(web)
        selected = [
            case
            for case in [*cases(http, web), *protocol_cases(http)]
            if case.name.startswith("baseline") or options.only.lower() in case.name.lower()
        ]
        if options.list:
            for case in selected:
                print(f"{case.name}: {case.describe()}")
            return
        header = (
            f"{'case':<48} {'expected':<34} {'exit':>4} {'wall s':>7} {'x base':>6} "
            f"{'timed s':>7} {'peak MB':>8} {'x base':>6} {'left':>4} {'esc':>4}  result"
        )
        print(header)
        print("-" * len(header))
        base: Outcome | None = None
        failures = 0
        for case in selected:
            outcome = run(case, project)
            base = base or outcome
            missed = outcome.misses(case, base)
            failures += bool(missed)
            print(
                f"{case.name[:48]:<48} {case.describe()[:34]:<34} {outcome.code:>4} "
                f"{outcome.wall_s:>7.2f} {outcome.wall_s / base.wall_s:>6.2f} "
                f"{outcome.timed_s(base):>7.2f} "
                f"{outcome.peak_mb:>8.0f} {outcome.peak_mb / base.peak_mb:>6.2f} "
                f"{outcome.leftovers:>4} {outcome.escape_bytes:>4}  "
                f"{'PASS' if not missed else 'FAIL: ' + '; '.join(missed)}",
                flush=True,
            )
        print(f"\n{len(selected) - failures} of {len(selected)} cases as expected")
        if failures:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
