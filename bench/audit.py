"""The render audit's cost per render, beside the snapshot fast path's, measured in one run.

- snapshot fast path: ``SnapshotRenderer.render`` of every card case of the snapshot matrix
  (one direct draw, then text and SVG export); the suite also draws every Portal case (drawn
  directly in its frame too), timed on its own;
- audit: ``Auditor.check`` of every variant (each phase x 60/100/120 x dark/light and the
  Portal, drawn once, every rule applied), divided by the drawings it made.

Both use one process and CPU time, so other load on the machine does not skew the ratio.
Prints per-render costs, their ratio, and what each adds to the test suite
(goal: the audit adds less than the snapshots cost, i.e. it does not double the suite).
Then the audit again with two hosts targeted (``--hosts``, default claude-code and codex),
alternated with the plain audit, wall time first (goal: within 1.3x the plain audit).

    python bench/audit.py [--variants N] [--hosts claude-code,codex] [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

from workbench.audit import Auditor, audit_refs
from workbench.fixtures.catalog import Catalog, VariantRef
from workbench.hosts import bundled_hosts
from workbench.project import open_project
from workbench.rendering.matrix import snapshot_cases
from workbench.rendering.renderer import SnapshotRenderer
from workbench.surfaces.registry import SurfaceRegistry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", type=int, default=0, help="audit only the first N variants")
    parser.add_argument("--hosts", default="claude-code,codex", help="hosts for the second audit")
    parser.add_argument("--rounds", type=int, default=3, help="alternated rounds of each audit")
    options = parser.parse_args()
    project = open_project()
    catalog, registry = project.catalog, project.registry
    refs = audit_refs(catalog)
    if options.variants:
        refs = refs[: options.variants]
    chosen = {(ref.fixture.path, ref.variant.id) for ref in refs}
    matrix = [
        case
        for case in snapshot_cases(catalog, registry)
        if (case.ref.fixture.path, case.ref.variant.id) in chosen
    ]
    cases = [case for case in matrix if case.surface == "card"]
    portals = [case for case in matrix if case.surface == "portal"]
    for ref in refs:  # Build every script first so neither route pays for it.
        script = catalog.script_for(ref)
        for phase in script.phases:
            script.state_at(phase)

    renderer = SnapshotRenderer(catalog, registry)
    auditor = Auditor(catalog, registry)
    # Warm both (imports, lexers, caches) on one variant before timing.
    renderer.render(cases[0])
    auditor.check(refs[0])

    started = time.process_time()
    for case in cases:
        renderer.render(case)
    snapshot_cpu = time.process_time() - started
    started = time.process_time()
    for case in portals:
        renderer.render(case)
    portal_cpu = time.process_time() - started
    renderer.close()

    started = time.process_time()
    renders = sum(auditor.check(ref)[1] for ref in refs)
    audit_cpu = time.process_time() - started

    snapshot_per = snapshot_cpu / len(cases)
    audit_per = audit_cpu / renders
    suite = snapshot_cpu + portal_cpu
    print(
        f"{len(refs)} variants: {len(cases)} snapshot cards + {len(portals)} Portals, "
        f"{renders} audit renders"
    )
    print(f"snapshot fast path: {snapshot_per * 1000:6.2f} ms per render (draw + text + SVG)")
    print(f"audit:              {audit_per * 1000:6.2f} ms per render (draw + every rule)")
    print(f"ratio audit / snapshot per render: {audit_per / snapshot_per:.2f}x")
    print(
        f"snapshot suite {suite:5.1f} s CPU (cards {snapshot_cpu:.1f} + Portals "
        f"{portal_cpu:.1f}); the audit adds {audit_cpu:5.1f} s CPU "
        f"(+{audit_cpu / suite:.0%}; goal < 100%)"
    )
    hosts_cost(catalog, registry, refs, options.hosts.split(","), options.rounds)


def hosts_cost(
    catalog: Catalog,
    registry: SurfaceRegistry,
    refs: list[VariantRef],
    names: list[str],
    rounds: int,
) -> None:
    """The audit with ``names`` targeted against the plain audit, alternated round by round."""
    hosts = [bundled_hosts().get(name) for name in names]
    plain = Auditor(catalog, registry)
    targeted = Auditor(catalog, registry, hosts=hosts)
    targeted.check(refs[0])  # warm the tokenizer and the host rules
    walls: dict[str, list[float]] = {"plain": [], "hosts": []}
    cpus: dict[str, list[float]] = {"plain": [], "hosts": []}
    findings = 0
    for _ in range(rounds):
        for label, auditor in (("plain", plain), ("hosts", targeted)):
            wall, cpu = time.perf_counter(), time.process_time()
            found = [finding for ref in refs for finding in auditor.check(ref)[0]]
            walls[label].append(time.perf_counter() - wall)
            cpus[label].append(time.process_time() - cpu)
            if label == "hosts":
                findings = sum(1 for finding in found if finding.rule.startswith("host-"))
    wall_ratio = statistics.median(walls["hosts"]) / statistics.median(walls["plain"])
    cpu_ratio = statistics.median(cpus["hosts"]) / statistics.median(cpus["plain"])
    print(
        f"audit with hosts {', '.join(names)}: wall {statistics.median(walls['hosts']):.2f} s "
        f"vs {statistics.median(walls['plain']):.2f} s plain = {wall_ratio:.2f}x "
        f"(CPU {cpu_ratio:.2f}x; goal <= 1.3x), {findings} host findings, {rounds} rounds"
    )


if __name__ == "__main__":
    main()
