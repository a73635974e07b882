"""Decide whether a call needs a human: policy never / required / always, and approval modes.

Order of precedence: the API's ``humanIntervention`` over the tool's; per-parameter rules use
real glob matching (``fnmatchcase``), not substring tests; dynamic audits are looked up by
name. Modes: ``manual`` asks whenever policy says so; ``allow-list`` skips asking for listed
calls; ``auto-run`` skips ``required``; ``headless`` turns a needed approval into a blocked
result. ``always`` is never auto-approved, and unknown tools always need approval.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, Literal

from workbench.core.manifest import DynamicIntervention, InterventionRule, ToolManifest
from workbench.policy.audits import DEFAULT_AUDITS, Audit
from workbench.policy.verdict import ApprovalCheck

ApprovalMode = Literal["manual", "allow-list", "auto-run", "headless"]
APPROVAL_MODES: tuple[str, ...] = ("manual", "allow-list", "auto-run", "headless")


@dataclass(frozen=True)
class PolicyContext:
    mode: ApprovalMode = "manual"
    allow_list: frozenset[str] = frozenset()
    """``tool``, ``tool.api`` or globs such as ``task.list*``."""
    workspace: Path | None = None
    audits: Mapping[str, Audit] = field(default_factory=lambda: dict(DEFAULT_AUDITS))


def _value_text(value: Any) -> str:
    return (
        value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
    )


def rule_matches(rule: InterventionRule, args: Mapping[str, Any]) -> bool:
    if not rule.match:
        return True
    for name, pattern in rule.match.items():
        if name not in args:
            return False
        value = args[name]
        values = value if isinstance(value, list) else [value]
        if not any(fnmatchcase(_value_text(item), pattern) for item in values):
            return False
    return True


def static_policy(
    manifest: ToolManifest, api: str, args: Mapping[str, Any], ctx: PolicyContext
) -> tuple[str, str, str]:
    """``(policy, reason, rule)`` from the manifest for these args.

    ``reason`` is for the person asked to approve; ``rule`` names the glob or audit that
    decided, for the details pane (rule 15 of the render principles keeps it out of the card).
    """
    policy = manifest.effective_intervention(api)
    if policy is None:
        return "never", "", ""
    if isinstance(policy, str):
        return (
            policy,
            _standing_reason(policy),
            f"humanIntervention: {policy} ({manifest.identifier}.{api})",
        )
    if isinstance(policy, list):
        for rule in policy:
            if rule_matches(rule, args):
                if rule.match:
                    matched = " and ".join(
                        f"{name} matches {pattern!r}" for name, pattern in rule.match.items()
                    )
                    names = " and ".join(rule.match)
                    reason = rule.reason or f"its {names} matches a rule that asks first"
                    return rule.policy, reason, f"{matched} ({rule.policy})"
                listed = any(item.match for item in policy)
                return (
                    rule.policy,
                    rule.reason
                    or (
                        "it is not one of the calls allowed to run without asking"
                        if listed
                        else _standing_reason(rule.policy)
                    ),
                    f"no matching rule: fallback ({rule.policy})"
                    if listed
                    else f"humanIntervention: {rule.policy}",
                )
        return "never", "", ""
    assert isinstance(policy, DynamicIntervention)
    audit_name = policy.dynamic.type
    audit = ctx.audits.get(audit_name)
    api_entry = manifest.get_api(api)
    schema = api_entry.parameters if api_entry is not None else {}
    if audit is None:
        return (
            policy.dynamic.policy,
            "its safety check is not available here, so it asks first",
            f"unknown audit {audit_name!r} ({policy.dynamic.policy})",
        )
    found = audit(args, schema, ctx.workspace)
    if found:
        return policy.dynamic.policy, found, f"{audit_name} ({policy.dynamic.policy})"
    if policy.dynamic.default == "never":
        return "never", "", ""
    return (
        policy.dynamic.default,
        "it changes files, so it asks first (everything it touches is inside the workspace)",
        f"{audit_name} found nothing; default ({policy.dynamic.default})",
    )


def _standing_reason(policy: str) -> str:
    return (
        "this action always asks first and cannot be approved automatically"
        if policy == "always"
        else "this action asks before it runs"
    )


def _allow_listed(tool: str, api: str, allow_list: frozenset[str]) -> bool:
    return any(
        fnmatchcase(tool, entry) or fnmatchcase(f"{tool}.{api}", entry) for entry in allow_list
    )


def check_approval(
    manifest: ToolManifest | None, api: str, args: Mapping[str, Any], ctx: PolicyContext
) -> ApprovalCheck:
    """The verdict for one call."""
    if manifest is None or manifest.get_api(api) is None:
        name = f"{manifest.identifier}.{api}" if manifest is not None else api
        reason = f"{name} is not a known tool API"
        return ApprovalCheck(
            needed=True, reason=reason, policy="always", blocked=ctx.mode == "headless"
        )
    policy, reason, rule = static_policy(manifest, api, args, ctx)
    if policy == "never":
        return ApprovalCheck(needed=False, policy="never", rule=rule)
    if policy == "always":
        return ApprovalCheck(
            needed=True, reason=reason, policy="always", blocked=ctx.mode == "headless", rule=rule
        )
    # "required"
    if ctx.mode == "auto-run":
        return ApprovalCheck(needed=False, reason=reason, policy="required", rule=rule)
    if ctx.mode == "allow-list" and _allow_listed(manifest.identifier, api, ctx.allow_list):
        return ApprovalCheck(
            needed=False, reason=f"{reason}; allow-listed", policy="required", rule=rule
        )
    return ApprovalCheck(
        needed=True, reason=reason, policy="required", blocked=ctx.mode == "headless", rule=rule
    )
