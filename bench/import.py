"""Throughput and peak memory of ``workbench import`` on a large generated session, against
``json.loads`` over the same lines, measured in the same run.

The session is Claude Code JSONL (``--megabytes``, default 100) of ``--calls`` tool calls
(Bash, Read, Grep and an MCP tool, one in ten an error) with the user and assistant lines
between them; each call's output is sized to reach the file size. Each measurement runs in a
fresh process: "json.loads" reads the file a line at a time and parses every line (the floor
any reader pays); "read" is ``read_transcript`` plus redaction and the variant of every call,
writing nothing (``workbench import --dry-run``); "import" also writes the fixture files.
Cost is peak RSS (``ru_maxrss``) minus the RSS after imports; wall first, CPU beside; ratios
are against json.loads.

    python bench/import.py [--megabytes 100] [--calls 10000] [--no-write]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, os, resource, sys, time
from pathlib import Path

def rss_kb():
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024

mode, path, into = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
from workbench.transcripts.importer import Importer
from workbench.transcripts.model import ToolCall
from workbench.transcripts.readers import read_transcript
from workbench.transcripts.redaction import TranscriptRedactor
base = rss_kb()
wall, cpu = time.perf_counter(), time.process_time()
calls = 0
if mode == "json.loads":
    with path.open("rb") as stream:
        for line in stream:
            json.loads(line)
else:
    importer = Importer(into, redactor=TranscriptRedactor(), dry_run=mode == "read")
    for entry in read_transcript(path, "claude-code"):
        if isinstance(entry, ToolCall):
            importer.add(entry, "claude-code")
    summary = importer.finish()
    calls = summary.calls
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"cost_kb": peak - base, "wall": wall, "cpu": cpu, "calls": calls}))
"""

TOOLS = ("Bash", "Read", "Grep", "mcp__github__list_issues")


def generate(path: Path, megabytes: float, calls: int) -> int:
    """Write the session; how many bytes it has."""
    output_size = max(64, int(megabytes * 1024 * 1024 / calls) - 900)
    line_text = "build step output line with some words in it 0123456789\n"
    output = (line_text * (output_size // len(line_text) + 1))[:output_size]
    with path.open("w", encoding="utf-8") as stream:
        for index in range(calls):
            name = TOOLS[index % len(TOOLS)]
            call_id = f"toolu_bench_{index:06d}"
            second = index % 60
            if index % 50 == 0:
                prompt = f"Step {index}: run the build and fix what fails"
                user = {"type": "user", "message": {"role": "user", "content": prompt}}
                stream.write(json.dumps(user) + "\n")
            use = {
                "type": "assistant",
                "timestamp": f"2026-01-05T10:{index % 60:02d}:{second:02d}.000Z",
                "message": {
                    "role": "assistant",
                    "content": [
                        {"type": "text", "text": "Running the next step."},
                        {
                            "type": "tool_use",
                            "id": call_id,
                            "name": name,
                            "input": {"command": f"make step-{index}", "description": "Build"},
                        },
                    ],
                },
            }
            result = {
                "type": "user",
                "timestamp": f"2026-01-05T10:{index % 60:02d}:{second:02d}.500Z",
                "message": {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": call_id,
                            "content": output,
                            "is_error": index % 10 == 9,
                        }
                    ],
                },
                "toolUseResult": {"stdout": output[:200], "stderr": "", "interrupted": False},
            }
            stream.write(json.dumps(use) + "\n")
            stream.write(json.dumps(result) + "\n")
    return path.stat().st_size


def measure(mode: str, path: Path, into: Path) -> dict[str, float]:
    result = subprocess.run(
        [sys.executable, "-c", CHILD, mode, str(path), str(into)],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"{mode} failed:\n{result.stderr}")
    measured: dict[str, float] = json.loads(result.stdout.strip().splitlines()[-1])
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=float, default=100.0)
    parser.add_argument("--calls", type=int, default=10_000)
    parser.add_argument("--no-write", action="store_true", help="Skip the run that writes files.")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="workbench-bench-import-") as folder:
        session = Path(folder) / "session.jsonl"
        size = generate(session, options.megabytes, options.calls)
        print(f"session: {size / 1e6:.1f} MB, {options.calls} calls (Claude Code JSONL)")
        modes = ["json.loads", "read"] + ([] if options.no_write else ["import"])
        results = {mode: measure(mode, session, Path(folder) / "fixtures") for mode in modes}
        base = results["json.loads"]
        print(
            f"{'':12} {'wall s':>8} {'cpu s':>8} {'MB/s':>8} "
            f"{'x wall':>7} {'x cpu':>7} {'peak MB':>8}"
        )
        for mode, found in results.items():
            print(
                f"{mode:12} {found['wall']:8.2f} {found['cpu']:8.2f} "
                f"{size / 1e6 / found['wall']:8.1f} {found['wall'] / base['wall']:7.2f} "
                f"{found['cpu'] / base['cpu']:7.2f} {found['cost_kb'] / 1024:8.1f}"
            )
        for mode in modes[1:]:
            print(f"{mode}: {int(results[mode]['calls'])} calls")


if __name__ == "__main__":
    main()
