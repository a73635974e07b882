"""Shortcuts that keep jsonschema off a headless call: the usual tool schema, judged here.

Most tool schemas are an object of typed properties. Proving those (and the arguments given
to them) valid without jsonschema saves its ~60 ms of imports on every `workbench call` and
`workbench tools`. Both functions answer True only when sure; anything they do not fully
understand (another keyword, $ref, an old draft) or any doubt returns False, and jsonschema
decides and explains exactly as before (:mod:`workbench.core.schema`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# Keywords that assert nothing (jsonschema checks "format" only when given a format checker,
# which validate_args does not pass).
_ANNOTATIONS = frozenset(
    (
        "title",
        "description",
        "default",
        "examples",
        "$comment",
        "deprecated",
        "readOnly",
        "writeOnly",
        "format",
        "$schema",
        "$id",
        "$defs",  # Definitions assert nothing until a $ref uses one, and $ref is not handled.
        "definitions",
    )
)
_KEYWORDS = _ANNOTATIONS | {"type", "properties", "required", "additionalProperties", "items"}
# Drafts whose "type"/"properties"/"required"/"items" mean the same as 2020-12's for the cases
# accepted below (draft 4 counts 1.0 as no integer, draft 3 puts "required" on properties).
_SCHEMAS = frozenset(
    (
        "https://json-schema.org/draft/2020-12/schema",
        "https://json-schema.org/draft/2019-09/schema",
        "http://json-schema.org/draft-07/schema#",
        "http://json-schema.org/draft-07/schema",
        "http://json-schema.org/draft-06/schema#",
        "http://json-schema.org/draft-06/schema",
    )
)
_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "object": (dict,),
    "array": (list,),
    "null": (type(None),),
}


def plainly_valid(schema: Any, value: Any, depth: int = 0) -> bool:
    """True only when ``value`` surely meets ``schema`` (else ask ``validate_args``)."""
    if not isinstance(schema, Mapping) or depth > 8 or not _KEYWORDS.issuperset(schema):
        return False
    if "$schema" in schema and not _WELL_FORMED_VALUE["$schema"](schema["$schema"]):
        return False
    if "type" in schema:
        names = schema["type"]
        names = [names] if isinstance(names, str) else names
        if not isinstance(names, list) or not names:
            return False
        kinds: list[type] = []
        for name in names:
            if not isinstance(name, str) or name not in _TYPES:
                return False  # Unknown type names: jsonschema reports the schema's error.
            kinds.extend(_TYPES[name])
        # bool is an int to Python but not an integer or a number to JSON Schema.
        if isinstance(value, bool) and bool not in kinds:
            return False
        if not isinstance(value, tuple(kinds)):
            return False
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    extra = schema.get("additionalProperties", True)
    if (
        not isinstance(properties, Mapping)
        or not isinstance(required, list)
        or not isinstance(extra, (bool, Mapping))
    ):
        return False
    if isinstance(value, dict):
        if not all(isinstance(key, str) and key in value for key in required):
            return False
        for key, item in value.items():
            if key in properties:
                if not plainly_valid(properties[key], item, depth + 1):
                    return False
            elif extra is False or (
                extra is not True and not plainly_valid(extra, item, depth + 1)
            ):
                return False
    if "items" in schema:
        items = schema["items"]
        if not isinstance(items, (bool, Mapping)):
            return False  # Draft 7's tuple form: left to jsonschema.
        if items is True:
            return True
        if isinstance(value, list) and not all(
            plainly_valid(items, item, depth + 1) for item in value
        ):
            return False
    return True


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _unique_strings(value: Any, *, min_items: int) -> bool:
    return (
        isinstance(value, list)
        and len(value) >= min_items
        and all(isinstance(item, str) for item in value)
        and len(set(value)) == len(value)
    )


# What each keyword's value must be for the schema to meet its draft's meta-schema (drafts 6
# to 2020-12 agree on these); a keyword not listed sends the schema to jsonschema.
_WELL_FORMED_VALUE: dict[str, Any] = {
    "$schema": lambda value: isinstance(value, str) and value in _SCHEMAS,
    "title": lambda value: isinstance(value, str),
    "description": lambda value: isinstance(value, str),
    "$comment": lambda value: isinstance(value, str),
    "format": lambda value: isinstance(value, str),
    "default": lambda value: True,
    "deprecated": lambda value: isinstance(value, bool),
    "readOnly": lambda value: isinstance(value, bool),
    "writeOnly": lambda value: isinstance(value, bool),
    "type": lambda value: (
        (isinstance(value, str) and value in _TYPES)
        or (_unique_strings(value, min_items=1) and all(item in _TYPES for item in value))
    ),
    "required": lambda value: _unique_strings(value, min_items=0),
    "enum": lambda value: _unique_strings(value, min_items=1),
    "minimum": _is_number,
    "maximum": _is_number,
    "exclusiveMinimum": _is_number,
    "exclusiveMaximum": _is_number,
    "minLength": _is_count,
    "maxLength": _is_count,
    "minItems": _is_count,
    "maxItems": _is_count,
}


def plainly_well_formed(schema: Any, depth: int = 0) -> bool:
    """True only when ``schema`` surely meets its meta-schema (else ask ``check_json_schema``)."""
    if isinstance(schema, bool):
        return depth > 0  # A boolean subschema is fine; a whole schema must be an object.
    if not isinstance(schema, Mapping) or depth > 8:
        return False
    for key, value in schema.items():
        if key == "properties":
            if not isinstance(value, Mapping) or not all(
                isinstance(name, str) and plainly_well_formed(sub, depth + 1)
                for name, sub in value.items()
            ):
                return False
        elif key in ("items", "additionalProperties"):
            if not plainly_well_formed(value, depth + 1):
                return False
        else:
            check = _WELL_FORMED_VALUE.get(key)
            if check is None or not check(value):
                return False
    return True
