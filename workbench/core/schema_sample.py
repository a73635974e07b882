"""A plausible sample value for a JSON Schema, for APIs that have no fixture yet."""

from __future__ import annotations

from typing import Any

MAX_DEPTH = 6


def sample_for(schema: Any, name: str = "value", depth: int = 0) -> Any:
    """A value that fits ``schema`` where it can: default, example, const, enum, then by type."""
    if not isinstance(schema, dict) or depth > MAX_DEPTH:
        return None
    for key in ("default", "const"):
        if key in schema:
            return schema[key]
    if isinstance(schema.get("examples"), list) and schema["examples"]:
        return schema["examples"][0]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        options = schema.get(key)
        if isinstance(options, list) and options:
            return sample_for(options[0], name, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((item for item in kind if item != "null"), kind[0] if kind else None)
    if kind == "object" or (kind is None and "properties" in schema):
        properties = schema.get("properties") or {}
        required = schema.get("required") or list(properties)
        return {
            key: sample_for(properties[key], key, depth + 1)
            for key in properties
            if key in required
        }
    if kind == "array":
        item = sample_for(schema.get("items", {}), name, depth + 1)
        count = max(1, int(schema.get("minItems", 1)))
        return [item for _ in range(min(count, 3))]
    if kind == "string":
        text = f"example {name}"
        minimum = int(schema.get("minLength", 0))
        if len(text) < minimum:
            text = text + "x" * (minimum - len(text))
        maximum = schema.get("maxLength")
        return text[: int(maximum)] if isinstance(maximum, int) else text
    if kind == "integer":
        return int(
            schema.get(
                "minimum",
                schema.get("exclusiveMinimum", -1) + 1 if "exclusiveMinimum" in schema else 1,
            )
        )
    if kind == "number":
        return float(schema.get("minimum", 1.0))
    if kind == "boolean":
        return False
    if kind == "null":
        return None
    return None


def sample_args(parameters: dict[str, Any]) -> dict[str, Any]:
    value = sample_for(parameters)
    return value if isinstance(value, dict) else {}
