"""``workbench audit``: the render principles (PRINCIPLES.md) as checks on drawn surfaces.

Every fixture variant is drawn in every phase, at 60, 100 and 120 columns, in the dark and the
light theme (and its Portal), through the snapshot renderer; each rule in
:mod:`workbench.audit.rules` reads the drawn segments and says what is wrong and what to
change. A fixture file can accept a finding under ``audit_waivers`` — with a reason.
"""

from __future__ import annotations

from workbench.audit.model import Finding, Rendered, RenderKey, Subject
from workbench.audit.rules import Rule, all_rules, rules_by_name
from workbench.audit.runner import Auditor, AuditReport, audit_refs, run_audit

__all__ = [
    "AuditReport",
    "Auditor",
    "Finding",
    "RenderKey",
    "Rendered",
    "Rule",
    "Subject",
    "all_rules",
    "audit_refs",
    "rules_by_name",
    "run_audit",
]
