"""``Shard``: how ``--shard K/N`` splits cases: disjoint, complete, even, the same everywhere."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench.review.shards import Shard, ShardSpecError

ADDRESSES = [
    f"tool{tool}/api{api}/variant{variant}/{phase}-{width}-{theme}"
    for tool in range(3)
    for api in range(4)
    for variant in range(5)
    for phase in ("args-streaming", "running", "done")
    for width in (60, 100)
    for theme in ("dark", "light")
]


def split(count: int, items: list[str] = ADDRESSES) -> list[list[str]]:
    return [Shard(index, count).select(items, str) for index in range(1, count + 1)]


@pytest.mark.parametrize("count", [1, 2, 3, 7, 50])
def test_shards_are_disjoint_cover_every_case_and_differ_by_one_at_most(count: int) -> None:
    parts = split(count)
    owned = Counter(address for part in parts for address in part)
    assert set(owned) == set(ADDRESSES) and set(owned.values()) == {1}
    sizes = [len(part) for part in parts]
    assert max(sizes) - min(sizes) <= 1
    # Each shard keeps the given order (the report's order is the matrix's).
    for part in parts:
        assert part == [address for address in ADDRESSES if address in set(part)]


def test_the_split_does_not_depend_on_the_order_cases_come_in() -> None:
    shuffled = sorted(ADDRESSES, key=lambda address: address[::-1])
    assert [set(part) for part in split(4, shuffled)] == [set(part) for part in split(4)]


def test_the_split_is_the_same_in_another_process_with_another_hash_seed() -> None:
    here = split(5)
    script = (
        "from workbench.review.shards import Shard\n"
        f"items = {ADDRESSES!r}\n"
        "print(repr([Shard(k, 5).select(items, str) for k in range(1, 6)]))\n"
    )
    for seed in ("1", "12345"):
        output = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        assert output.strip() == repr(here)


def test_costs_even_out_and_a_unit_stays_whole() -> None:
    # The audit's unit is a tool API: its variants go together, their costs add up.
    variants = [
        (f"tool/api{api}", f"v{variant}") for api in range(30) for variant in range(api % 5 + 1)
    ]
    cost = {item: 6 * (len(item[1]) + int(item[1][1:]) % 3) for item in variants}
    loads = []
    for index in range(1, 5):
        part = Shard(index, 4).select(variants, lambda item: item[0], cost.__getitem__)
        apis = {item[0] for item in part}
        assert part == [item for item in variants if item[0] in apis]
        loads.append(sum(cost[item] for item in part))
    unit = max(
        sum(cost[item] for item in variants if item[0] == api) for api in {a for a, _ in variants}
    )
    assert sum(loads) == sum(cost.values())
    assert max(loads) - min(loads) <= unit


@pytest.mark.parametrize(
    ("text", "expected"), [("1/4", Shard(1, 4)), (" 4 / 4 ", Shard(4, 4)), ("1/1", Shard(1, 1))]
)
def test_a_shard_reads_as_k_of_n(text: str, expected: Shard) -> None:
    assert Shard.parse(text) == expected and str(expected) == text.replace(" ", "")


@pytest.mark.parametrize("text", ["0/4", "5/4", "1/0", "4", "1/4/2", "a/b", "", "-1/4", "1.5/4"])
def test_anything_else_is_refused_naming_it(text: str) -> None:
    with pytest.raises(ShardSpecError, match=r"K/N|shard"):
        Shard.parse(text)


@given(st.text(max_size=20))
def test_any_text_is_a_shard_or_a_shard_error(text: str) -> None:
    try:
        shard = Shard.parse(text)
    except ShardSpecError:
        return
    assert 1 <= shard.index <= shard.count
    assert Shard.parse(str(shard)) == shard


@given(st.integers(1, 40), st.lists(st.text(min_size=1, max_size=12), max_size=60))
def test_any_cases_split_into_a_partition(count: int, items: list[str]) -> None:
    parts = split(count, items)
    assert sorted(item for part in parts for item in part) == sorted(items)
    # Equal addresses are one unit: never in two shards.
    homes = {item: index for index, part in enumerate(parts) for item in part}
    assert all(homes[item] == index for index, part in enumerate(parts) for item in part)
