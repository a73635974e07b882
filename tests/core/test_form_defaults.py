"""A form's starting values: the schema's defaults, under what the person (or answer) gave."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from workbench.core.form_spec import schema_defaults, with_defaults

SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "default": "John Doe"},
        "flag": {"type": "boolean"},
        "address": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "default": "Lyon"},
                "zip": {"type": "string"},
            },
        },
    },
}


def test_defaults_come_from_every_property_that_has_one_nested_objects_too() -> None:
    assert schema_defaults(SCHEMA) == {"name": "John Doe", "address": {"city": "Lyon"}}


def test_given_values_win_and_a_field_without_default_stays_out() -> None:
    given_values = {"address": {"zip": "69001"}, "name": "Ada"}
    assert with_defaults(SCHEMA, given_values) == {
        "name": "Ada",
        "address": {"city": "Lyon", "zip": "69001"},
    }


@given(
    st.recursive(
        st.none() | st.booleans() | st.text(), lambda inner: st.dictionaries(st.text(), inner)
    )
)
def test_any_schema_shape_gives_a_dict_and_never_raises(schema: object) -> None:
    assert isinstance(schema_defaults(schema), dict)
    assert with_defaults(schema, {"x": 1})["x"] == 1
