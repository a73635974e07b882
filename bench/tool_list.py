"""A huge tool list: what connecting to a server that lists 100,000 tools costs, cut and uncut.

Each row starts an MCP source (stdio, ``tests/sources/servers/faulty.py --many-tools N``) in a
fresh process and prints the wall time until its tools are offered, the CPU time, and the
process's peak RSS (the server is a child, not counted). The baseline row is the same server
with its 13 tools, measured in the same run; the x-columns are ratios against it. Three ways
to read the long list:

- "read tool by tool": as now; the first ``MAX_TOOLS`` (1,000) are built, the rest counted;
- "parsed whole, then cut": the whole answer parsed, cut before any tool is validated;
- "uncut (before)": as on main before issue 21: every tool validated by the guard, then again
  by the SDK, then cut to 1,000.

    python bench/tool_list.py [--tools 100000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAULTY = ROOT / "tests" / "sources" / "servers" / "faulty.py"

CHILD = """
import asyncio, json, resource, sys, time
from workbench.sources import mcp_guard
from workbench.sources.mcp_source import McpServerSpec, McpSource

flags, mode = json.loads(sys.argv[1]), sys.argv[2]
if mode in ("whole", "uncut"):
    mcp_guard.CUT_FROM_BYTES = 10**12  # Never read tool by tool.
if mode == "uncut":
    class Uncut(mcp_guard.MessageGuard):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **{**kwargs, "max_tools": 10**9})
    mcp_guard.MessageGuard = Uncut

async def main():
    spec = McpServerSpec(name="many", command=sys.executable, args=flags)
    source = McpSource(spec, handshake_timeout_s=300, catalog=False)
    wall, cpu = time.perf_counter(), time.process_time()
    await source.start()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    offered = len(source.manifest.api) if source.manifest else 0
    problems = [p for p in source.problems if "showing" in p]
    state = source.status.state.value
    await source.stop()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"wall": wall, "cpu": cpu, "peak": peak_mb, "offered": offered,
                      "state": state, "note": problems[:1]}))

asyncio.run(main())
"""


def measure(flags: list[str], mode: str = "cut") -> dict[str, object]:
    argv = [sys.executable, "-c", CHILD, json.dumps([str(FAULTY), *flags]), mode]
    done = subprocess.run(argv, capture_output=True, text=True, check=True, cwd=ROOT)
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=100_000)
    options = parser.parse_args()
    many = ["--many-tools", str(options.tools)]
    rows = [
        ("baseline: 13 tools", measure([])),
        (f"{options.tools:,}: read tool by tool", measure(many)),
        (f"{options.tools:,}: parsed whole, then cut", measure(many, "whole")),
        (f"{options.tools:,}: uncut (before)", measure(many, "uncut")),
    ]
    schema = {"type": "object", "properties": {}, "additionalProperties": True}
    tool = {"name": "many_99999", "description": "one of many", "inputSchema": schema}
    size = (len(json.dumps(tool)) + 2) * options.tools
    print(f"one tools/list answer of about {size / 1e6:.1f} MB\n")
    header = (
        f"{'case':<34} {'wall s':>7} {'x base':>6} {'cpu s':>6} {'peak MB':>8} {'x base':>6} "
        f"{'offered':>7}  note"
    )
    print(header)
    print("-" * len(header))
    base = rows[0][1]
    for name, row in rows:
        wall, cpu, peak = float(row["wall"]), float(row["cpu"]), float(row["peak"])  # type: ignore[arg-type]
        notes = row["note"] or [row["state"]]
        print(
            f"{name:<34} {wall:>7.2f} {wall / float(base['wall']):>6.1f} {cpu:>6.2f} "  # type: ignore[arg-type]
            f"{peak:>8.0f} {peak / float(base['peak']):>6.2f} {row['offered']:>7}  "  # type: ignore[arg-type]
            f"{notes[0]}"  # type: ignore[index]
        )


if __name__ == "__main__":
    main()
