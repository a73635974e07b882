"""The render audit's cost per render, beside the snapshot fast path's, measured in one run.

- snapshot fast path: ``SnapshotRenderer.render`` of every card case of the snapshot matrix
  (one direct draw, then text and SVG export); the suite also draws every Portal case (drawn
  directly in its frame too), timed on its own;
- audit: ``Auditor.check`` of every variant (each phase x 60/100/120 x dark/light and the
  Portal, drawn once, every rule applied), divided by the drawings it made.

Both use one process and CPU time, so other load on the machine does not skew the ratio.
Prints per-render costs, their ratio, and what each adds to the test suite
(goal: the audit adds less than the snapshots cost, i.e. it does not double the suite).

    python bench/audit.py [--variants N]
"""

from __future__ import annotations

import argparse
import time

from workbench.audit import Auditor, audit_refs
from workbench.project import open_project
from workbench.rendering.matrix import snapshot_cases
from workbench.rendering.renderer import SnapshotRenderer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", type=int, default=0, help="audit only the first N variants")
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


if __name__ == "__main__":
    main()
