"""The audit's findings as text (for people), JSON (for tools) and JUnit XML (for CI)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from workbench.audit.model import Finding
from workbench.audit.rules import all_rules
from workbench.audit.runner import AuditReport
from workbench.core.sanitize import clean, safe_json
from workbench.fixtures.catalog import VariantRef
from workbench.fixtures.files import display_path


def variant_label(ref: VariantRef) -> str:
    return f"{display_path(ref.fixture.path)}#{ref.variant.id}"


def _grouped(findings: list[Finding]) -> list[tuple[str, Finding]]:
    """Findings that differ only in width are one line: ``done 60,100 light``."""
    groups: dict[tuple[Any, ...], list[Finding]] = defaultdict(list)
    for finding in findings:
        key = finding.key
        groups[(key.surface, key.phase, key.theme, finding.rule, finding.problem_shape())].append(
            finding
        )
    lines: list[tuple[str, Finding]] = []
    for items in groups.values():
        first = items[0]
        key = first.key
        widths = ",".join(str(width) for width in sorted({item.key.width for item in items}))
        head = "portal" if key.surface == "portal" else key.phase.value
        lines.append((f"{head} {widths} {key.theme}", first))
    return lines


def format_text(report: AuditReport, *, show_waived: bool = False) -> list[str]:
    """``file#variant phase widths theme: rule N (name): problem — advice``, one per line."""
    lines: list[str] = []
    for ref, findings in report.subjects:
        shown = [item for item in findings if show_waived or item.waived_by is None]
        for where, finding in _grouped(shown):
            waived = f"  [waived: {finding.waived_by}]" if finding.waived_by else ""
            if finding.server_text and not finding.waived_by:
                waived = f"  [the server's own text ({finding.server_text}): not counted]"
            elif finding.agent_tool and not finding.waived_by:
                waived = f"  [{finding.agent_tool}'s own tool, drawn by Workbench: not counted]"
            lines.append(clean(f"{variant_label(ref)} {where}: {finding.message()}{waived}"))
    names = ", ".join(sorted(item.name for item in all_rules()))
    for unknown in report.unknown_rules:
        lines.append(
            clean(
                f"{display_path(Path(unknown.file))}:{unknown.line}: audit_waivers: no rule "
                f"named {unknown.waiver.rule!r} (rules: {names})"
            )
        )
    return lines


def format_summary(report: AuditReport) -> str:
    open_count = len(report.open_findings)
    servers = sum(1 for item in report.findings if item.waived_by is None and item.server_text)
    agents = sum(
        1
        for item in report.findings
        if item.waived_by is None and item.server_text is None and item.agent_tool
    )
    waived = len(report.findings) - open_count - servers - agents
    variants = len(report.subjects)
    parts = [
        f"{open_count} finding{'s' if open_count != 1 else ''}",
        f"{waived} waived",
        *([f"{servers} on servers' own text"] if servers else []),
        *([f"{agents} on agents' own tools"] if agents else []),
        f"{variants} variant{'s' if variants != 1 else ''}",
        f"{report.renders:,} renders",
        *(
            [f"{report.reused} variant{'s' if report.reused != 1 else ''} from the cache"]
            if report.reused
            else []
        ),
        f"{report.seconds:.1f} s",
    ]
    return ("✓ " if report.ok else "✗ ") + " · ".join(parts)


def unused_lines(report: AuditReport) -> list[str]:
    return [
        clean(
            f"{display_path(Path(item.file))}:{item.line}: audit_waivers: waiver for rule "
            f"{item.waiver.rule!r} matches no finding any more: remove it"
        )
        for item in report.unused_waivers
    ]


def to_json(report: AuditReport) -> dict[str, Any]:
    return {
        "ok": report.ok,
        "renders": report.renders,
        "seconds": round(report.seconds, 3),
        "rules": [
            {"name": item.name, "principle": item.number, "summary": item.summary}
            for item in report.rules
        ],
        "findings": [
            {
                "file": display_path(ref.fixture.path),
                "line": ref.fixture.variant_lines.get(ref.variant.id),
                "variant": ref.variant.id,
                "tool": ref.tool,
                "api": ref.api,
                "phase": finding.key.phase.value,
                "width": finding.key.width,
                "theme": finding.key.theme,
                "surface": finding.key.surface,
                "rule": finding.rule,
                "principle": finding.number,
                "problem": finding.problem,
                "advice": finding.advice,
                "waived": finding.waived_by,
                "host": finding.host,
                "serverText": finding.server_text,
                "agentTool": finding.agent_tool,
            }
            for ref, findings in report.subjects
            for finding in findings
        ],
        "unusedWaivers": [
            {"file": display_path(Path(item.file)), "line": item.line, "rule": item.waiver.rule}
            for item in report.unused_waivers
        ],
        "unknownRules": [
            {"file": display_path(Path(item.file)), "line": item.line, "rule": item.waiver.rule}
            for item in report.unknown_rules
        ],
    }


def format_json(report: AuditReport) -> str:
    """JSON whose strings cannot carry terminal escapes (fixture text is untrusted)."""
    return safe_json(to_json(report), indent=2)


def format_junit(report: AuditReport) -> str:
    """One test case per variant; its open findings are the failure's text."""
    suite = ElementTree.Element(
        "testsuite",
        name="workbench-audit",
        tests=str(len(report.subjects)),
        failures=str(sum(1 for _, items in report.subjects if _open(items))),
        time=f"{report.seconds:.3f}",
    )
    for ref, findings in report.subjects:
        case = ElementTree.SubElement(
            suite, "testcase", classname=f"{ref.tool}.{ref.api}", name=ref.variant.id
        )
        failing = _open(findings)
        if failing:
            failure = ElementTree.SubElement(
                case,
                "failure",
                message=f"{len(failing)} render principle finding(s)",
                type="workbench-audit",
            )
            failure.text = "\n".join(
                clean(f"{variant_label(ref)} {where}: {finding.message()}")
                for where, finding in _grouped(failing)
            )
    ElementTree.indent(suite)
    return ElementTree.tostring(suite, encoding="unicode", xml_declaration=True)


def _open(findings: list[Finding]) -> list[Finding]:
    return [finding for finding in findings if finding.counts]
