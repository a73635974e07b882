"""``workbench check``: validate fixtures and manifests; fail the build on any problem."""

from __future__ import annotations

import json
from pathlib import Path

import click


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True, help="Output format.")
def check(paths: tuple[Path, ...], output_format: str) -> None:
    """Load and validate every fixture and manifest (PATHS, or the configured fixture dirs).

    Also fails on coverage gaps: an API without a typical, empty, error or truncated variant
    and no waiver with a reason, or an API with an approval policy but no Intervention
    surface. Each problem is printed as FILE:LINE: FIELD: MESSAGE; exit code 1 if any is an
    error (warnings are printed only).
    """
    from workbench.project import open_project

    from workbench.fixtures.coverage import coverage, coverage_problems

    project = open_project(paths)
    catalog = project.catalog
    rows = coverage(catalog, project.registry)
    if paths:
        # Checking named files: only the tools those files describe are held to coverage.
        named = {fixture.tool for fixture in catalog.fixture_files} | {entry.identifier for entry in catalog.tools.values() if entry.package is None}
        rows = [row for row in rows if row.tool in named]
    gaps = coverage_problems(rows, root=project.config.root)
    problems = sorted([*catalog.problems, *gaps], key=lambda problem: (problem.file, problem.line or 0, problem.field))
    errors = [problem for problem in problems if problem.severity == "error"]
    if output_format == "json":
        report = {
            "ok": not errors,
            "files": len(catalog.fixture_files) + len(catalog.broken_files),
            "variants": len(catalog.all_variants(include_generated=False)),
            "problems": [problem.to_json() for problem in problems],
        }
        click.echo(json.dumps(report, indent=2))
    else:
        for problem in problems:
            click.echo(problem.format())
        files = len(catalog.fixture_files) + len(catalog.broken_files)
        variants = len(catalog.all_variants(include_generated=False))
        summary = f"{files} fixture file(s), {variants} variant(s), {len(problems)} problem(s)"
        click.echo(("✗ " if errors else "✓ ") + summary, err=True)
    if errors:
        raise SystemExit(1)
