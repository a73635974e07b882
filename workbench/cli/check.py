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

    Each problem is printed as FILE:LINE: FIELD: MESSAGE. Exit code 1 if there is any.
    """
    from workbench.project import open_project

    project = open_project(paths)
    catalog = project.catalog
    problems = sorted(catalog.problems, key=lambda problem: (problem.file, problem.line or 0, problem.field))
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
