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

Over stdio, MCP Inspector's CLI makes the same call (``mcp-inspector --cli node … stdio
--method tools/call --tool-name echo --tool-arg message=hi``, or ``--method tools/list``) as a
third program in each round. It and Node 22 (which it needs) are installed from the npm
registry into ``~/.cache/workbench-bench`` when missing, as ``scripts/conformance.py`` installs
its suite; ``--no-inspector`` leaves it out. The server runs on the same ``node`` for all three.

Wall time is spawn to exit: what a user and a CI job wait for, and the goal. CPU time and peak
RSS are the Python process's own (read at exit, so the node server is not counted); for
Inspector, a node program, CPU is its whole process tree's, server included. Prints medians
and the ratios, wall first (goal: workbench / bare <= 1.05, and below Inspector).

Workbench's own modules are byte-compiled first, as an installed wheel's are: where
``PYTHONDONTWRITEBYTECODE`` is set, an editable install would otherwise compile them in every
run while the bare script's dependencies load compiled.

    python bench/call.py [--runs 9] [--only stdio|inprocess] [--commands call,tools]
                         [--no-inspector]
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"
NODE = "node@22"
INSPECTOR_CACHE = Path.home() / ".cache/workbench-bench" / "inspector-2.12.0"
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


def install_inspector() -> list[str]:
    """The argv prefix that runs Inspector's launcher on Node 22, installed when missing."""
    node = INSPECTOR_CACHE / "node_modules" / ".bin" / "node"
    launcher = INSPECTOR_CACHE / "node_modules" / ".bin" / "mcp-inspector"
    if not (node.exists() and launcher.exists()):
        npm = shutil.which("npm")
        if npm is None:
            sys.exit("npm is needed to install MCP Inspector (or pass --no-inspector)")
        INSPECTOR_CACHE.mkdir(parents=True, exist_ok=True)
        pins = (NODE, INSPECTOR)
        print(f"installing {NODE} and {INSPECTOR} into {INSPECTOR_CACHE}", file=sys.stderr)
        subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--prefix", str(INSPECTOR_CACHE), *pins],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return [str(node), str(launcher.resolve()), "--cli"]


def run_program(argv: list[str], expected: str, cwd: Path) -> Run:
    """A program that is not Python: its whole process tree's CPU, no RSS."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or expected not in done.stdout:
        raise RuntimeError(f"exit {done.returncode}: {done.stdout[-500:]}{done.stderr[-2000:]}")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return Run(wall, cpu, 0)


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


def _summary(name: str, runs: list[Run], *, tree: bool = False) -> tuple[float, float, float]:
    walls = [run.wall_s * 1000 for run in runs]
    cpus = [run.cpu_s * 1000 for run in runs]
    rss = statistics.median(run.rss_kib / 1024 for run in runs)
    print(
        f"{name:<24} wall median {statistics.median(walls):6.0f} ms "
        f"(min {min(walls):.0f}, max {max(walls):.0f})   "
        f"cpu median {statistics.median(cpus):6.0f} ms "
        f"(min {min(cpus):.0f}, max {max(cpus):.0f})"
        + ("   (process tree, server included)" if tree else f"   peak RSS {rss:5.1f} MiB")
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
    parser.add_argument(
        "--no-inspector", action="store_true", help="Do not measure MCP Inspector's CLI."
    )
    options = parser.parse_args()
    commands = [item.strip() for item in options.commands.split(",") if item.strip()]
    if not set(commands) <= {"call", "tools"}:
        parser.error("--commands takes call and/or tools")
    import workbench

    # Compiled, as an installed package is (see the module docs).
    compileall.compile_dir(Path(workbench.__file__).parent, quiet=1)
    pairs: list[tuple[str, str, str, str]] = []  # name, bare code, workbench code, expected
    inspector: dict[str, list[str]] = {}  # name -> Inspector's argv for the same request
    if options.only in (None, "stdio"):
        if not EVERYTHING.is_file():
            sys.exit(
                f"{EVERYTHING} is missing: run tests/sources/test_reference_servers.py once "
                "(it installs server-everything), or pass --only inprocess"
            )
        server = f"node {EVERYTHING} stdio"
        launcher = [] if options.no_inspector else install_inspector()
        # The server on the same node as the others' (on PATH), not the launcher's Node 22.
        target = [shutil.which("node") or "node", str(EVERYTHING), "stdio"]
        if "call" in commands:
            if launcher:
                inspector["call, stdio (server-everything)"] = [
                    *launcher,
                    *target,
                    *("--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hi"),
                ]
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
            if launcher:
                inspector["tools, stdio (server-everything)"] = [
                    *launcher,
                    *target,
                    *("--method", "tools/list"),
                ]
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
        for name, bare, workbench_code, expected in pairs:  # Warm the file cache for all.
            run_once(bare, expected, cwd)
            run_once(workbench_code, expected, cwd)
            if name in inspector:
                run_program(inspector[name], expected, cwd)
        results: dict[str, tuple[list[Run], list[Run], list[Run]]] = {
            name: ([], [], []) for name, *_ in pairs
        }
        for _ in range(options.runs):
            for name, bare, workbench_code, expected in pairs:
                results[name][0].append(run_once(bare, expected, cwd))
                results[name][1].append(run_once(workbench_code, expected, cwd))
                if name in inspector:
                    results[name][2].append(run_program(inspector[name], expected, cwd))
    print(
        f"{options.runs} runs each, alternating; load average {load_before:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after, on {os.cpu_count()} CPUs"
    )
    for name, (bare_runs, workbench_runs, inspector_runs) in results.items():
        print(f"-- {name}")
        bare_wall, bare_cpu, bare_rss = _summary("bare mcp.Client", bare_runs)
        wb_wall, wb_cpu, wb_rss = _summary(f"workbench {name.split(',')[0]}", workbench_runs)
        if inspector_runs:
            inspector_wall, _, _ = _summary("MCP Inspector --cli", inspector_runs, tree=True)
        print(
            f"ratio workbench / bare: wall {wb_wall / bare_wall:.2f}  cpu {wb_cpu / bare_cpu:.2f}  "
            f"peak RSS {wb_rss / bare_rss:.2f}   (goal: <= 1.05 for time)"
        )
        if inspector_runs:
            print(f"ratio workbench / Inspector: wall {wb_wall / inspector_wall:.2f}   (goal: < 1)")


if __name__ == "__main__":
    main()
