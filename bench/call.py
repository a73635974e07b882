"""Headless commands against a bare `mcp.Client` script doing the same: `workbench call` (one
call) and `workbench tools` (the tool list).

Two servers, each in fresh interpreters, pairs alternated (bare, workbench, bare, ...) in one
run so both sides see the same machine:

- stdio: server-everything (npm, installed where the tests install it) run with node; the call
  is ``echo {"message": "hi"}`` (``workbench call echo --mcp "node … stdio"``);
- in-process: the embedded demo server (``workbench call echo --demo``; the bare script hands
  the same ``build_server()`` to ``mcp.Client``).

For ``tools`` the bare script lists the server's tools and prints their names; workbench runs
``workbench tools --mcp …`` / ``--demo`` (which also lists its bundled tools).

Wall time is spawn to exit. CPU time and peak RSS are the Python process's own (read at exit,
so the node server is not counted). Prints medians and the ratios (goal: workbench / bare
<= 1.05).

    python bench/call.py [--runs 9] [--only stdio|inprocess] [--commands call,tools]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

EVERYTHING = (
    Path.home()
    / ".cache/workbench-tests/server-everything-2026.8.31/node_modules"
    / "@modelcontextprotocol/server-everything/dist/index.js"
)

# Every program runs under this prologue: at exit it writes its own CPU time and peak RSS.
PROLOGUE = """
import atexit, os, resource
def _report():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    with open(os.environ["BENCH_REPORT"], "w") as handle:
        handle.write(f"{usage.ru_utime + usage.ru_stime} {usage.ru_maxrss}")
atexit.register(_report)
"""

BARE_STDIO = """
import asyncio
from mcp import Client, StdioServerParameters

async def main():
    server = StdioServerParameters(command="node", args=[{entry!r}, "stdio"])
    async with Client(server) as client:
        result = await client.call_tool("echo", {{"message": "hi"}})
        print(result.content[0].text)

asyncio.run(main())
"""

BARE_INPROCESS = """
import asyncio
from mcp import Client
from workbench.sources.demo_server import build_server

async def main():
    async with Client(build_server()) as client:
        result = await client.call_tool("echo", {"text": "hi"})
        print(result.content[0].text)

asyncio.run(main())
"""

BARE_STDIO_TOOLS = """
import asyncio
from mcp import Client, StdioServerParameters

async def main():
    server = StdioServerParameters(command="node", args=[{entry!r}, "stdio"])
    async with Client(server) as client:
        for tool in (await client.list_tools()).tools:
            print(tool.name)

asyncio.run(main())
"""

BARE_INPROCESS_TOOLS = """
import asyncio
from mcp import Client
from workbench.sources.demo_server import build_server

async def main():
    async with Client(build_server()) as client:
        for tool in (await client.list_tools()).tools:
            print(tool.name)

asyncio.run(main())
"""

WORKBENCH = """
import sys
sys.argv = ["workbench", *{argv!r}]
from workbench.cli import main
main()
"""


@dataclass
class Run:
    wall_s: float
    cpu_s: float
    rss_kib: int


def run_once(code: str, expected: str, cwd: Path) -> Run:
    with tempfile.NamedTemporaryFile("r", suffix=".report") as report:
        env = {**os.environ, "BENCH_REPORT": report.name}
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", PROLOGUE + code],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        wall = time.perf_counter() - started
        if done.returncode != 0 or expected not in done.stdout:
            raise RuntimeError(f"exit {done.returncode}: {done.stdout[-500:]}{done.stderr[-2000:]}")
        cpu, rss = report.read().split()
    return Run(wall, float(cpu), int(rss))


def _summary(name: str, runs: list[Run]) -> tuple[float, float, float]:
    walls = [run.wall_s * 1000 for run in runs]
    cpus = [run.cpu_s * 1000 for run in runs]
    rss = statistics.median(run.rss_kib / 1024 for run in runs)
    print(
        f"{name:<24} wall median {statistics.median(walls):6.0f} ms "
        f"(min {min(walls):.0f}, max {max(walls):.0f})   "
        f"cpu median {statistics.median(cpus):6.0f} ms "
        f"(min {min(cpus):.0f}, max {max(cpus):.0f})   peak RSS {rss:5.1f} MiB"
    )
    return statistics.median(walls), statistics.median(cpus), rss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--only", choices=["stdio", "inprocess"])
    parser.add_argument(
        "--commands",
        default="call,tools",
        help="Comma-separated workbench commands to measure: call, tools (default: both).",
    )
    options = parser.parse_args()
    commands = [item.strip() for item in options.commands.split(",") if item.strip()]
    if not set(commands) <= {"call", "tools"}:
        parser.error("--commands takes call and/or tools")
    pairs: list[tuple[str, str, str, str]] = []  # name, bare code, workbench code, expected
    if options.only in (None, "stdio"):
        if not EVERYTHING.is_file():
            sys.exit(
                f"{EVERYTHING} is missing: run tests/sources/test_reference_servers.py once "
                "(it installs server-everything), or pass --only inprocess"
            )
        server = f"node {EVERYTHING} stdio"
        if "call" in commands:
            argv = ["call", "echo", "--args", '{"message": "hi"}', "--mcp", server]
            pairs.append(
                (
                    "call, stdio (server-everything)",
                    BARE_STDIO.format(entry=str(EVERYTHING)),
                    WORKBENCH.format(argv=argv),
                    "Echo: hi",
                )
            )
        if "tools" in commands:
            pairs.append(
                (
                    "tools, stdio (server-everything)",
                    BARE_STDIO_TOOLS.format(entry=str(EVERYTHING)),
                    WORKBENCH.format(argv=["tools", "--mcp", server]),
                    "echo",
                )
            )
    if options.only in (None, "inprocess"):
        if "call" in commands:
            argv = ["call", "echo", "--demo", "--args", '{"text": "hi"}']
            pairs.append(
                ("call, in-process (demo)", BARE_INPROCESS, WORKBENCH.format(argv=argv), "hi")
            )
        if "tools" in commands:
            pairs.append(
                (
                    "tools, in-process (demo)",
                    BARE_INPROCESS_TOOLS,
                    WORKBENCH.format(argv=["tools", "--demo"]),
                    "echo",
                )
            )
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="workbench-call-") as scratch:
        cwd = Path(scratch)  # No project here: bundled tools only, as a user's empty folder.
        for _, bare, workbench, expected in pairs:  # Warm the file cache for both sides.
            run_once(bare, expected, cwd)
            run_once(workbench, expected, cwd)
        results: dict[str, tuple[list[Run], list[Run]]] = {name: ([], []) for name, *_ in pairs}
        for _ in range(options.runs):
            for name, bare, workbench, expected in pairs:
                results[name][0].append(run_once(bare, expected, cwd))
                results[name][1].append(run_once(workbench, expected, cwd))
    print(
        f"{options.runs} runs each, alternating; load average {load_before:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after, on {os.cpu_count()} CPUs"
    )
    for name, (bare_runs, workbench_runs) in results.items():
        print(f"-- {name}")
        bare_wall, bare_cpu, bare_rss = _summary("bare mcp.Client", bare_runs)
        wb_wall, wb_cpu, wb_rss = _summary(f"workbench {name.split(',')[0]}", workbench_runs)
        print(
            f"ratio workbench / bare: wall {wb_wall / bare_wall:.2f}  cpu {wb_cpu / bare_cpu:.2f}  "
            f"peak RSS {wb_rss / bare_rss:.2f}   (goal: <= 1.05 for time)"
        )


if __name__ == "__main__":
    main()
