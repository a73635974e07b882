"""Tool manifests: what a tool is, which APIs it has and how each is called.

A manifest is pure data (it can be serialised, stored and sent across processes): dynamic
approval audits are referenced by name, never embedded as functions. Each API's
``parameters`` must be a valid JSON Schema; that is checked when the manifest loads, not when
a model first calls the API.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    AliasGenerator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic.alias_generators import to_camel

from workbench.core.sanitize import clean
from workbench.core.schema import check_json_schema

InterventionPolicy = Literal["never", "required", "always"]
RenderDisplayControl = Literal["collapsed", "expand", "alwaysExpand"]
Executor = Literal["client", "server"]

SCHEMAS_CHECKED: dict[str, Any] = {"schemas_checked": True}
"""Validation context for the manifests Workbench ships: the test suite checks their JSON
Schemas (tests/tools/test_bundled_manifests.py), so a start does not import jsonschema for them."""

_CAMEL = ConfigDict(
    alias_generator=AliasGenerator(validation_alias=to_camel, serialization_alias=to_camel),
    populate_by_name=True,
    extra="forbid",
    defer_build=True,
)


class InterventionRule(BaseModel):
    """One per-parameter rule: when every ``match`` glob matches, ``policy`` applies."""

    model_config = _CAMEL

    match: dict[str, str] | None = None
    """Parameter name -> glob (``*``, ``?``, ``[...]``); ``None`` matches every call."""
    policy: InterventionPolicy
    reason: str | None = None
    """Why this rule asks, in words for the person approving ("it deletes files"). The glob
    itself is an implementation detail: it is shown only in the details pane."""


class DynamicAudit(BaseModel):
    """A named audit run on the call's arguments (e.g. ``pathScopeAudit``)."""

    model_config = _CAMEL

    type: str = Field(min_length=1)
    default: InterventionPolicy = "never"
    """Policy when the audit finds nothing to flag."""
    policy: InterventionPolicy = "required"
    """Policy when the audit flags the call."""


class DynamicIntervention(BaseModel):
    """``{"dynamic": {...}}``: the policy comes from a named audit of each call's arguments."""

    model_config = _CAMEL

    dynamic: DynamicAudit


HumanIntervention = InterventionPolicy | list[InterventionRule] | DynamicIntervention


class ToolMeta(BaseModel):
    """How a tool presents itself: title, emoji and a one-line description."""

    model_config = _CAMEL

    title: str = Field(min_length=1)
    emoji: str = "🔧"
    description: str = ""

    @field_validator("title", "emoji", "description")
    @classmethod
    def _clean(cls, value: str) -> str:
        # Shown in trees, titles and card headers: a server's name must not carry escapes.
        return clean(value)


class UiResource(BaseModel):
    """An MCP Apps UI resource as the server served it: its type, declared CSP and
    permissions (``meta``), size, and what is wrong with it."""

    model_config = _CAMEL

    uri: str
    mime_type: str | None = None
    meta: dict[str, Any] = Field(default_factory=dict)
    """``_meta.ui`` of the resource: ``csp``, ``permissions``, ``domain``, ``prefersBorder``."""
    size: int | None = Field(default=None, ge=0)
    """Characters (or bytes) of the HTML document."""
    problems: list[str] = Field(default_factory=list)


class ToolUi(BaseModel):
    """An MCP tool that has a UI (MCP Apps): the ``ui://`` resource a host would render."""

    model_config = _CAMEL

    resource_uri: str
    declared_as: str = "_meta.ui.resourceUri"
    """The ``_meta`` key it came from (the deprecated flat key and OpenAI's are read too)."""
    visibility: list[str] | None = None
    """Who may call the tool: ``model`` and/or ``app`` (both when absent)."""
    resource: UiResource | None = None

    @property
    def model_visible(self) -> bool:
        """A host must not offer a tool to the model when its visibility leaves ``model`` out."""
        return self.visibility is None or "model" in self.visibility

    @field_validator("resource_uri", "declared_as")
    @classmethod
    def _clean_text(cls, value: str) -> str:
        return clean(value)[:2048]


class ToolApi(BaseModel):
    """One callable API of a tool."""

    model_config = _CAMEL

    name: Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_.-]*$", max_length=128)]
    description: str = ""
    parameters: dict[str, Any] = Field(default_factory=lambda: {"type": "object", "properties": {}})
    human_intervention: HumanIntervention | None = None
    render_display_control: RenderDisplayControl = "expand"
    """The result card's first look: ``collapsed`` (the Inspector and one summary line until a
    person opens it), ``expand`` (open; a person may fold it) or ``alwaysExpand`` (open, never
    folded). An API that does not say is open: nothing is hidden that its author did not
    choose to hide. Only a ``done`` card folds: approvals, errors and skips always show."""
    default_timeout_ms: int | None = Field(default=None, gt=0)
    output_schema: dict[str, Any] | None = None
    url: str | None = None
    """For HTTP tools: the endpoint the arguments are POSTed to as JSON."""
    ui: ToolUi | None = None
    """For MCP tools with a UI (MCP Apps): the resource a UI host would render."""

    @field_validator("description")
    @classmethod
    def _clean_description(cls, value: str) -> str:
        return clean(value)

    @field_validator("parameters", "output_schema")
    @classmethod
    def _valid_schema(
        cls, schema: dict[str, Any] | None, info: ValidationInfo
    ) -> dict[str, Any] | None:
        if schema is not None and not (info.context or {}).get("schemas_checked"):
            check_json_schema(schema)
        return schema


class ToolManifest(BaseModel):
    """A tool: identifier, how it presents itself, its APIs and its defaults."""

    model_config = _CAMEL

    identifier: Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$", max_length=128)]
    meta: ToolMeta
    api: list[ToolApi] = Field(min_length=1)
    human_intervention: HumanIntervention | None = None
    executors: list[Executor] = Field(default_factory=list)
    system_role: str = ""
    type: Literal["builtin", "mcp", "http", "python", "skill"] = "builtin"

    @model_validator(mode="after")
    def _unique_api_names(self) -> ToolManifest:
        seen: set[str] = set()
        for api in self.api:
            if api.name in seen:
                raise ValueError(f"API name {api.name!r} appears twice")
            seen.add(api.name)
        return self

    def get_api(self, name: str) -> ToolApi | None:
        """The API called ``name``, or ``None``."""
        return next((api for api in self.api if api.name == name), None)

    def api_names(self) -> list[str]:
        return [api.name for api in self.api]

    def effective_intervention(self, api_name: str) -> HumanIntervention | None:
        """The API's own policy wins over the tool's."""
        api = self.get_api(api_name)
        if api is not None and api.human_intervention is not None:
            return api.human_intervention
        return self.human_intervention

    def to_json(self) -> dict[str, Any]:
        """The manifest as JSON data with the camelCase keys tool authors write."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)


def has_intervention(policy: HumanIntervention | None) -> bool:
    """Whether ``policy`` can ever ask a human (anything but absent or ``never``)."""
    if policy is None or policy == "never":
        return False
    if isinstance(policy, list):
        return any(rule.policy != "never" for rule in policy)
    if isinstance(policy, DynamicIntervention):
        return policy.dynamic.policy != "never" or policy.dynamic.default != "never"
    return True


def openai_function(
    manifest: ToolManifest, api: ToolApi, *, separator: str = "__"
) -> dict[str, Any]:
    """The OpenAI function-calling schema for one API, named ``identifier__api``."""
    # OpenAI accepts ^[A-Za-z0-9_-]{1,64}$ only.
    name = re.sub(r"[^A-Za-z0-9_-]", "_", f"{manifest.identifier}{separator}{api.name}")
    return {
        "type": "function",
        "function": {
            "name": name[:64],
            "description": api.description or manifest.meta.description,
            "parameters": api.parameters,
        },
    }
