"""A throwaway tool whose surfaces each test writes, audited like any project's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from workbench.audit import Auditor, Finding, audit_refs, rules_by_name
from workbench.core.manifest import ToolManifest
from workbench.fixtures.catalog import build_catalog
from workbench.hosts import HostProfile
from workbench.project import build_registry
from workbench.surfaces.registry import SurfaceSet
from workbench.tools.package import ToolPackage

MANIFEST = ToolManifest.model_validate(
    {
        "identifier": "demo",
        "meta": {"title": "Demo", "emoji": "🧪"},
        "api": [
            {
                "name": "lookup",
                "parameters": {
                    "type": "object",
                    "properties": {"query": {"type": "string"}},
                },
            }
        ],
    }
)


def variant(
    variant_id: str = "typical",
    *,
    kind: str = "typical",
    query: str = "lookup for something",
    state: Any = None,
    content: str = "found it",
    success: bool = True,
    outcome: str | None = None,
    error: dict[str, Any] | None = None,
    output: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": variant_id,
        "label": f"the {variant_id} case",
        "kind": kind,
        "args": {"query": query},
        "result": {"success": success, "content": content, "state": state},
    }
    if error is not None:
        data["result"]["error"] = error
    if outcome is not None:
        data["outcome"] = outcome
    if output is not None:
        data["output"] = output
    return data


def audit(
    tmp_path: Path,
    surfaces: SurfaceSet,
    variants: list[dict[str, Any]],
    *,
    rule: str | None = None,
    audit_waivers: list[dict[str, Any]] | None = None,
    manifest: ToolManifest = MANIFEST,
    hosts: tuple[HostProfile, ...] = (),
) -> list[Finding]:
    """The open findings of ``rule`` (or every rule) for ``variants`` drawn by ``surfaces``."""
    folder = tmp_path / "fixtures"
    folder.mkdir(parents=True, exist_ok=True)
    document: dict[str, Any] = {"tool": "demo", "api": "lookup", "variants": variants}
    if audit_waivers:
        document["audit_waivers"] = audit_waivers
    (folder / "lookup.yaml").write_text(yaml.safe_dump(document, allow_unicode=True))
    package = ToolPackage(manifest=manifest, surfaces=surfaces)
    catalog = build_catalog([folder], [package.manifest])
    assert not [problem for problem in catalog.problems if problem.severity == "error"], [
        problem.format() for problem in catalog.problems
    ]
    rules = [rules_by_name()[rule]] if rule else None
    auditor = Auditor(catalog, build_registry([package]), rules=rules, hosts=hosts)
    return [
        finding
        for ref in audit_refs(catalog)
        for finding in auditor.check(ref)[0]
        if finding.waived_by is None
    ]


def messages(findings: list[Finding]) -> list[str]:
    return [f"{finding.key.label}: {finding.message()}" for finding in findings]
