"""Shards: which cases one of N CI machines draws (``--shard K/N``).

Every shard builds the same matrix and keeps its own part of it, so no machine has to tell
another what to do. The part follows from the cases alone: each is ranked by a stable hash of
its address (``tool/api/variant/phase-width-theme``; the audit's unit is a tool API), and in
that order (costliest first) each goes to the shard that has cost least so far. With equal
costs that is a round-robin, so the shards' counts differ by one at most; where the cost of a
unit is known (the audit's: how many drawings its variants take) the shards' costs differ by
the costliest unit at most.
The shards are disjoint and together hold every case, and the same matrix splits the same way
on every machine and every run (the hash is not Python's salted ``hash``).
"""

from __future__ import annotations

import hashlib
import heapq
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

Item = TypeVar("Item")

_SPEC = re.compile(r"^\s*([0-9]{1,6})\s*/\s*([0-9]{1,6})\s*$")


class ShardSpecError(ValueError):
    """A ``--shard`` value that is not ``K/N`` with 1 <= K <= N."""


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` of ``count`` (both from 1, as ``--shard 2/4`` says)."""

    index: int
    count: int

    def __post_init__(self) -> None:
        if self.count < 1 or not 1 <= self.index <= self.count:
            raise ShardSpecError(
                f"shard {self.index}/{self.count}: K/N needs 1 <= K <= N (e.g. 1/4 ... 4/4)"
            )

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``"2/4"`` as a shard; :class:`ShardSpecError` naming the value otherwise."""
        match = _SPEC.match(text)
        if match is None:
            raise ShardSpecError(f"{text!r} is not K/N (e.g. 1/4: the first of four shards)")
        return cls(int(match[1]), int(match[2]))

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def select(
        self,
        items: Sequence[Item],
        address: Callable[[Item], str],
        cost: Callable[[Item], int] | None = None,
    ) -> list[Item]:
        """The items this shard owns, in their given order."""
        owners = assign(items, self.count, address, cost)
        return [item for item, owner in zip(items, owners, strict=True) if owner == self.index]


def stable_rank(address: str) -> bytes:
    """The order units are dealt in: a hash of the address, the same on every machine."""
    return hashlib.blake2b(address.encode("utf-8"), digest_size=8).digest()


def assign(
    items: Sequence[Item],
    count: int,
    address: Callable[[Item], str],
    cost: Callable[[Item], int] | None = None,
) -> list[int]:
    """The shard (1..``count``) of each item: in hash order, each unit to the cheapest shard
    so far (ties to the lowest shard), so the split is even and depends on the set alone.

    Items with the same address are one unit (the audit's variants of one tool API): they go
    to the same shard and their costs add up.
    """
    names = [address(item) for item in items]
    units: dict[str, int] = {}
    if cost is None:
        units = dict.fromkeys(names, 1)
    else:
        for name, item in zip(names, items, strict=True):
            units[name] = units.get(name, 0) + cost(item)
    order = sorted(units, key=lambda name: (-units[name], stable_rank(name), name))
    owner: dict[str, int] = {}
    if all(units[name] == 1 for name in order):
        # Equal costs: the cheapest shard so far is the next in turn.
        owner = {name: position % count + 1 for position, name in enumerate(order)}
        return [owner[name] for name in names]
    loads = [(0, shard) for shard in range(1, count + 1)]
    # Costlier units first (a few long ones cannot pile up at the end), then the hash order.
    for name in order:
        load, shard = heapq.heappop(loads)
        owner[name] = shard
        heapq.heappush(loads, (load + units[name], shard))
    return [owner[name] for name in names]
