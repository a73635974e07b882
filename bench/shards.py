"""Shards over a generated 20,000-variant project: does each of N shards cost about 1/N of the
whole, and is the merged report the unsharded run's?

The project is one generated tool (the calculator's surfaces under 200 API names), each API a
fixture file of 100 variants: copies of the calculator's own four (typical, error, parse
error, a truncated 1,135-digit result), so 20,000 variants and about 200,000 snapshot cases.

1. The whole matrix, split by ``--shard K/N`` for each N: cases per shard, and each shard's
   drawing cost as a share of the whole. Drawing all 200,000 cases would take the better part
   of an hour per run, so the cost of a case is measured, not assumed: a seeded sample of
   cases is drawn (CPU time each), and every case costs the mean of the sampled cases of the
   same shape (base variant, phase, width, theme, surface: the things that change a drawing's
   work). Shard cost / whole cost is printed beside the ideal 1/N.
2. A real run on a slice (``-k``, default one API: 100 variants, ~1,000 cases): the unsharded
   ``workbench review --check --junit --report`` and N processes of ``--shard K/N
   --results``, then ``workbench review --merge``; wall and CPU of each (each shard also pays
   the fixed cost of loading the whole project, printed apart), and whether the merged gate
   output, JUnit file and HTML report (with every image) are byte for byte the unsharded ones.

    python bench/shards.py [--variants 20000] [--shards 2,4,8] [--sample 2000] [--run-shards 4]
"""

from __future__ import annotations

import argparse
import filecmp
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections import defaultdict
from pathlib import Path

from workbench.review.shards import Shard, assign

VARIANTS_PER_API = 100
TOOL_MODULE = textwrap.dedent(
    """\
    from workbench.core.manifest import ToolManifest
    from workbench.surfaces.registry import SurfaceSet
    from workbench.tools.calculator.manifest import MANIFEST
    from workbench.tools.calculator.surfaces import SURFACES
    from workbench.tools.package import ToolPackage

    APIS = [f"calc{{index:04d}}" for index in range({apis})]
    _API = MANIFEST.api[0].model_dump(by_alias=True, mode="json", exclude_none=True)
    PACKAGE = ToolPackage(
        manifest=ToolManifest.model_validate(
            {{
                "identifier": "gen",
                "meta": {{"title": "Generated", "emoji": "G"}},
                "api": [{{**_API, "name": name}} for name in APIS],
            }}
        ),
        surfaces=SurfaceSet(
            inspectors={{name: SURFACES.inspectors["calculate"] for name in APIS}},
            renders={{name: SURFACES.renders["calculate"] for name in APIS}},
            placeholders={{name: SURFACES.placeholders["calculate"] for name in APIS}},
        ),
    )
    """
)


def generate(root: Path, variants: int) -> int:
    """The project under ``root``; how many APIs it has."""
    source = (
        Path(__file__).parent.parent / "fixtures" / "calculator" / "calculate.yaml"
    ).read_text()
    body = source.split("variants:\n", 1)[1]
    body, tail = body.split("\nwaivers:", 1) if "\nwaivers:" in body else (body, "")
    apis = max(1, variants // VARIANTS_PER_API)
    copies = VARIANTS_PER_API // body.count("  - id: ")
    (root / "fixtures").mkdir(parents=True)
    (root / "gen_tool.py").write_text(TOOL_MODULE.format(apis=apis))
    for index in range(apis):
        blocks = [body.replace("  - id: ", f"  - id: c{copy:02d}-") for copy in range(copies)]
        waivers = f"\nwaivers:{tail}" if tail else ""
        text = f"tool: gen\napi: calc{index:04d}\nvariants:\n" + "\n".join(blocks) + waivers
        (root / "fixtures" / f"calc{index:04d}.yaml").write_text(text)
    (root / "pyproject.toml").write_text(
        '[tool.workbench]\nfixtures = ["fixtures"]\nsnapshots = "snapshots"\n'
        'include_bundled = false\ntools = ["gen_tool:PACKAGE"]\n'
    )
    return apis


def shape(case_id: str) -> str:
    """What decides a case's drawing work: its base variant (the copy number cut off) and its
    name (phase or surface, width, theme)."""
    _, _, variant, name = case_id.split("/")
    return f"{variant.split('-', 1)[1]}/{name}"


def simulate(root: Path, counts: list[int], sample: int) -> None:
    sys.path.insert(0, str(root))
    from workbench.config import load_config
    from workbench.project import open_project
    from workbench.rendering.matrix import snapshot_cases
    from workbench.rendering.renderer import SnapshotRenderer

    started = time.perf_counter()
    project = open_project(config=load_config(root), installed=False)
    loaded = time.perf_counter() - started
    started = time.perf_counter()
    cases = snapshot_cases(project.catalog, project.registry)
    listed = time.perf_counter() - started
    variants = len(project.catalog.all_variants(include_generated=False))
    print(
        f"project: {variants:,} variants, {len(cases):,} cases; load {loaded:.1f} s, "
        f"matrix {listed:.1f} s (every shard pays these)"
    )
    picked = random.Random(27).sample(cases, min(sample, len(cases)))
    times: dict[str, list[float]] = defaultdict(list)
    with SnapshotRenderer(project.catalog, project.registry) as renderer:
        for case in picked[:20]:
            renderer.render(case)  # Warm the caches a long run has warm.
        for case in picked:
            before = time.process_time()
            renderer.render(case)
            times[shape(case.test_id)].append(time.process_time() - before)
    overall = statistics.fmean(value for values in times.values() for value in values)
    cost = {key: statistics.fmean(values) for key, values in times.items()}
    unsampled = sum(1 for case in cases if shape(case.test_id) not in cost)
    print(
        f"drawing cost: {len(picked):,} sampled cases, {len(cost)} shapes, mean "
        f"{overall * 1000:.2f} ms CPU a case ({unsampled} cases of unsampled shapes "
        "at the mean); whole matrix "
        f"{sum(cost.get(shape(case.test_id), overall) for case in cases):,.0f} s CPU"
    )
    ids = [case.test_id for case in cases]
    case_cost = {case_id: cost.get(shape(case_id), overall) for case_id in ids}
    whole = sum(case_cost.values())
    for count in counts:
        started = time.perf_counter()
        Shard(1, count).select(ids, str)  # What one shard's process does.
        split = time.perf_counter() - started
        owners = assign(ids, count, str)
        parts: list[list[str]] = [[] for _ in range(count)]
        for case_id, owner in zip(ids, owners, strict=True):
            parts[owner - 1].append(case_id)
        shares = [sum(case_cost[case_id] for case_id in part) / whole for part in parts]
        owned = [case_id for part in parts for case_id in part]
        assert sorted(owned) == sorted(ids), "the shards are not a partition"
        sizes = [len(part) for part in parts]
        print(
            f"N={count}: cases per shard {min(sizes):,}..{max(sizes):,}; cost share "
            f"{min(shares):.4f}..{max(shares):.4f} (1/N = {1 / count:.4f}, largest "
            f"{max(shares) * count:.3f}x its fair share); split in {split:.2f} s"
        )


def _run(command: list[str], cwd: Path) -> tuple[int, float, float]:
    """Exit code, wall and CPU seconds (the child's, user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    code = subprocess.run(
        command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False
    ).returncode
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return code, wall, cpu


def same_tree(left: Path, right: Path) -> bool:
    compared = filecmp.dircmp(left, right)
    _, mismatch, errors = filecmp.cmpfiles(left, right, compared.common_files, shallow=False)
    return (
        not compared.left_only
        and not compared.right_only
        and not mismatch
        and not errors
        and all(same_tree(left / name, right / name) for name in compared.common_dirs)
    )


def real_run(root: Path, select: str, count: int) -> None:
    workbench = [sys.executable, "-m", "workbench"]
    # A shard that owns (almost) nothing: everything but the drawing, which every shard pays.
    idle = [*workbench, "review", "--check", "-k", select, "--shard", "1/100000"]
    code, load_wall, load_cpu = _run(idle, root)
    assert code in (0, 1), f"the idle shard failed: exit {code}"
    print(f"\nreal run on -k {select!r} with {count} shards (each also loads the whole project)")
    print(f"  fixed cost (load, matrix, board; a shard 1/100000): {load_wall:.1f} s wall, ", end="")
    print(f"{load_cpu:.1f} s CPU")

    def gate(folder: Path, *args: str) -> tuple[int, float, float]:
        folder.mkdir()
        command = [*workbench, "review", *args, "--check", "--format", "json"]
        command += ["--junit", str(folder / "review.xml"), "--report", str(folder / "review.html")]
        with (folder / "gate.json").open("w") as out:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            code = subprocess.run(
                command, cwd=root, stdout=out, stderr=subprocess.DEVNULL, check=False
            ).returncode
            wall = time.perf_counter() - started
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return code, wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    # A baseline for the slice, then one variant's result changed: CI's usual picture (most
    # cases unchanged, a few changed).
    baseline = [*workbench, "review", "--accept-all", "--note", "bench", "-k", select]
    _run([*baseline, "--reviewer", "bench"], root)
    fixture = min((root / "fixtures").glob(f"{select.split('/')[1]}*.yaml"))
    fixture.write_text(fixture.read_text().replace('value: "20"', 'value: "21"', 1))
    command = [*workbench, "review", "--check", "-k", select, "--results", str(root / "all.json")]
    code, whole_wall, whole_cpu = _run(command, root)
    print(f"  unsharded --results: exit {code}, {whole_wall:.1f} s wall, {whole_cpu:.1f} s CPU")
    results = []
    for index in range(1, count + 1):
        path = root / f"shard-{index}.json"
        command = [*workbench, "review", "--check", "-k", select, "--shard", f"{index}/{count}"]
        code, wall, cpu = _run([*command, "--results", str(path)], root)
        drawn = (cpu - load_cpu) / max(whole_cpu - load_cpu, 1e-9)
        print(
            f"  shard {index}/{count}: exit {code}, {wall:.1f} s wall, {cpu:.1f} s CPU; "
            f"drawing {drawn:.3f} of the unsharded run's (1/N = {1 / count:.3f})"
        )
        results.append(str(path))
    code, wall, cpu = gate(root / "whole", "-k", select)
    print(f"  unsharded gate + JUnit + report: exit {code}, {wall:.1f} s wall, {cpu:.1f} s CPU")
    code, wall, cpu = gate(root / "merged", "--merge", *results)
    same = same_tree(root / "merged", root / "whole")
    print(f"  merge of the shards' results: exit {code}, {wall:.1f} s wall, {cpu:.1f} s CPU")
    print(f"  merged gate JSON, JUnit and HTML report (with images) equal to unsharded: {same}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", type=int, default=20_000)
    parser.add_argument("--shards", default="2,4,8", help="the N to split the matrix into")
    parser.add_argument("--sample", type=int, default=2000, help="cases drawn to measure cost")
    parser.add_argument("--run-shards", type=int, default=4, help="N for the real run")
    parser.add_argument("--select", default="gen/calc0000/", help="-k of the real run")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="workbench-shards-") as folder:
        root = Path(folder)
        started = time.perf_counter()
        apis = generate(root, options.variants)
        print(f"generated {apis} fixture files in {time.perf_counter() - started:.1f} s")
        simulate(root, [int(count) for count in options.shards.split(",")], options.sample)
        real_run(root, options.select, options.run_shards)


if __name__ == "__main__":
    main()
