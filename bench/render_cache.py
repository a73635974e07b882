"""What the render cache saves: `workbench check` (with the audit), `workbench snapshot` and
`workbench review --check` on a generated project, cold and after one fixture file changed.

Generates a project of ``--files`` fixture files, each a copy of the bundled
calculator/calculate.yaml with its own variant ids, records its snapshots once (untimed), and
then times, each in a fresh interpreter, in one run:

- check, cold: ``workbench check`` (fixtures, coverage and the render audit) with an empty
  render cache (the catalog cache kept, as in CI where both are restored or neither);
- snapshot, cold: ``workbench snapshot`` (every case drawn and compared) with an empty cache;
- review --check, cold: the review gate (every case drawn, its files and decision read) with
  an empty cache;
- then one variant of one file is changed, and each runs again with the cache every command
  left before the change (restored before each, so none reuses another's drawing of the
  changed cases): only the changed file's cases are drawn, and the snapshot run and the gate
  pass the others on a ``stat`` of their files.

Prints wall time first and CPU time (the command's own, children included) beside it, what
the cache reported (reused / drawn), and each warm run as a share of its cold run (goal: at
most 5%). Several sizes (``--files 50,200``) also fit cold and warm times to a straight line
in the number of files and print the line's value at ``--target`` files, marked as
extrapolated: a cold audit of 1,000 files takes many minutes on a small machine.

    python bench/render_cache.py [--files 1000] [--target 1000] [--commands check,snapshot]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TEMPLATE = REPO / "fixtures" / "calculator" / "calculate.yaml"
CLI = "from workbench.cli import main; main()"
GOAL = 0.05


@dataclass
class Timing:
    wall: float
    cpu: float
    cache: str
    """The command's own report of the render cache (or of the audit's reuse)."""


def generate(project: Path, files: int) -> None:
    fixtures = project / "fixtures" / "calculator"
    fixtures.mkdir(parents=True)
    (project / "pyproject.toml").write_text(
        '[project]\nname = "generated"\nversion = "0"\n\n'
        '[tool.workbench]\nfixtures = ["fixtures"]\nsnapshots = "snapshots"\n'
        'tools = ["workbench.tools.calculator:PACKAGE"]\n',
        encoding="utf-8",
    )
    text = TEMPLATE.read_text(encoding="utf-8")
    for index in range(files):
        # Variant ids are unique per tool API: give each copy its own.
        copy = re.sub(r"(?m)^((?:  )?- id: )(\S+)", rf"\g<1>\g<2>-copy{index:04d}", text)
        (fixtures / f"calculate-{index:04d}.yaml").write_text(copy, encoding="utf-8")
    old = time.time() - 3600  # Out of the catalog cache's racy window.
    for path in fixtures.iterdir():
        os.utime(path, (old, old))


def change_one_file(project: Path) -> None:
    """Change one variant's result, as an author fixing a fixture does."""
    path = project / "fixtures" / "calculator" / "calculate-0000.yaml"
    text = path.read_text(encoding="utf-8")
    changed = re.sub(r'content: "([^"]*)"', r'content: "\1 (edited)"', text, count=1)
    if changed == text:
        raise SystemExit(f"bench: found no quoted content: line to change in {path}")
    path.write_text(changed, encoding="utf-8")
    old = time.time() - 3600
    os.utime(path, (old, old))


def run(arguments: list[str], env: dict[str, str], cwd: Path) -> Timing:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CLI, *arguments],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):  # 1: a snapshot differs (the changed file's do).
        raise SystemExit(f"bench: {arguments} exit {done.returncode}: {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    report = [
        line.strip()
        for line in (done.stdout + done.stderr).splitlines()
        if line.startswith("render cache:") or "from the cache" in line
    ]
    return Timing(wall, cpu, "; ".join(report) or "-")


COMMANDS = {
    "check": ["check"],
    "snapshot": ["snapshot"],
    "review --check": ["review", "--check"],
}


def measure(files: int, commands: list[str]) -> dict[str, Timing]:
    with tempfile.TemporaryDirectory(prefix="workbench-render-cache-") as scratch:
        project = Path(scratch) / "project"
        project.mkdir()
        generate(project, files)
        cache = Path(scratch) / "cache"
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith("WORKBENCH") and key != "PYTHONDONTWRITEBYTECODE"
        }
        env["WORKBENCH_CACHE_DIR"] = str(cache)
        render = cache / "render"
        # Record the snapshots (and warm the catalog cache), untimed.
        run(["snapshot", "--update", "--no-cache"], env, project)
        timings = {}
        for what in commands:
            shutil.rmtree(render, ignore_errors=True)
            timings[f"{what}, cold"] = run(COMMANDS[what], env, project)
        # Every cache full, as a CI run that restored them finds them; each command after the
        # change starts from that cache (not from what another command drew since).
        for what in commands:
            run(COMMANDS[what], env, project)
        full = Path(scratch) / "render-before-the-change"
        shutil.copytree(render, full)
        change_one_file(project)
        for what in commands:
            shutil.rmtree(render)
            shutil.copytree(full, render)
            timings[f"{what}, 1 file changed"] = run(COMMANDS[what], env, project)
        return timings


def print_size(files: int, timings: dict[str, Timing], commands: list[str]) -> None:
    variants = len(re.findall(r"(?m)^(?:  )?- id: ", TEMPLATE.read_text(encoding="utf-8")))
    print(f"\n{files} fixture files ({files * variants} variants):")
    for name, timing in timings.items():
        print(f"  {name:<32} wall {timing.wall:8.2f} s   cpu {timing.cpu:8.2f} s   {timing.cache}")
    for what in commands:
        cold, warm = timings[f"{what}, cold"], timings[f"{what}, 1 file changed"]
        wall, cpu = warm.wall / cold.wall, warm.cpu / cold.cpu
        verdict = "meets" if wall <= GOAL else "misses"
        print(
            f"  {what}: 1 file changed / cold = {wall:.1%} wall, {cpu:.1%} cpu "
            f"({verdict} the {GOAL:.0%} goal)"
        )


def fit(points: list[tuple[int, float]], target: int) -> float:
    """The least-squares line through ``points``, at ``target``."""
    count = len(points)
    mean_x = sum(x for x, _ in points) / count
    mean_y = sum(y for _, y in points) / count
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in points) / spread
    return mean_y + slope * (target - mean_x)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", default="1000", help="project sizes, comma-separated")
    parser.add_argument("--target", type=int, default=1000, help="size to extrapolate to")
    parser.add_argument(
        "--commands",
        default=",".join(COMMANDS),
        help=f"what to time, comma-separated, of: {', '.join(COMMANDS)} (default: all)",
    )
    options = parser.parse_args()
    commands = [part.strip() for part in options.commands.split(",") if part.strip()]
    unknown = [what for what in commands if what not in COMMANDS]
    if unknown or not commands:
        known = ", ".join(COMMANDS)
        parser.error(f"--commands: {', '.join(unknown) or '(none)'}: choose of {known}")
    sizes = [int(part) for part in options.files.split(",") if part.strip()]
    load = os.getloadavg()[0]
    print(
        f"render cache bench: sizes {sizes}; load average {load:.1f} before, "
        f"on {os.cpu_count()} CPUs"
    )
    results = {}
    for files in sizes:
        results[files] = measure(files, commands)
        print_size(files, results[files], commands)
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    if len(sizes) < 2 or options.target in sizes:
        return
    print(f"\nextrapolated to {options.target} files (a line through {sizes}, wall time):")
    for what in commands:
        cold = fit([(n, results[n][f"{what}, cold"].wall) for n in sizes], options.target)
        warm = fit([(n, results[n][f"{what}, 1 file changed"].wall) for n in sizes], options.target)
        print(
            f"  {what}: cold {cold:.0f} s, 1 file changed {warm:.1f} s = {warm / cold:.1%} "
            "(extrapolated)"
        )


if __name__ == "__main__":
    main()
