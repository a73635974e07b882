"""``workbench review``: acceptance review in the TUI, the CI gate, a first baseline, reports."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from workbench.cli.output import (
    ProgressReport,
    echo,
    fail_unless_loaded,
    fail_usage,
    format_option,
    path_option,
)
from workbench.cli.render_cache import NO_CACHE_OPTION, project_cache, report_cache
from workbench.cli.shard import RESULTS_OPTION, SHARD_OPTION

if TYPE_CHECKING:
    from workbench.project import Project
    from workbench.review.board import Picture, ReviewBoard
    from workbench.review.shards import Shard


SNAPSHOTS_OPTION = path_option(
    "--snapshots",
    "snapshot_dir",
    "Snapshot directory (default: [tool.workbench] snapshots).",
    directory=True,
)
"""``--snapshots``, as `workbench review` and `workbench snapshot` both take it."""

SELECT_OPTION = click.option(
    "-k",
    "select",
    default=None,
    help="Only cases whose id (tool/api/variant/phase-width-theme) contains this text.",
)
"""``-k TEXT``, as `workbench review` and `workbench snapshot` both take it."""


@click.command()
@click.argument("results_files", metavar="[RESULTS]...", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--check",
    is_flag=True,
    help="The CI gate: exit 1 when a case is rejected, or changed or new and not accepted.",
)
@path_option(
    "--junit",
    "junit_path",
    "Write JUnit XML: one test per case, one suite per tool and API.",
)
@format_option("What --check and --accept-all print.")
@path_option(
    "--report",
    "report_paths",
    "Write a report: FILE.html (images in FILE_files/ beside it) or FILE.md (for a pull "
    "request comment). Repeatable.",
    multiple=True,
)
@click.option(
    "--accept-all",
    is_flag=True,
    help="Accept every selected case not yet accepted as it draws now (a first baseline); "
    "writes changed and new snapshots. Needs --note.",
)
@click.option("--note", default=None, help="Why (with --accept-all).")
@SELECT_OPTION
@click.option(
    "--reviewer",
    default=None,
    help="Name recorded with decisions (default: $WORKBENCH_REVIEWER, else git config user.name).",
)
@click.option(
    "--require-review",
    is_flag=True,
    help="With --check: a case nobody ever reviewed fails too.",
)
@click.option("--prune", is_flag=True, help="Drop decisions about cases that no longer exist.")
@SNAPSHOTS_OPTION
@path_option(
    "--reviews",
    "review_path",
    "Review decisions file (default: [tool.workbench] reviews, else <snapshots>/reviews.yaml).",
)
@SHARD_OPTION
@RESULTS_OPTION
@click.option(
    "--merge",
    is_flag=True,
    help="Draw nothing: join the RESULTS files of every shard (from --results) into one "
    "gate, JUnit file and report, as one unsharded run would give (alone: as --check).",
)
@NO_CACHE_OPTION
def review(
    results_files: tuple[Path, ...],
    check: bool,
    junit_path: Path | None,
    output_format: str,
    report_paths: tuple[Path, ...],
    accept_all: bool,
    note: str | None,
    select: str | None,
    reviewer: str | None,
    require_review: bool,
    prune: bool,
    snapshot_dir: Path | None,
    review_path: Path | None,
    shard: Shard | None,
    results_path: Path | None,
    merge: bool,
    no_cache: bool,
) -> None:
    """Review the snapshot matrix: accept or reject each case as it draws now.

    Without options: the review TUI (changed and new cases first). --check is the CI gate
    (exit 1 when it fails, 2 on usage errors); --junit, --report and --accept-all combine
    with it and with each other, and draw the matrix once.

    In a CI matrix each job runs --check --shard K/N --results FILE (its part of the cases,
    gated on its own), and one more job runs --merge FILE... --junit --report on them all.
    """
    for path in report_paths:
        check_report_path(path)
    if results_files and not merge:
        fail_usage("RESULTS files go with --merge")
    if merge:
        if not results_files:
            fail_usage("--merge needs the shards' RESULTS files (written with --results)")
        if shard or results_path or select or accept_all or prune:
            fail_usage(
                "--merge draws nothing: it takes no --shard, --results, -k, --accept-all or "
                "--prune (the shards' -k is in their results)"
            )
        check = check or not (junit_path or report_paths)
    if (shard or results_path) and (accept_all or prune):
        fail_usage("--accept-all and --prune change the review file: run them unsharded")
    if accept_all and not (note and note.strip()):
        fail_usage("--accept-all needs --note saying why (it is recorded with each decision)")
    if note is not None and not accept_all:
        fail_usage("--note goes with --accept-all (in the TUI, press n)")
    batch = check or junit_path is not None or bool(report_paths) or accept_all or prune
    batch = batch or results_path is not None
    if shard and not batch:
        fail_usage("--shard goes with --check, --junit, --report or --results")
    if not batch:
        if output_format != "text" or require_review:
            fail_usage("--format and --require-review go with --check")
        _open_tui(select, reviewer, snapshot_dir, review_path, no_cache)
        return
    if require_review and not check:
        fail_usage("--require-review goes with --check")

    from workbench.acceptance.build import select_cases
    from workbench.acceptance.gate import format_json, format_junit, format_text, run_gate
    from workbench.config import load_config
    from workbench.project import open_project
    from workbench.review.decisions import reviewer_name

    config = load_config()
    project = open_project(config=config)
    fail_unless_loaded(project.catalog.problems)
    pictures = None
    if merge:
        select, pictures = _merged(results_files, snapshot_dir or config.snapshot_dir)
    total = len(select_cases(project, select, shard))
    if select and not total and not shard:
        fail_usage(f"no case id contains {select!r}")
    board = _board(
        project,
        snapshot_dir,
        review_path,
        select,
        total,
        shard=shard,
        pictures=pictures,
        no_cache=no_cache,
    )
    if results_path is not None:
        _write_results(board, results_path, shard, select)
    if prune:
        removed = board.prune_stale()
        echo(f"pruned {removed} stale decision(s) from {board.review_file.display_path}")
    if accept_all:
        assert note is not None
        _accept_all(board, reviewer_name(config.root, reviewer), note, output_format)
    result = run_gate(board, require_review=require_review)
    if junit_path is not None:
        junit_path.parent.mkdir(parents=True, exist_ok=True)
        junit_path.write_text(format_junit(result) + "\n", encoding="utf-8")
    for path in report_paths:
        _write_report(board, path)
    if check:
        if output_format == "json":
            click.echo(format_json(result))
        else:
            for line in format_text(result):
                echo(line)
        if not result.ok:
            raise SystemExit(1)


def _merged(paths: tuple[Path, ...], snapshot_dir: Path) -> tuple[str | None, dict[str, Picture]]:
    """The shards' results as one set of pictures (and their -k); a usage error if they do
    not belong together."""
    from workbench.acceptance.results import ResultsError, merge_results
    from workbench.review.store import SnapshotStore

    try:
        return merge_results(paths, SnapshotStore(snapshot_dir.resolve()))
    except ResultsError as error:
        fail_usage(str(error))


def _board(
    project: Project,
    snapshot_dir: Path | None,
    review_path: Path | None,
    select: str | None,
    total: int,
    *,
    shard: Shard | None,
    pictures: dict[str, Picture] | None,
    no_cache: bool,
) -> ReviewBoard:
    from workbench.acceptance.build import MissingCasesError, build_board
    from workbench.rendering.renderer import SnapshotRenderer

    what = "review: reading results" if pictures is not None else "review: drawing cases"
    cache = project_cache(project, no_cache)
    try:
        with (
            ProgressReport(what, total) as progress,
            SnapshotRenderer(project.catalog, project.registry, cache=cache) as renderer,
        ):
            board = build_board(
                project,
                snapshot_root=snapshot_dir,
                review_path=(review_path.resolve() if review_path else None),
                select=select,
                on_progress=lambda done, total, case_id: progress.advance(case_id),
                renderer=renderer,
                shard=shard,
                pictures=pictures,
            )
    except MissingCasesError as error:
        fail_usage(f"the results do not make up the matrix: {error}")
    report_cache(cache)
    return board


def _write_results(board: ReviewBoard, path: Path, shard: Shard | None, select: str | None) -> None:
    from workbench.acceptance.results import DrawnCase, write_results

    count = write_results(
        path,
        (
            DrawnCase(item.id, item.fresh, item.committed_text, item.committed_svg)
            for item in board.items
        ),
        shard=shard,
        select=select,
    )
    echo(f"results: {path} ({count} case(s){f', shard {shard}' if shard else ''})", err=True)


def _accept_all(board: ReviewBoard, reviewer: str, note: str, output_format: str) -> None:
    chosen = [item for item in board.items if item.review not in ("accepted", "rejected")]
    rejected = sum(1 for item in board.items if item.review == "rejected")
    written = sum(1 for item in chosen if item.snapshot != "unchanged")
    if chosen:
        board.decide(chosen, "accepted", reviewer, note)
    message = (
        f"accepted {len(chosen)} case(s) as {reviewer} ({written} snapshot(s) written); "
        f"{len(board.items) - len(chosen) - rejected} were accepted already"
    )
    if rejected:
        message += f"; {rejected} rejected case(s) left as they are (review them in the TUI)"
    echo(f"{message}; decisions in {board.review_file.display_path}", err=output_format == "json")


def _write_report(board: ReviewBoard, path: Path) -> None:
    from workbench.acceptance.html_report import write_html_report
    from workbench.acceptance.markdown_report import write_markdown_report

    if path.suffix.lower() == ".md":
        size = write_markdown_report(board, path)
        echo(f"report: {path} ({size:,} bytes)", err=True)
    else:
        files, size = write_html_report(board, path)
        echo(
            f"report: {path} and {files} image(s) beside it ({size / 1e6:.1f} MB in all)", err=True
        )


def check_report_path(path: Path) -> None:
    """Before drawing anything: a report is .html or .md, and an HTML report must not replace
    a folder it did not write."""
    if path.suffix.lower() not in (".html", ".htm", ".md"):
        fail_usage(f"--report {path}: the file must end in .html or .md")
    if path.suffix.lower() == ".md":
        return
    from workbench.acceptance.html_report import ReportFolderError, check_report_folder

    try:
        check_report_folder(path)
    except ReportFolderError as error:
        fail_usage(str(error))


def _open_tui(
    select: str | None,
    reviewer: str | None,
    snapshot_dir: Path | None,
    review_path: Path | None,
    no_cache: bool,
) -> None:
    from workbench.acceptance.build import build_board
    from workbench.app.app import WorkbenchApp
    from workbench.app.screens.review_screen import DrawProgressCallback, LoadedReview
    from workbench.config import load_config
    from workbench.project import open_project
    from workbench.rendering.renderer import SnapshotRenderer
    from workbench.review.decisions import reviewer_name

    def load(progress: DrawProgressCallback) -> LoadedReview:
        # Runs in the screen's worker thread: the UI shows progress while cases are drawn.
        config = load_config()
        project = open_project(config=config)
        cache = project_cache(project, no_cache)
        board = build_board(
            project,
            snapshot_root=snapshot_dir,
            review_path=review_path.resolve() if review_path else None,
            select=select,
            on_progress=lambda done, total, case_id: progress(done, total),
            renderer=SnapshotRenderer(project.catalog, project.registry, cache=cache),
        )
        if cache is not None:
            cache.prune()
        return LoadedReview(project, board, reviewer_name(config.root, reviewer))

    WorkbenchApp(review=load).run()
