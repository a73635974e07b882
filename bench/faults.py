"""The fault matrix: `workbench` against servers and endpoints that misbehave, case by case.

Each case runs the real CLI in a fresh process (`workbench call`, `tools`, `check`) against
the raw fault servers of the test suite (stdio `faulty.py`, streamable-HTTP `faulty_http.py`,
the hostile-text server) and loopback HTTP endpoints serving bombs. Per case it prints what
was expected, the exit code, the wall time, the peak RSS of the workbench process (from
wait4), processes left running afterwards (found by a marker in their environment), and the
escape bytes that reached stdout/stderr (ESC, C1 controls, bidi overrides). The baseline row
is a trivial call measured in the same run; the x-columns are ratios against it.

    python bench/faults.py [--only SUBSTRING] [--list]
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


@dataclass
class Case:
    name: str
    expected: str
    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    check: Callable[[int, str, str], bool] = lambda code, out, err: True
    signal_after: tuple[int, float] | None = None
    """Send this signal after this many seconds (a cancel, a crash)."""
    as_json: bool = True
    """Run ``call`` with ``--format json``, to read how long the call itself took."""


@dataclass
class Outcome:
    code: int
    wall_s: float
    peak_mb: float
    call_s: float | None
    leftovers: int
    escape_bytes: int
    ok: bool
    note: str


def _faulty(*flags: str) -> str:
    return shlex.join([sys.executable, str(FAULTY), *flags])


def _expects(error_type: str, *texts: str) -> Callable[[int, str, str], bool]:
    def check(code: int, out: str, err: str) -> bool:
        found = error_type in out + err
        return code == 1 and found and all(text in out + err for text in texts)

    return check


def _succeeds(*texts: str) -> Callable[[int, str, str], bool]:
    return lambda code, out, err: code == 0 and all(text in out for text in texts)


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


def run(case: Case, project: Path, bound_s: float = 90.0) -> Outcome:
    marker = uuid.uuid4().hex
    env = {**os.environ, **case.env, MARKER: marker, "COLUMNS": "200"}
    argv = list(case.argv)
    if case.as_json and argv[0] == "call":
        argv += ["--format", "json"]
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
                time.sleep(after)
                os.kill(workbench, signum)
            try:
                launcher.wait(timeout=bound_s)
            except subprocess.TimeoutExpired:
                os.kill(workbench, signal.SIGKILL)
                launcher.wait()
        wall = time.perf_counter() - started
        peak_kb, code = (int(item) for item in usage_file.read_text().split())
        time.sleep(0.5 if case.signal_after is None else 3.0)  # What dies with us has time to.
        left = leftovers(marker)
        stdout, stderr = out_file.read_bytes(), err_file.read_bytes()
    text_out = stdout.decode("utf-8", "replace")
    text_err = stderr.decode("utf-8", "replace")
    ok = case.check(code, text_out, text_err) and left == 0
    last = (text_err.strip().splitlines() or text_out.strip().splitlines() or [""])[-1]
    call_s = None
    try:
        timings = json.loads(text_out)["timings"]
        call_s = (timings["endedMs"] - timings["startedMs"]) / 1000
    except (ValueError, KeyError, TypeError):
        pass
    return Outcome(
        code=code,
        wall_s=wall,
        peak_mb=peak_kb / 1024,
        call_s=call_s,
        leftovers=left,
        escape_bytes=len(ESCAPES.findall(stdout + stderr)),
        ok=ok,
        note=last[:110],
    )


def cases(http: str, web: LocalServer) -> list[Case]:
    call = ["call", "--mcp"]
    mcp_http = f"{http}/mcp"
    return [
        Case(
            "baseline: calculator.calculate",
            "success",
            ["call", "calculator.calculate", "--args", '{"expression": "2+2"}'],
            check=_succeeds("= 4"),
        ),
        Case(
            "stdio echo (what MCP itself costs)",
            "success",
            [*call, _faulty(), "faulty.echo", "--args", '{"text": "hi"}'],
            check=_succeeds("hi"),
        ),
        # --- stdio: size, encoding, depth, garbage ---------------------------------------
        Case(
            "stdio 50 MB answer",
            "LimitExceeded < 2 s",
            [*call, _faulty(), "faulty.big", "--args", '{"mb": 50}'],
            check=_expects("LimitExceeded", "max_message_bytes"),
        ),
        Case(
            "stdio 10 MB answer (under the cap)",
            "success",
            [*call, _faulty(), "faulty.big", "--args", '{"mb": 10}'],
            check=_succeeds("truncated: showing"),
        ),
        Case(
            "stdio invalid UTF-8 line",
            "ProtocolError < 2 s",
            [*call, _faulty(), "faulty.bad_utf8"],
            check=_expects("ProtocolError", "not valid UTF-8"),
        ),
        Case(
            "stdio result nested 300 deep",
            "LimitExceeded < 2 s",
            [*call, _faulty(), "faulty.deep", "--args", '{"depth": 300}'],
            check=_expects("LimitExceeded", "max_json_depth"),
        ),
        Case(
            "stdio result nested 100,000 deep",
            "LimitExceeded < 2 s",
            [*call, _faulty(), "faulty.deep", "--args", '{"depth": 100000}'],
            check=_expects("LimitExceeded"),
        ),
        Case(
            "stdio tool list nested 100 deep",
            "other tools offered",
            [*call, _faulty("--deep-tools", "100"), "faulty.echo"],
            check=_succeeds("echo"),
        ),
        Case(
            "stdio 20,000 garbage lines",
            "success, no tracebacks",
            [*call, _faulty(), "faulty.garbage", "--args", '{"lines": 20000}'],
            check=lambda code, out, err: code == 0 and len(err) < 2_000,
        ),
        Case(
            "stdio garbled answer",
            "ProtocolError < 2 s",
            [*call, _faulty(), "faulty.garbled"],
            check=_expects("ProtocolError"),
        ),
        Case(
            "stdio broken JSON answer",
            "ProtocolError < 2 s",
            [*call, _faulty(), "faulty.broken_json"],
            check=_expects("ProtocolError", "not JSON"),
        ),
        Case(
            "stdio one malformed tool",
            "valid tools callable",
            [*call, _faulty("--bad-tools"), "faulty.echo", "--args", '{"text": "fine"}'],
            check=_succeeds("fine"),
        ),
        Case(
            "stdio 100 MB of stderr",
            "success, stderr bounded",
            [*call, _faulty(), "faulty.stderr_flood", "--args", '{"mb": 100}'],
            check=_succeeds("stderr done"),
        ),
        Case(
            "stdio 100k log notifications",
            "success",
            [*call, _faulty(), "faulty.log_flood", "--args", '{"count": 100000}'],
            check=_succeeds("sent 100000"),
        ),
        Case(
            "stdio 100k progress notifications",
            "success",
            [*call, _faulty(), "faulty.progress_flood", "--args", '{"count": 100000}'],
            check=_succeeds("sent 100000"),
        ),
        Case(
            "stdio crash mid-call",
            "ConnectionClosed",
            [*call, _faulty(), "faulty.crash"],
            check=_expects("ConnectionClosed", "exited with code 3"),
        ),
        # --- timeouts ------------------------------------------------------------------
        Case(
            "progress forever, --timeout 3",
            "Timeout at 3 s",
            [*call, _faulty(), "faulty.progress_flood", "--args", '{"count": 0}', "--timeout", "3"],
            check=_expects("Timeout", "after 3.0 s (limit 3 s)"),
        ),
        Case(
            "progress forever, --timeout 2 --extend-on-progress 5",
            "Timeout at 5 s",
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
            check=_expects("Timeout", "extended by progress up to 5 s"),
        ),
        Case(
            "hang, --timeout 2",
            "Timeout at 2 s",
            [*call, _faulty(), "faulty.hang", "--timeout", "2"],
            check=_expects("Timeout"),
        ),
        # --- orphans -------------------------------------------------------------------
        Case(
            "grandchild (plain)",
            "no leftovers",
            [*call, _faulty("--grandchild", "plain"), "faulty.echo"],
            check=_succeeds("echo"),
        ),
        Case(
            "grandchild holds stdout",
            "no leftovers",
            [*call, _faulty("--grandchild", "holds-stdout"), "faulty.echo"],
            check=_succeeds("echo"),
        ),
        Case(
            "grandchild ignores SIGTERM",
            "no leftovers",
            [*call, _faulty("--grandchild", "ignores-term"), "faulty.echo"],
            check=_succeeds("echo"),
        ),
        Case(
            "server ignores SIGTERM",
            "no leftovers",
            [*call, _faulty("--ignore-term", "--grandchild", "plain"), "faulty.echo"],
            check=_succeeds("echo"),
        ),
        Case(
            "cancel (SIGINT) during a hang",
            "no leftovers",
            [*call, _faulty("--ignore-term", "--grandchild", "ignores-term"), "faulty.hang"],
            signal_after=(signal.SIGINT, 3.0),
            check=lambda code, out, err: code != 0,
        ),
        Case(
            "workbench killed (SIGKILL) mid-call",
            "no leftovers",
            [*call, _faulty("--ignore-term", "--grandchild", "ignores-term"), "faulty.hang"],
            signal_after=(signal.SIGKILL, 3.0),
            check=lambda code, out, err: code == -9,
        ),
        # --- streamable HTTP -----------------------------------------------------------
        Case(
            "http 200 MB JSON answer",
            "LimitExceeded",
            [*call, mcp_http, "faulty-http.huge", "--args", '{"mb": 200}'],
            check=_expects("LimitExceeded"),
        ),
        Case(
            "http gzip,gzip bomb (1 GiB)",
            "LimitExceeded",
            [*call, mcp_http, "faulty-http.bomb", "--args", json.dumps({"mb": BOMB_GIB})],
            check=_expects("LimitExceeded"),
        ),
        Case(
            "http endless JSON body",
            "LimitExceeded",
            [*call, mcp_http, "faulty-http.endless"],
            check=_expects("LimitExceeded"),
        ),
        Case(
            "http 20 MB SSE event",
            "LimitExceeded",
            [*call, mcp_http, "faulty-http.sse_big", "--args", '{"mb": 20}'],
            check=_expects("LimitExceeded"),
        ),
        Case(
            "http 2 MB SSE event (SDK default cap: 1 MiB)",
            "success",
            [*call, mcp_http, "faulty-http.sse_big", "--args", '{"mb": 2}'],
            check=_succeeds("zzz"),
        ),
        Case(
            "http result nested 300 deep",
            "LimitExceeded",
            [*call, mcp_http, "faulty-http.deep", "--args", '{"depth": 300}'],
            check=_expects("LimitExceeded"),
        ),
        # --- HTTP tools, pages, search ------------------------------------------------
        Case(
            "HTTP tool: gzip,gzip bomb",
            "LimitExceeded",
            ["call", "remote.bomb", "--allow-host", "127.0.0.1"],
            check=_expects("LimitExceeded", "max_body_bytes"),
        ),
        Case(
            "crawlSinglePage: gzip,gzip bomb",
            "cut at max_body_bytes",
            [
                "call",
                "web-browsing.crawlSinglePage",
                "--args",
                json.dumps({"url": web.url("/bomb")}),
            ],
            env={"WORKBENCH_WEB_ONLINE": "1", "WORKBENCH_WEB_ALLOW": "127.0.0.1"},
            check=_succeeds("max_body_bytes"),
        ),
        Case(
            "crawlMultiPages: 4 bombs",
            "each cut",
            [
                "call",
                "web-browsing.crawlMultiPages",
                "--args",
                json.dumps({"urls": [web.url(f"/bomb?{n}") for n in range(4)]}),
            ],
            env={"WORKBENCH_WEB_ONLINE": "1", "WORKBENCH_WEB_ALLOW": "127.0.0.1"},
            check=_succeeds("max_body_bytes"),
        ),
        Case(
            "search: SearXNG answers a bomb",
            "LimitExceeded",
            ["call", "web-browsing.search", "--args", '{"query": "x"}'],
            env={
                "WORKBENCH_WEB_ONLINE": "1",
                "WORKBENCH_WEB_ALLOW": "127.0.0.1",
                "WORKBENCH_SEARXNG_URL": web.url("/searx"),
            },
            check=_expects("LimitExceeded"),
        ),
        # --- hostile text --------------------------------------------------------------
        Case(
            "hostile server, text",
            "0 escape bytes",
            ["call", "--mcp", shlex.join([sys.executable, str(HOSTILE)]), "explode"],
            check=lambda code, out, err: code == 1,
            as_json=False,
        ),
        Case(
            "hostile server, chatty: log, progress, stderr",
            "0 escape bytes",
            ["call", "--mcp", shlex.join([sys.executable, str(HOSTILE)]), "chatty"],
            check=lambda code, out, err: code == 0 and "said HOSTILE" in out,
            as_json=False,
        ),
        Case(
            "hostile server, --format json",
            "0 escape bytes",
            [
                "call",
                "--mcp",
                shlex.join([sys.executable, str(HOSTILE)]),
                "echo",
                "--format",
                "json",
            ],
            check=lambda code, out, err: code == 0,
        ),
        Case(
            "hostile server, tools --openai",
            "0 escape bytes",
            ["tools", "--openai", "--mcp", shlex.join([sys.executable, str(HOSTILE)])],
            check=lambda code, out, err: code == 0,
        ),
        # --- fixtures ------------------------------------------------------------------
        Case(
            "check: hostile fixtures + a good one",
            "located problems",
            ["check", "hostile"],
            check=lambda code, out, err: (
                code == 1
                and "Traceback" not in err
                and "hostile/huge-int.yaml:" in out
                and "good.yaml" not in out
            ),
        ),
    ]


# --- issue 21: well-formed answers that are wrong (an id, an error code, a string, a length) ---


def _answers(
    error_type: str | None, *texts: str, within_s: float = 2.0
) -> Callable[[int, str, str], bool]:
    """The call ends in ``error_type`` (``None``: succeeds) saying ``texts``, within ``within_s``
    of call time (from ``--format json``), never at a deadline."""

    def check(code: int, out: str, err: str) -> bool:
        try:
            answer = json.loads(out)
            timings = answer["timings"]
            seconds = (timings["endedMs"] - timings["startedMs"]) / 1000
        except (ValueError, KeyError, TypeError):
            return False
        error = ((answer.get("result") or {}).get("error") or {}).get("type")
        said = json.dumps(answer, ensure_ascii=False)
        return (
            error == error_type
            and code == (0 if error_type is None else 1)
            and all(text in said for text in texts)
            and seconds < within_s
        )

    return check


def protocol_cases(http: str) -> list[Case]:
    call = ["call", "--mcp"]
    faulty = _faulty("--protocol-faults")
    mcp_http = f"{http}/mcp"
    wrong = '{"id": 424242}'
    sse = '{"id": 424242, "sse": true}'
    return [
        Case(
            "stdio answer with a wrong id",
            "MismatchedResponseId < 2 s",
            [*call, faulty, "faulty.wrong_id", "--args", wrong],
            check=_answers("MismatchedResponseId", "answered id 424242"),
        ),
        Case(
            "http JSON answer with a wrong id",
            "MismatchedResponseId < 2 s",
            [*call, mcp_http, "faulty-http.wrong_id", "--args", wrong],
            check=_answers("MismatchedResponseId", "answered id 424242"),
        ),
        Case(
            "http SSE answer with a wrong id",
            "MismatchedResponseId < 2 s",
            [*call, mcp_http, "faulty-http.wrong_id", "--args", sse],
            check=_answers("MismatchedResponseId", "answered id 424242"),
        ),
        Case(
            "stdio server's own error -32000",
            "ProtocolError -32000 < 2 s",
            [*call, faulty, "faulty.server_error", "--args", '{"code": -32000, "message": "db"}'],
            check=_answers("ProtocolError", "with error -32000: db"),
        ),
        Case(
            "stdio server's own error -32001",
            "ProtocolError -32001 < 2 s",
            [*call, faulty, "faulty.server_error", "--args", '{"code": -32001, "message": "db"}'],
            check=_answers("ProtocolError", "with error -32001: db"),
        ),
        Case(
            "http SSE server's own error -32000",
            "ProtocolError -32000 < 2 s",
            [
                *call,
                mcp_http,
                "faulty-http.server_error",
                "--args",
                '{"code": -32000, "message": "db", "sse": true}',
            ],
            check=_answers("ProtocolError", "with error -32000: db"),
        ),
        Case(
            "stdio lone surrogates in a result",
            "success, U+FFFD",
            [*call, faulty, "faulty.surrogate"],
            check=_answers(None, "before \ufffd middle"),
        ),
        Case(
            "http lone surrogate in a result",
            "success, U+FFFD",
            [*call, mcp_http, "faulty-http.surrogate"],
            check=_answers(None, "before \ufffd after"),
        ),
        Case(
            "stdio 100,000 tools (13.7 MB list)",
            "1,000 offered, echo works",
            [*call, _faulty("--many-tools", "100000"), "faulty.echo", "--args", '{"text": "hi"}'],
            check=_answers(None, "hi", within_s=5.0),
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
                print(f"{case.name}: {case.expected}")
            return
        header = (
            f"{'case':<52} {'expected':<26} {'exit':>4} {'wall s':>7} {'x base':>6} {'call s':>6} "
            f"{'peak MB':>8} {'x base':>6} {'left':>4} {'esc':>4}  ok"
        )
        print(header)
        print("-" * len(header))
        base: Outcome | None = None
        failures = 0
        for case in selected:
            outcome = run(case, project)
            base = base or outcome
            failures += not outcome.ok
            print(
                f"{case.name[:52]:<52} {case.expected[:26]:<26} {outcome.code:>4} "
                f"{outcome.wall_s:>7.2f} {outcome.wall_s / base.wall_s:>6.2f} "
                f"{'' if outcome.call_s is None else f'{outcome.call_s:.2f}':>6} "
                f"{outcome.peak_mb:>8.0f} {outcome.peak_mb / base.peak_mb:>6.2f} "
                f"{outcome.leftovers:>4} {outcome.escape_bytes:>4}  "
                f"{'ok' if outcome.ok else 'FAIL: ' + outcome.note}",
                flush=True,
            )
        print(f"\n{len(selected) - failures} of {len(selected)} cases as expected")


if __name__ == "__main__":
    main()
