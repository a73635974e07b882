"""JSON Schema for tool arguments: check a schema, validate args against it, sample args from it.

jsonschema is imported when first needed: it is not on the start-up path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

ArgsProblem = tuple[tuple[str | int, ...], str]
"""Where in the args (a path of keys and indexes) and what is wrong there."""


def check_json_schema(schema: dict[str, Any]) -> None:
    """Raise ``ValueError`` if ``schema`` is not a valid JSON Schema for its dialect."""
    import jsonschema.validators  # Deferred: keeps jsonschema off the start-up path.

    validator = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    try:
        validator.check_schema(schema)
    except jsonschema.SchemaError as error:
        where = "/".join(str(part) for part in error.absolute_path) or "(root)"
        raise ValueError(f"not a valid JSON Schema at {where}: {error.message}") from None


def validate_args(schema: Mapping[str, Any], args: Any) -> list[ArgsProblem]:
    """Check ``args`` against a JSON Schema; returns ``(path, message)`` pairs, best first."""
    return args_validator(schema)(args)


def args_validator(schema: Mapping[str, Any]) -> Callable[[Any], list[ArgsProblem]]:
    """:func:`validate_args` for one schema, made once for many args (a fixture file's
    variants): choosing and building jsonschema's validator is then done once."""
    import jsonschema.validators

    validator_class = jsonschema.validators.validator_for(
        schema, default=jsonschema.Draft202012Validator
    )
    validator = validator_class(schema)
    return partial(_validate, validator)


def _validate(validator: Any, args: Any) -> list[ArgsProblem]:
    try:
        errors = sorted(
            validator.iter_errors(args),
            key=lambda error: (list(map(str, error.absolute_path)), error.message),
        )
    except Exception as error:  # noqa: BLE001 - e.g. a $ref that resolves nowhere
        return [
            (
                (),
                f"the API's schema cannot check arguments: {type(error).__name__}: "
                f"{str(error)[:200]}",
            )
        ]
    return [(tuple(error.absolute_path), _short(error.message)) for error in errors]


def _short(message: str, limit: int = 300) -> str:
    """jsonschema quotes the whole offending value; a 20 KB string makes a useless message."""
    return (
        message
        if len(message) <= limit
        else message[:limit] + f"… (+{len(message) - limit:,} characters)"
    )


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
