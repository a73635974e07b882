"""Partial args: every prefix of real argument JSON parses to something consistent."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from workbench.core.partial_args import parse_complete_args, parse_partial_args, streaming_prefix

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=8,
)
arg_objects = st.dictionaries(st.text(min_size=1, max_size=8), json_values, max_size=4)


def consistent(partial: object, full: object) -> bool:
    """``partial`` could be a stage of ``full`` being written."""
    if isinstance(full, dict):
        return isinstance(partial, dict) and all(
            key in full and consistent(value, full[key]) for key, value in partial.items()
        )
    if isinstance(full, list):
        return (
            isinstance(partial, list)
            and len(partial) <= len(full)
            and all(consistent(a, b) for a, b in zip(partial, full, strict=False))
        )
    if isinstance(full, str):
        return isinstance(partial, str) and full.startswith(partial)
    return partial == full or (isinstance(partial, (int, float)) and isinstance(full, (int, float)))


@given(arg_objects, st.data())
def test_every_prefix_is_consistent_with_the_whole(args: dict, data: st.DataObject) -> None:
    raw = json.dumps(args)
    cut = data.draw(st.integers(0, len(raw)))
    partial = parse_partial_args(raw[:cut])
    assert partial is None or consistent(partial, args)
    assert parse_partial_args(raw) == args


@given(arg_objects)
def test_streaming_prefix_reproduces_the_partial(args: dict) -> None:
    prefix = streaming_prefix(args)
    assert parse_partial_args(prefix) == args or (
        not args and parse_partial_args(prefix) in ({}, None)
    )


def test_complete_args_errors() -> None:
    assert parse_complete_args('{"a": 1}') == ({"a": 1}, None)
    assert parse_complete_args("") == ({}, None)
    args, error = parse_complete_args("[1, 2]")
    assert args is None and error is not None and "JSON object" in error
    args, error = parse_complete_args('{"a": ')
    assert args is None and error is not None and "line 1" in error


def test_unfinished_strings_show_what_was_typed() -> None:
    assert parse_partial_args('{"query": "zxq') == {"query": "zxq"}
    assert parse_partial_args('{"path": "/tmp/x", "con') == {"path": "/tmp/x"}
    assert parse_partial_args("") is None
