"""``--no-cache`` and the render cache of the project a command runs on."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from workbench.cli.output import echo

if TYPE_CHECKING:
    from workbench.project import Project
    from workbench.rendering.cache import RenderCache

NO_CACHE_OPTION = click.option(
    "--no-cache",
    "no_cache",
    is_flag=True,
    help="Draw every case, reading and writing no render cache "
    "(default: .workbench/cache/render/ in the project, or under WORKBENCH_CACHE_DIR).",
)
"""``--no-cache``, as `workbench snapshot`, `audit`, `check` and `review` take it."""


def project_cache(project: Project, no_cache: bool) -> RenderCache | None:
    """The project's render cache, unless ``--no-cache`` or the environment say not;
    a ``WORKBENCH_CACHE_MAX_MB`` that is no size is a usage error."""
    from workbench.cli.output import fail_usage
    from workbench.rendering.cache import open_cache

    try:
        return open_cache(
            project.config.root,
            project.catalog,
            project.registry,
            enabled=not no_cache,
            project=project.config.pyproject is not None,
        )
    except ValueError as error:
        fail_usage(str(error))


def report_cache(cache: RenderCache | None) -> None:
    """One line on stderr: what was reused and drawn (and why nothing was saved, if not)."""
    if cache is None:
        return
    cache.prune()
    if cache.stats.reused or cache.stats.drawn or cache.stats.write_error:
        echo(cache.stats.summary(), err=True)
