"""Manifests: validated on load, including each API's JSON Schema against its meta-schema."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from workbench.core.manifest import (
    DynamicIntervention,
    InterventionRule,
    ToolManifest,
    has_intervention,
    openai_function,
)


def manifest_data(**api: object) -> dict:
    return {
        "identifier": "demo",
        "meta": {"title": "Demo", "emoji": "🧪"},
        "humanIntervention": "never",
        "api": [
            {
                "name": "run",
                "description": "Run it.",
                "parameters": {"type": "object", "properties": {"x": {"type": "string"}}},
                **api,
            }
        ],
    }


def test_camel_case_keys_load_and_dump() -> None:
    manifest = ToolManifest.model_validate(
        manifest_data(
            humanIntervention="required", defaultTimeoutMs=3000, renderDisplayControl="alwaysExpand"
        )
    )
    api = manifest.api[0]
    assert (api.human_intervention, api.default_timeout_ms, api.render_display_control) == (
        "required",
        3000,
        "alwaysExpand",
    )
    dumped = manifest.to_json()
    assert dumped["api"][0]["humanIntervention"] == "required"
    assert "defaultTimeoutMs" in dumped["api"][0]


def test_invalid_json_schema_is_rejected_with_its_location() -> None:
    with pytest.raises(ValidationError) as caught:
        ToolManifest.model_validate(
            manifest_data(parameters={"type": "object", "properties": {"x": {"type": "strin"}}})
        )
    assert "not a valid JSON Schema at properties/x/type" in str(caught.value)


def test_api_policy_wins_over_tool_policy() -> None:
    manifest = ToolManifest.model_validate(
        manifest_data(humanIntervention=[{"match": {"x": "rm *"}, "policy": "always"}])
    )
    policy = manifest.effective_intervention("run")
    assert isinstance(policy, list) and isinstance(policy[0], InterventionRule)
    manifest = ToolManifest.model_validate(manifest_data())
    assert manifest.effective_intervention("run") == "never"


def test_dynamic_policy_and_has_intervention() -> None:
    manifest = ToolManifest.model_validate(
        manifest_data(humanIntervention={"dynamic": {"type": "pathScopeAudit"}})
    )
    policy = manifest.effective_intervention("run")
    assert isinstance(policy, DynamicIntervention) and policy.dynamic.policy == "required"
    assert has_intervention(policy)
    assert not has_intervention("never") and not has_intervention(None)
    assert has_intervention("always")


def test_duplicate_api_names_and_bad_identifiers_are_rejected() -> None:
    data = manifest_data()
    data["api"].append(dict(data["api"][0]))
    with pytest.raises(ValidationError, match="appears twice"):
        ToolManifest.model_validate(data)
    data = manifest_data()
    data["identifier"] = "[bold]x"
    with pytest.raises(ValidationError):
        ToolManifest.model_validate(data)


def test_openai_function_schema() -> None:
    manifest = ToolManifest.model_validate(manifest_data())
    function = openai_function(manifest, manifest.api[0])
    assert function == {
        "type": "function",
        "function": {
            "name": "demo__run",
            "description": "Run it.",
            "parameters": manifest.api[0].parameters,
        },
    }
