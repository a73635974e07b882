"""``--shard K/N`` and ``--results FILE``, as `workbench snapshot`, `audit` and `review` take
them: a CI matrix job draws its part of the cases and writes what it drew for the merge."""

from __future__ import annotations

from typing import Any

import click

from workbench.cli.output import path_option
from workbench.review.shards import Shard, ShardSpecError


class ShardType(click.ParamType[Shard]):
    """``K/N`` as a :class:`Shard`; anything else is a usage error (exit 2) naming it."""

    name = "K/N"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> Shard:
        if isinstance(value, Shard):
            return value
        try:
            return Shard.parse(str(value))
        except ShardSpecError as error:
            self.fail(str(error), param, ctx)


SHARD_OPTION = click.option(
    "--shard",
    type=ShardType(),
    default=None,
    help="Draw only shard K of N (e.g. 2/4): the cases split evenly and the same way on "
    "every machine, for a CI matrix.",
)
RESULTS_OPTION = path_option(
    "--results", "results_path", "Write what was drawn (JSON) for `workbench review --merge`."
)
