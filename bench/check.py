"""`workbench check` on a generated project of many fixture files, against PyYAML alone.

Generates a project (pyproject.toml with ``[tool.workbench]``) whose fixture folders are the
bundled fixtures (so the bundled tools and their manifests load, as in Workbench's own
checkout) and a ``generated`` folder filling up to ``--files`` in all: copies of the bundled
files under 15 KB (the calculator's and the task tool's), each with its own variant ids, so
every file is checked against its tool's manifest (arguments against the API's schema).
Then times, in fresh interpreters, alternating, in one run:

- python: ``python -c pass`` (interpreter start, subtracted from the others);
- pyyaml: reading every file of the project with ``yaml.CSafeLoader``;
- check (cold): ``workbench check --no-audit`` with the catalog cache off;
- check (cold, 1 process): the same with parsing in forked workers turned off;
- check (cold, workers): the same with workers whatever the load (they start only when
  the load average leaves a core idle);
- check (warm): the same with the cache from the previous run.

Prints medians of wall time minus interpreter start, and the ratios against PyYAML (goals:
check under 1 s of its own work, within 3x of PyYAML). With ``--breakdown``, also where a
cold check's time goes, measured in one process (CPU time, so other load matters less):
PyYAML alone, our parse with its line map, pydantic, jsonschema, and the imports.

    python bench/check.py [--files 1000] [--runs 5] [--breakdown]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SMALL_BYTES = 15_000

PYYAML = """
import sys
from pathlib import Path
import yaml
for folder in sys.argv[1:]:
  for path in sorted(Path(folder).rglob("*.yaml")):
    yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
"""
CHECK = "from workbench.cli import main; main()"
SERIAL = (
    "import workbench.fixtures.loader as loader; loader.PARALLEL_MIN_BYTES = 1 << 62; "
    "from workbench.cli import main; main()"
)
FORKED = (  # Workers start only when the load average leaves a core idle: here, always.
    "import workbench.fixtures.loader as loader; loader._idle_core = lambda: True; "
    "from workbench.cli import main; main()"
)


def generate(project: Path, files: int) -> int:
    """Write the project; returns how many fixture files it holds."""
    bundled = REPO / "fixtures"
    generated = project / "generated"
    (project / "pyproject.toml").write_text(
        '[project]\nname = "generated"\nversion = "0"\n\n'
        f'[tool.workbench]\nfixtures = [{json.dumps(str(bundled))}, "generated"]\n',
        encoding="utf-8",
    )
    templates = sorted(
        path for path in bundled.rglob("*.yaml") if path.stat().st_size < SMALL_BYTES
    )
    count = sum(1 for _ in bundled.rglob("*.yaml"))
    index = 0
    while count < files:
        template = templates[index % len(templates)]
        text = template.read_text(encoding="utf-8")
        # Variant ids are unique per tool API: give each copy its own.
        text = re.sub(r"(?m)^((?:  )?- id: )(\S+)", rf"\g<1>\g<2>-copy{index}", text)
        target = generated / template.parent.name / f"{template.stem}-{index:04d}.yaml"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        count += 1
        index += 1
    # Out of the catalog cache's racy window, as files a user has not just saved.
    old = time.time() - 3600
    for path in generated.rglob("*.yaml"):
        os.utime(path, (old, old))
    return count


def run_once(arguments: list[str], env: dict[str, str], cwd: Path) -> float:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, *arguments], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 1):  # 1: the check found problems (still a full run).
        raise RuntimeError(f"{arguments} exit {done.returncode}: {done.stderr[-2000:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--breakdown", action="store_true", help="also time each part")
    options = parser.parse_args()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="workbench-check-") as scratch:
        project = Path(scratch) / "project"
        project.mkdir()
        count = generate(project, options.files)
        folders = [str(REPO / "fixtures"), str(project / "generated")]
        size = sum(path.stat().st_size for f in folders for path in Path(f).rglob("*.yaml"))
        base = {
            key: value
            for key, value in os.environ.items()
            # An installed package has its bytecode: without it Workbench's modules (not
            # PyYAML's, compiled when installed) are compiled again on every run.
            if not key.startswith("WORKBENCH") and key != "PYTHONDONTWRITEBYTECODE"
        }
        cold_env = {**base, "WORKBENCH_NO_CACHE": "1"}
        warm_env = {**base, "WORKBENCH_CACHE_DIR": str(Path(scratch) / "cache")}
        sides = {
            "python -c pass": (["-c", "pass"], base),
            "PyYAML CSafeLoader": (["-c", PYYAML, *folders], base),
            "check (no cache)": (["-c", CHECK, "check", "--no-audit"], cold_env),
            "check (no cache, 1 process)": (["-c", SERIAL, "check", "--no-audit"], cold_env),
            "check (no cache, workers)": (["-c", FORKED, "check", "--no-audit"], cold_env),
            "check (warm cache)": (["-c", CHECK, "check", "--no-audit"], warm_env),
        }
        for arguments, env in sides.values():  # Warm the file cache, and the catalog cache.
            run_once(arguments, env, project)
        times: dict[str, list[float]] = {name: [] for name in sides}
        for _ in range(options.runs):
            for name, (arguments, env) in sides.items():
                times[name].append(run_once(arguments, env, project))
        if options.breakdown:
            breakdown = run_breakdown(folders, base, project)
    start = statistics.median(times["python -c pass"])
    print(
        f"{count} fixture files ({size / 1e6:.1f} MB), {options.runs} runs each, alternating; "
        f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after, "
        f"on {os.cpu_count()} CPUs"
    )
    print(f"{'interpreter start':<28} median {start * 1000:6.0f} ms")
    own = {}
    checks = (
        "check (no cache)",
        "check (no cache, 1 process)",
        "check (no cache, workers)",
        "check (warm cache)",
    )
    for name in ("PyYAML CSafeLoader", *checks):
        own[name] = statistics.median(times[name]) - start
        print(f"{name:<28} median {own[name] * 1000:6.0f} ms beyond interpreter start")
    pyyaml = own["PyYAML CSafeLoader"]
    for name in checks:
        print(
            f"ratio {name} / PyYAML: {own[name] / pyyaml:.2f}   "
            f"(goals: <= 3, and under 1000 ms: {own[name] * 1000:.0f} ms)"
        )
    if options.breakdown:
        print(breakdown, end="")


BREAKDOWN = """
import sys, time
from pathlib import Path

started = time.process_time()
import workbench.cli, workbench.coverage, workbench.project
imports = time.process_time() - started
import yaml
import workbench.core.schema as schema
import workbench.fixtures.loader as loader
import workbench.fixtures.models as models
from workbench.core.source_map import load_with_lines
from workbench.tools import bundled_packages

paths = [path for folder in sys.argv[1:] for path in sorted(Path(folder).rglob("*.yaml"))]
texts = [path.read_text(encoding="utf-8") for path in paths]
manifests = {package.manifest.identifier: package.manifest for package in bundled_packages()}
spent = {"parse": 0.0, "pydantic": 0.0, "jsonschema": 0.0}

def timed(name, function):
    def run(*args, **kwargs):
        begun = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[name] += time.process_time() - begun
    return run

def best(function):
    times = []
    for _ in range(3):
        begun = time.process_time()
        function()
        times.append(time.process_time() - begun)
    return min(times)

pyyaml = best(lambda: [yaml.load(text, Loader=yaml.CSafeLoader) for text in texts])
ours = best(lambda: [load_with_lines(text) for text in texts])
loader.load_with_lines = timed("parse", load_with_lines)
for model in (models.FixtureFile, models.FixtureVariant):
    model.model_validate = timed("pydantic", model.model_validate)
checker = schema.args_validator
loader.args_validator = lambda parameters: timed("jsonschema", checker(parameters))
begun = time.process_time()
for path in paths:
    loader._load_fixture_file(path, str(path), manifests)
whole = time.process_time() - begun
print(f"breakdown (CPU time, one process, {len(paths)} files):")
print(f"  imports of the check command        {imports * 1000:6.0f} ms")
print(f"  PyYAML CSafeLoader alone (best of 3) {pyyaml * 1000:6.0f} ms")
print(f"  our parse with line map (best of 3)  {ours * 1000:6.0f} ms")
print(f"  loading every file, one pass        {whole * 1000:6.0f} ms, of which:")
for name, seconds in spent.items():
    print(f"    {name:<33} {seconds * 1000:6.0f} ms")
rest = whole - sum(spent.values())
print(f"    {'the rest (reading, checks)':<33} {rest * 1000:6.0f} ms")
"""


def run_breakdown(folders: list[str], env: dict[str, str], cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", BREAKDOWN, *folders],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


if __name__ == "__main__":
    main()
