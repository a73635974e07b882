"""Time to the first screen of ``workbench open SESSION`` on a 10,000-call session, against the
fixture TUI's (``workbench``) measured in the same run.

The session is the one ``bench/import.py`` generates (Claude Code JSONL, ``--megabytes``,
default 100, of ``--calls`` tool calls). Each run starts a fresh interpreter on a 120x40
pseudo-terminal (``bench/startup.py``'s harness) and stops the clock at the first frame that
shows the goal: for ``workbench``, the first variant's tool card; for ``workbench open``, the
first call's card (``claude-code · Bash`` and its Inspector line). Runs alternate so
both see the same machine; wall first, CPU beside, ratios against the fixture TUI. The view
reads the session a page at a time, so its first screen should not follow the file's size:
``--megabytes 1`` (the same calls, short outputs) is measured too, for comparison.

    python bench/conversation.py [--runs 5] [--megabytes 100] [--calls 10000]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from startup import (  # noqa: E402  (bench/ is not a package: its harness is imported by path)
    WORKBENCH,
    WORKBENCH_GOAL,
    Goal,
    Run,
    _environment,
    _summary,
    run_once,
)

OPEN = (
    "import sys; from workbench.cli import main; sys.argv = ['workbench', 'open', {path!r}]; main()"
)
OPEN_GOAL = Goal("claude-code · Bash", below=("Called Bash",))


def _generator() -> Callable[[Path, float, int], int]:
    """``generate`` of bench/import.py (a module named ``import`` cannot be imported by name)."""
    spec = importlib.util.spec_from_file_location("bench_import", BENCH / "import.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    generate: Callable[[Path, float, int], int] = module.generate
    return generate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--megabytes", type=float, default=100.0)
    parser.add_argument("--calls", type=int, default=10_000)
    options = parser.parse_args()
    generate = _generator()
    env = _environment()
    with tempfile.TemporaryDirectory(prefix="workbench-bench-conversation-") as scratch:
        project = Path(scratch)
        env["XDG_CACHE_HOME"] = str(project / "xdg-cache")
        env.pop("WORKBENCH_CACHE_DIR", None)
        env.pop("WORKBENCH_NO_CACHE", None)
        big = project / "session.jsonl"
        small = project / "session-small.jsonl"
        big_size = generate(big, options.megabytes, options.calls)
        small_size = generate(small, 1.0, options.calls)
        print(
            f"sessions: {big_size / 1e6:.1f} MB and {small_size / 1e6:.1f} MB, "
            f"{options.calls:,} calls each (Claude Code JSONL)"
        )
        programs = {
            "workbench (fixtures)": (WORKBENCH, WORKBENCH_GOAL),
            f"open {big_size / 1e6:.0f} MB session": (OPEN.format(path=str(big)), OPEN_GOAL),
            f"open {small_size / 1e6:.0f} MB session": (OPEN.format(path=str(small)), OPEN_GOAL),
        }
        # Warm the file cache and the catalog cache so no side pays for a first read.
        for code, goal in programs.values():
            run_once(code, goal, env, project)
        runs: dict[str, list[Run]] = {name: [] for name in programs}
        for _ in range(options.runs):
            for name, (code, goal) in programs.items():
                runs[name].append(run_once(code, goal, env, project))
    print(
        f"{options.runs} runs each, alternating, 120x40 pty; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    medians = {name: _summary(name, found) for name, found in runs.items()}
    base_wall, base_cpu, _ = medians["workbench (fixtures)"]
    for name, (wall, cpu, _) in medians.items():
        print(f"{name:<24} x wall {wall / base_wall:5.2f}   x cpu {cpu / base_cpu:5.2f}")


if __name__ == "__main__":
    main()
