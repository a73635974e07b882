"""``workbench check``: validate fixtures and manifests; fail the build on any problem."""

from __future__ import annotations

from pathlib import Path

import click

from workbench.cli.output import echo, echo_json


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Output format.",
)
def check(paths: tuple[Path, ...], output_format: str) -> None:
    """Load and validate every fixture and manifest (PATHS, or the configured fixture dirs).

    Without PATHS it is also the coverage gate: it fails when an API lacks a typical, empty,
    error or truncated variant and has no waiver with a reason, or has an approval policy but
    no Intervention surface. Each problem is printed as FILE:LINE: FIELD: MESSAGE; exit code 1
    if any is an error (warnings are printed only).
    """
    from workbench.coverage import coverage, coverage_problems
    from workbench.project import open_project

    project = open_project(paths)
    catalog = project.catalog
    # Named files are linted on their own; the coverage gate is about the whole project.
    gaps = (
        []
        if paths
        else coverage_problems(coverage(catalog, project.registry), root=project.config.root)
    )
    problems = sorted(
        [*catalog.problems, *gaps],
        key=lambda problem: (problem.file, problem.line or 0, problem.field),
    )
    errors = [problem for problem in problems if problem.severity == "error"]
    if output_format == "json":
        report = {
            "ok": not errors,
            "files": len(catalog.fixture_files) + len(catalog.broken_files),
            "variants": len(catalog.all_variants(include_generated=False)),
            "problems": [problem.to_json() for problem in problems],
        }
        echo_json(report)
    else:
        for problem in problems:
            echo(problem.format())
        files = len(catalog.fixture_files) + len(catalog.broken_files)
        variants = len(catalog.all_variants(include_generated=False))
        summary = f"{files} fixture file(s), {variants} variant(s), {len(problems)} problem(s)"
        echo(("✗ " if errors else "✓ ") + summary, err=True)
    if errors:
        raise SystemExit(1)
