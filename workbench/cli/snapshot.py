"""``workbench snapshot``: run the snapshot suite outside pytest and write an HTML report."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from workbench.cli.output import ProgressReport, echo, fail_usage, path_option
from workbench.cli.render_cache import NO_CACHE_OPTION, project_cache, report_cache
from workbench.cli.review import SELECT_OPTION, SNAPSHOTS_OPTION, check_report_path
from workbench.cli.shard import RESULTS_OPTION, SHARD_OPTION

if TYPE_CHECKING:
    from workbench.review.shards import Shard
    from workbench.testing.report import SnapshotRun


@click.command()
@click.option(
    "--update", is_flag=True, help="Rewrite changed snapshots, add new ones and delete unused ones."
)
@path_option(
    "--report",
    "report_path",
    "Write the review report: FILE.html (images in FILE_files/ beside it) or FILE.md.",
)
@SNAPSHOTS_OPTION
@SELECT_OPTION
@SHARD_OPTION
@RESULTS_OPTION
@NO_CACHE_OPTION
def snapshot(
    update: bool,
    report_path: Path | None,
    snapshot_dir: Path | None,
    select: str | None,
    shard: Shard | None,
    results_path: Path | None,
    no_cache: bool,
) -> None:
    """Render every fixture variant x phase x width x theme and compare with the snapshots.

    The same matrix and renderer as the pytest plugin. Exit code 1 when a snapshot differs,
    is missing or is unused (unless --update, which deletes it and names it). Only files named
    like a case (tool/api/variant/phase-width-theme .txt or .svg) are snapshots: a README or
    notes under the snapshots folder are never unused. Progress goes to stderr: a bar on a
    terminal, a line per tenth of the run otherwise. With -k, only snapshot files whose id
    contains the text can be unused. With --shard K/N only that shard's cases are drawn (a
    file is unused when no shard's case draws it); --results writes them for `workbench review
    --merge`. A case
    whose inputs did not change since it was last drawn is read from the render cache (see
    --no-cache).
    """
    from workbench.config import load_config
    from workbench.project import open_project
    from workbench.rendering.matrix import snapshot_cases
    from workbench.rendering.renderer import SnapshotRenderer
    from workbench.testing.report import run_snapshots, write_report

    if report_path is not None:
        check_report_path(report_path)
    config = load_config()
    project = open_project(config=config, installed=False)
    errors = [problem for problem in project.catalog.problems if problem.severity == "error"]
    if errors:
        for problem in errors:
            echo(problem.format(), err=True)
        click.echo(
            "workbench: error: fixtures do not load cleanly (see `workbench check`)", err=True
        )
        raise SystemExit(2)
    root = (snapshot_dir or config.snapshot_dir).resolve()
    from workbench.acceptance.build import narrow

    matrix = narrow(snapshot_cases(project.catalog, project.registry), select, None)
    if select and not matrix:
        fail_usage(f"no case id contains {select!r}")
    cases = narrow(matrix, None, shard)
    started = time.perf_counter()
    cache = project_cache(project, no_cache)
    with (
        ProgressReport("snapshots", len(cases)) as progress,
        SnapshotRenderer(project.catalog, project.registry, cache=cache) as renderer,
    ):
        run = run_snapshots(
            cases,
            renderer,
            root,
            update=update,
            select=select,
            on_progress=lambda case: progress.advance(case.test_id),
            matrix_ids={case.test_id for case in matrix},
        )
    run.seconds = time.perf_counter() - started
    report_cache(cache)
    for outcome in run.outcomes:
        if outcome.status == "failed":
            echo(f"FAILED {outcome.case.test_id}")
            echo(outcome.diff or "  (the SVG differs; the text is the same)")
        elif outcome.status == "new" and not update:
            echo(f"MISSING {outcome.case.test_id}")
    for path in run.unused:
        echo(f"UNUSED {path}")
    for path in run.deleted:
        echo(f"DELETED {path}")
    summary = ", ".join(
        f"{run.count(status)} {status}" for status in ("passed", "failed", "new", "updated")
    )
    click.echo(
        f"{len(run.outcomes)} snapshots in {run.seconds:.1f} s: {summary}, "
        f"{len(run.unused)} unused, {len(run.deleted)} deleted"
    )
    if results_path is not None:
        _write_results(run, results_path, shard, select)
    if report_path is not None:
        written = write_report(run, report_path, root=root, review_path=config.review_file)
        echo(f"report: {report_path} ({written})")
    if not update and not run.ok:
        raise SystemExit(1)


def _write_results(run: SnapshotRun, path: Path, shard: Shard | None, select: str | None) -> None:
    from workbench.acceptance.results import DrawnCase, write_results
    from workbench.review.board import Picture

    count = write_results(
        path,
        (
            DrawnCase(
                outcome.case.test_id,
                Picture(outcome.text, outcome.svg, outcome.picture),
                outcome.expected_text,
                outcome.expected_svg,
            )
            for outcome in run.outcomes
        ),
        shard=shard,
        select=select,
    )
    echo(f"results: {path} ({count} case(s){f', shard {shard}' if shard else ''})", err=True)
