"""``workbench new``: scaffold a tool package that works at once, and record its snapshots."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from workbench.cli.output import echo, fail_usage, path_option

if TYPE_CHECKING:
    from workbench.scaffold import ScaffoldPlan


@click.command()
@click.argument("name")
@click.option(
    "--api",
    "apis",
    multiple=True,
    metavar="NAME",
    help="An API of the tool, named like a method (searchPages) (repeatable; default: lookup).",
)
@path_option(
    "--dir",
    "directory",
    "Where the package goes (default: here). The project is the nearest pyproject.toml "
    "at or above it; without one, a pyproject.toml is made here.",
    directory=True,
)
@click.option(
    "--snapshots/--no-snapshots",
    "record",
    default=True,
    show_default=True,
    help="Record the new tool's snapshots, so `pytest` passes at once.",
)
def new(name: str, apis: tuple[str, ...], directory: Path | None, record: bool) -> None:
    """Make a new tool package NAME that works at once.

    It has a manifest (one API per --api, JSON Schema parameters, an approval policy), a
    runtime that returns through the result funnel, an Inspector, a Placeholder and a Render
    for each API, a fixture file per API with typical, empty, error and truncated variants,
    its [tool.workbench] entry in pyproject.toml and, if the project has none, a snapshot test
    module. Then `workbench check`, `workbench audit` and `pytest` pass, and `workbench dev`
    shows it. Nothing is overwritten: if a file it would write exists, it says which and
    writes nothing.
    """
    from workbench.config import load_config
    from workbench.project import open_project
    from workbench.scaffold import ScaffoldError, plan_scaffold, write_plan

    target = (directory or Path.cwd()).resolve()
    if target.exists() and not target.is_dir():
        fail_usage(f"--dir {directory}: not a directory")
    config = load_config(target) if target.is_dir() else None
    existing: dict[str, str] = {}
    if config is not None and config.pyproject is not None:
        project = open_project(config=config)
        existing = {identifier: tool.origin for identifier, tool in project.catalog.tools.items()}
    try:
        plan = plan_scaffold(
            name,
            apis,
            target,
            existing_tools=existing,
            snapshot_dir=config.snapshot_dir if config is not None and config.pyproject else None,
        )
    except ScaffoldError as error:
        fail_usage(str(error))
    if plan.conflicts:
        for conflict in plan.conflicts:
            echo(f"workbench: error: {conflict}", err=True)
        echo("workbench: nothing was written", err=True)
        raise SystemExit(1)
    write_plan(plan)
    recorded = _record_snapshots(plan) if record else None
    _report(plan, recorded)
    echo("")
    echo("Next: `workbench dev` shows the tool and redraws it as you edit surfaces.py;")
    echo("      `workbench check`, `workbench audit` and `pytest` gate it in CI.")


def _report(plan: ScaffoldPlan, recorded: tuple[Path, int] | None) -> None:
    apis = ", ".join(api.name for api in plan.apis)
    echo(f"Created the tool {plan.tool.identifier} (package {plan.tool.module}) — APIs: {apis}")
    rows = [(planned.path, planned.purpose) for planned in plan.files]
    if plan.pyproject is not None:
        made = "made: " if plan.pyproject.created else ""
        changes = ", ".join(plan.pyproject.changes)
        rows.append((plan.pyproject.path, f"{made}[tool.workbench] {changes}"))
    if recorded is not None:
        folder, count = recorded
        rows.append((folder, f"{count} snapshots recorded, each a .txt and an .svg"))
    labels = [_relative(path, plan.root) for path, _ in rows]
    width = max(len(label) for label in labels)
    for label, (_, purpose) in zip(labels, rows, strict=True):
        echo(f"  {label.ljust(width)}  {purpose}")
    if len(plan.apis) > 1:
        names = ", ".join(api.name for api in plan.apis)
        echo(
            f"  Each API ({names}) starts as the same example, a lookup of items by a word, "
            "under its own name: give each its own description, parameters, runtime method, "
            "surfaces and fixtures"
        )
    if plan.existing_suite is not None:
        echo(
            f"  {_relative(plan.existing_suite, plan.root)} already runs the snapshot suite: "
            "it covers the new tool too"
        )


def _relative(path: Path, root: Path) -> str:
    try:
        label = path.relative_to(root).as_posix()
    except ValueError:
        label = str(path)
    return label + "/" if path.is_dir() else label


def _record_snapshots(plan: ScaffoldPlan) -> tuple[Path, int]:
    """Render the new tool's snapshot matrix into the project's snapshot directory."""
    from workbench.config import load_config
    from workbench.project import open_project
    from workbench.rendering.matrix import snapshot_cases
    from workbench.rendering.renderer import SnapshotRenderer
    from workbench.testing.report import run_snapshots

    config = load_config(plan.root)
    project = open_project(config=config, installed=False)
    mine = [
        problem
        for problem in project.catalog.problems
        if problem.severity == "error" and plan.tool.module in problem.format()
    ]
    if plan.tool.identifier not in project.catalog.tools or mine:
        for problem in mine:
            echo(problem.format(), err=True)
        echo(
            "workbench: error: the new tool does not load (see above); no snapshots recorded",
            err=True,
        )
        raise SystemExit(1)
    cases = [
        case
        for case in snapshot_cases(project.catalog, project.registry)
        if case.tool == plan.tool.identifier
    ]
    with SnapshotRenderer(project.catalog, project.registry) as renderer:
        run = run_snapshots(cases, renderer, config.snapshot_dir, update=True, prune=False)
    return config.snapshot_dir / plan.tool.identifier, len(run.outcomes)
