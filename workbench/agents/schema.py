"""Short helpers for writing an agent's documented input schemas as manifest API entries."""

from __future__ import annotations

from typing import Any


def api(
    name: str,
    description: str,
    properties: dict[str, Any],
    required: tuple[str, ...] = (),
    *,
    formerly: tuple[tuple[str, ...], ...] = (),
) -> dict[str, Any]:
    """One manifest API: the agent's tool ``name`` with its input as a JSON Schema object.

    ``formerly``: the required names of older versions of the tool, so a session recorded
    with one of them passes ``workbench check`` too (see :func:`record`).
    """
    parameters = record(properties, required, formerly=formerly)
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


def record(
    properties: dict[str, Any],
    required: tuple[str, ...],
    *,
    formerly: tuple[tuple[str, ...], ...] = (),
) -> dict[str, Any]:
    """An object whose ``required`` names are today's, or, with ``formerly``, any one of the
    sets older versions required (``anyOf``). The names every set shares stay in ``required``
    too, so a call missing one of them is told which; each alternative carries its own
    properties, so a sample of the schema (the first, today's) is a whole call."""
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if not formerly:
        if required:
            schema["required"] = list(required)
        return schema
    sets = (required, *formerly)
    shared = [name for name in required if all(name in names for names in sets)]
    if shared:
        schema["required"] = shared
    schema["anyOf"] = [
        {"properties": {name: properties[name] for name in names}, "required": list(names)}
        for names in sets
    ]
    return schema
