"""The shortcuts that keep jsonschema off a headless call never accept what jsonschema would
reject: arguments (plainly_valid) and schemas (plainly_well_formed)."""

from __future__ import annotations

from typing import Any

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core.schema import check_json_schema, validate_args
from workbench.sources.quick_schema import plainly_valid, plainly_well_formed

TYPE_NAMES = ["string", "integer", "number", "boolean", "object", "array", "null"]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.floats(allow_nan=False, allow_infinity=False, width=16)
    | st.sampled_from(["", "a", "b"]),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.sampled_from(["a", "b", "c"]), children, max_size=3)
    ),
    max_leaves=8,
)


def schemas() -> st.SearchStrategy[Any]:
    """Schemas of the subset plainly_valid judges, plus keywords it must leave to jsonschema."""
    types = st.sampled_from(TYPE_NAMES) | st.lists(st.sampled_from(TYPE_NAMES), min_size=1)
    leaf = st.fixed_dictionaries({}, optional={"type": types, "description": st.just("d")})
    return st.recursive(
        leaf
        | st.booleans()
        | st.just({"enum": ["a"]})
        | st.just({"minimum": 0})
        | st.just({"type": "strnig"})
        | st.just({"type": []})
        | st.just({"required": ["a", "a"]})
        | st.just({"$schema": ["x"]}),
        lambda children: st.fixed_dictionaries(
            {},
            optional={
                "type": types,
                "properties": st.dictionaries(st.sampled_from(["a", "b", "c"]), children),
                "required": st.lists(st.sampled_from(["a", "b", "c"]), unique=True),
                "additionalProperties": st.booleans() | children,
                "enum": st.lists(st.sampled_from(["a", "b", 1]), max_size=2),
                "minimum": st.integers(-1, 1) | st.booleans() | st.just("0"),
                "maxLength": st.integers(-1, 1) | st.floats(0, 1),
                "pattern": st.just("^a"),
                "items": children,
                "$schema": st.sampled_from(
                    [
                        "https://json-schema.org/draft/2020-12/schema",
                        "http://json-schema.org/draft-07/schema#",
                        "http://json-schema.org/draft-04/schema#",
                    ]
                ),
            },
        ),
        max_leaves=6,
    )


@settings(max_examples=400, deadline=None)
@given(schemas(), json_values)
def test_what_it_accepts_jsonschema_accepts(schema: Any, value: Any) -> None:
    if plainly_valid(schema, value):
        validator = jsonschema.validators.validator_for(
            schema, default=jsonschema.Draft202012Validator
        )
        assert list(validator(schema).iter_errors(value)) == []


def test_a_typical_tool_schema_is_judged_without_jsonschema() -> None:
    schema = {
        "type": "object",
        "properties": {
            "message": {"type": "string", "description": "What to echo"},
            "count": {"type": "integer"},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["message"],
        "additionalProperties": False,
        "$schema": "http://json-schema.org/draft-07/schema#",
    }
    assert plainly_valid(schema, {"message": "hi", "count": 2, "tags": ["a"]})
    assert plainly_valid({}, {"anything": [1]})
    # Doubts go to jsonschema, which explains them.
    assert not plainly_valid(schema, {"count": 2})
    assert not plainly_valid(schema, {"message": "hi", "count": True})
    assert not plainly_valid(schema, {"message": "hi", "other": 1})
    assert not plainly_valid({"type": "object", "minProperties": 1}, {"a": 1})
    assert validate_args(schema, {"count": 2}) == [((), "'message' is a required property")]


@settings(max_examples=400, deadline=None)
@given(schemas())
def test_what_it_calls_well_formed_jsonschema_accepts(schema: Any) -> None:
    if plainly_well_formed(schema):
        check_json_schema(schema)


def test_a_typical_server_schema_is_well_formed_without_jsonschema() -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {
            "mode": {"type": "string", "enum": ["a", "b"], "default": "a"},
            "count": {"type": "number", "minimum": 1, "maximum": 10},
            "at": {"type": "string", "format": "date-time"},
        },
        "required": ["mode"],
        "additionalProperties": False,
    }
    assert plainly_well_formed(schema)
    assert not plainly_well_formed({"type": "strnig"})
    assert not plainly_well_formed({"properties": {"a": {"$ref": "#/$defs/a"}}})
    assert not plainly_well_formed(True)  # A whole schema must be an object here.
