"""Peak memory of loading a fixture file against ``json.loads`` and PyYAML's ``CSafeLoader`` on
the same data, measured in the same run: what the fixture loader's limits bound while it parses.

Each file is a valid fixture whose one variant's ``state`` holds a flat list of small values
(the shape that cost most before: libyaml built a node, with two marks, for every value before
any limit was checked). Shapes: ``flow-ints`` is JSON text (``[1, 1, ...]``), so all three
read the very same bytes; ``block-strings`` is a YAML block list of short strings and
``block-mapping`` one mapping of many keys, read by ``json.loads`` as the same data written as
JSON. Sizes run from under the value limit
(:data:`~workbench.core.source_map.MAX_NODES`) to near the 64 MiB file cap.

Every load runs in a fresh process, under an address-space limit (``--limit-mb``) so a
baseline that needs more (CSafeLoader past ~10 MB) is reported as over it, not run out of
the machine's memory. Cost is peak RSS (``ru_maxrss``) minus the RSS after imports; wall and
CPU time beside. "ours" is ``load_fixture_file`` (read, parse, validate), the CLI's path.

    python bench/loader_memory.py [--sizes 0.5,1,2,10,30,60] [--limit-mb 3000]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
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

loader, path = sys.argv[1], Path(sys.argv[2])
import yaml
from workbench.fixtures.loader import load_fixture_file
from workbench.tools.calculator import MANIFEST
manifests = {MANIFEST.identifier: MANIFEST}
base = rss_kb()
wall, cpu = time.perf_counter(), time.process_time()
outcome = "loaded"
try:
    if loader == "ours":
        loaded, problems = load_fixture_file(path, manifests)
        if loaded is None or problems:
            outcome = "refused: " + (problems[0].format() if problems else "?")[:70]
    elif loader == "json.loads":
        json.loads(path.read_text(encoding="utf-8"))
    else:
        yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
except MemoryError:
    outcome = "over the limit (MemoryError)"
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"cost_kb": peak - base, "wall": wall, "cpu": cpu, "outcome": outcome}))
"""

HEAD = (
    '{"tool": "calculator", "api": "calculate", "variants": [{"id": "v", "label": "Big",'
    ' "kind": "typical", "args": {"expression": "1"}, "result": {"success": true,'
    ' "content": "ok", "state": {"values": '
)
TAIL = "}}}]}\n"
BLOCK_HEAD = """\
tool: calculator
api: calculate
variants:
  - id: v
    label: Big
    kind: typical
    args: {expression: "1"}
    result:
      success: true
      content: ok
      state:
        values:
"""


def write_files(folder: Path, shape: str, megabytes: float) -> tuple[Path, Path, int]:
    """The YAML file the loaders read, the JSON one ``json.loads`` reads, and the values."""
    target = int(megabytes * 1024 * 1024)
    if shape == "flow-ints":
        count = (target - len(HEAD) - len(TAIL)) // 3
        text = HEAD + "[" + ", ".join(["1"] * count) + "]" + TAIL
        path = folder / f"{shape}-{megabytes}.yaml"
        path.write_text(text, encoding="utf-8")
        return path, path, count
    if shape == "block-mapping":
        count = (target - len(BLOCK_HEAD)) // len("          k1000000: 1\n")
        keys = [f"k{index}" for index in range(count)]
        yaml_path = folder / f"{shape}-{megabytes}.yaml"
        yaml_path.write_text(
            BLOCK_HEAD + "".join(f"          {key}: 1\n" for key in keys),
            encoding="utf-8",
        )
        json_path = folder / f"{shape}-{megabytes}.json"
        json_path.write_text(HEAD + json.dumps(dict.fromkeys(keys, 1)) + TAIL, encoding="utf-8")
        return yaml_path, json_path, count
    count = (target - len(BLOCK_HEAD)) // len("          - ab\n")
    yaml_path = folder / f"{shape}-{megabytes}.yaml"
    yaml_path.write_text(BLOCK_HEAD + "          - ab\n" * count, encoding="utf-8")
    json_path = folder / f"{shape}-{megabytes}.json"
    json_path.write_text(HEAD + json.dumps(["ab"] * count) + TAIL, encoding="utf-8")
    return yaml_path, json_path, count


def measure(loader: str, path: Path, limit_mb: int) -> dict[str, object]:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit_mb * 1024 * 1024,) * 2)

    result = subprocess.run(
        [sys.executable, "-c", CHILD, loader, str(path)],
        capture_output=True,
        text=True,
        preexec_fn=limit,  # The child is a fresh interpreter: no threads to fork with.
        env={**os.environ, "WORKBENCH_NO_CACHE": "1"},
        cwd=REPO,
        check=False,
    )
    if result.returncode != 0:
        return {"cost_kb": None, "wall": 0.0, "cpu": 0.0, "outcome": "crashed (over the limit?)"}
    answer: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return answer


def mb(kb: object) -> str:
    return f"{int(kb) / 1024:8.1f}" if isinstance(kb, int) else "       -"


def ratio(top: object, bottom: object) -> str:
    if not isinstance(top, int) or not isinstance(bottom, int) or bottom <= 0:
        return "     -"
    return f"{top / bottom:6.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="0.5,1,2,10,30,60", help="file sizes, MB")
    parser.add_argument("--shapes", default="flow-ints,block-strings,block-mapping")
    parser.add_argument("--limit-mb", type=int, default=3000, help="address space per load")
    options = parser.parse_args()
    sizes = [float(size) for size in options.sizes.split(",")]
    print(
        f"{'shape':<14}{'file MB':>8}{'values':>10}  {'ours MB':>8}{'json MB':>8}{'CSafe MB':>9}"
        f"  {'/json':>6}{'/CSafe':>7}{'/file':>6}  {'ours s':>7}{'(cpu)':>7}{'json s':>7}  ours"
    )
    with tempfile.TemporaryDirectory() as directory:
        for shape in options.shapes.split(","):
            for size in sizes:
                yaml_path, json_path, count = write_files(Path(directory), shape, size)
                file_kb = yaml_path.stat().st_size // 1024
                ours = measure("ours", yaml_path, options.limit_mb)
                baseline = measure("json.loads", json_path, options.limit_mb)
                csafe = measure("CSafeLoader", yaml_path, options.limit_mb)
                csafe_cost = csafe["cost_kb"] if csafe["outcome"] == "loaded" else None
                print(
                    f"{shape:<14}{file_kb / 1024:8.1f}{count:>10,}  {mb(ours['cost_kb'])}"
                    f"{mb(baseline['cost_kb'])}"
                    f"{mb(csafe_cost) if csafe_cost else '    >' + str(options.limit_mb):>9}"
                    f"  {ratio(ours['cost_kb'], baseline['cost_kb'])}"
                    f" {ratio(ours['cost_kb'], csafe_cost)}{ratio(ours['cost_kb'], file_kb)}"
                    f"  {float(str(ours['wall'])):7.2f}{float(str(ours['cpu'])):7.2f}"
                    f"{float(str(baseline['wall'])):7.2f}  {ours['outcome']}"
                )
                yaml_path.unlink()
                json_path.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
