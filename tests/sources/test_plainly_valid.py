"""plainly_valid: the shortcut that keeps jsonschema off a headless call never accepts what
jsonschema would reject."""

from __future__ import annotations

from typing import Any

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core.schema import validate_args
from workbench.sources.headless import plainly_valid

TYPE_NAMES = ["string", "integer", "number", "boolean", "object", "array", "null"]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.floats(allow_nan=False, allow_infinity=False, width=16)
    | st.sampled_from(["", "a", "b"]),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.sampled_from(["a", "b", "c"]), children, max_size=3),
    max_leaves=8,
)


def schemas() -> st.SearchStrategy[Any]:
    """Schemas of the subset plainly_valid judges, plus keywords it must leave to jsonschema."""
    types = st.sampled_from(TYPE_NAMES) | st.lists(st.sampled_from(TYPE_NAMES), min_size=1)
    leaf = st.fixed_dictionaries({}, optional={"type": types, "description": st.just("d")})
    return st.recursive(
        leaf | st.booleans() | st.just({"enum": ["a"]}) | st.just({"minimum": 0}),
        lambda children: st.fixed_dictionaries(
            {},
            optional={
                "type": types,
                "properties": st.dictionaries(st.sampled_from(["a", "b", "c"]), children),
                "required": st.lists(st.sampled_from(["a", "b", "c"]), unique=True),
                "additionalProperties": st.booleans() | children,
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
