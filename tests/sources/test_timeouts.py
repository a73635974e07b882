"""The timeout chain: call argument -> API default -> 120 s global, clamped to [1 s, 800 s]."""

from __future__ import annotations

from typing import Any

import pytest

from workbench.core.manifest import ToolApi
from workbench.sources.timeouts import (
    GLOBAL_DEFAULT_TIMEOUT_MS,
    MAX_TIMEOUT_MS,
    MIN_TIMEOUT_MS,
    clamp_timeout_ms,
    resolve_timeout_ms,
)

API_5S = ToolApi(name="slow", default_timeout_ms=5_000)


def test_the_bounds() -> None:
    assert (MIN_TIMEOUT_MS, GLOBAL_DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS) == (1_000, 120_000, 800_000)


def test_without_anything_the_global_default_applies() -> None:
    assert resolve_timeout_ms({}, None) == 120_000
    assert resolve_timeout_ms({}, ToolApi(name="plain")) == 120_000
    assert resolve_timeout_ms({}, None, global_default_ms=30_000) == 30_000


def test_the_api_default_beats_the_global_one() -> None:
    assert resolve_timeout_ms({}, API_5S) == 5_000


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"timeout": 2_500}, 2_500),
        ({"timeoutMs": 7_000}, 7_000),
        ({"timeoutSeconds": 3}, 3_000),
        ({"timeout_s": 1.5}, 1_500),
        ({"timeout": 2_500, "timeoutSeconds": 9}, 2_500),
    ],
)
def test_a_call_argument_beats_the_api_default(args: dict[str, Any], expected: int) -> None:
    assert resolve_timeout_ms(args, API_5S) == expected


@pytest.mark.parametrize(
    "args",
    [
        {"timeout": True},
        {"timeout": 0},
        {"timeout": -5},
        {"timeout": "30"},
        {"timeoutSeconds": None},
        {"other": 10},
    ],
)
def test_insane_call_arguments_are_ignored(args: dict[str, Any]) -> None:
    assert resolve_timeout_ms(args, API_5S) == 5_000


@pytest.mark.parametrize(
    ("args", "api", "expected"),
    [
        ({"timeout": 10}, None, 1_000),
        ({"timeoutSeconds": 5_000}, None, 800_000),
        ({}, ToolApi(name="fast", default_timeout_ms=1), 1_000),
        ({}, ToolApi(name="forever", default_timeout_ms=10_000_000), 800_000),
        ({}, None, 120_000),
    ],
)
def test_every_source_of_a_timeout_is_clamped(
    args: dict[str, Any], api: ToolApi | None, expected: int
) -> None:
    assert resolve_timeout_ms(args, api) == expected
    assert resolve_timeout_ms(args, api, global_default_ms=5) == (
        1_000 if not args and api is None else expected
    )
    assert resolve_timeout_ms({}, None, global_default_ms=10**9) == 800_000


def test_the_callers_override_wins_and_is_clamped() -> None:
    assert resolve_timeout_ms({"timeout": 2_500}, API_5S, override_ms=9_000) == 9_000
    assert resolve_timeout_ms({}, API_5S, override_ms=100) == 1_000
    assert resolve_timeout_ms({}, API_5S, override_ms=10**7) == 800_000
    assert resolve_timeout_ms({}, API_5S, override_ms=0) == 5_000
    assert resolve_timeout_ms({}, API_5S, override_ms=None) == 5_000


def test_clamp() -> None:
    assert [
        clamp_timeout_ms(value)
        for value in (-1, 0, 999.9, 1_000, 1_234.7, 800_000, 800_001, float("inf"))
    ] == [1_000, 1_000, 1_000, 1_000, 1_234, 800_000, 800_000, 800_000]
