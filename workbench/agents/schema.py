"""Short helpers for writing an agent's documented input schemas as manifest API entries."""

from __future__ import annotations

from typing import Any


def api(
    name: str, description: str, properties: dict[str, Any], required: tuple[str, ...] = ()
) -> dict[str, Any]:
    """One manifest API: the agent's tool ``name`` with its input as a JSON Schema object."""
    parameters: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        parameters["required"] = list(required)
    return {"name": name, "description": description, "parameters": parameters}


def string(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, **extra}


def integer(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "integer", "description": description, **extra}


def number(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "number", "description": description, **extra}


def boolean(description: str) -> dict[str, Any]:
    return {"type": "boolean", "description": description}


def strings(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "array", "items": {"type": "string"}, "description": description, **extra}


def choice(description: str, *values: str) -> dict[str, Any]:
    return {"type": "string", "enum": list(values), "description": description}


def items(description: str, item: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "array", "items": item, "description": description, **extra}


def record(properties: dict[str, Any], required: tuple[str, ...]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required)}
