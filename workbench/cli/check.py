"""``workbench check``: validate fixtures and manifests, run the render audit; fail the build
on any problem."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from workbench.cli.output import echo, echo_json, format_option
from workbench.cli.render_cache import NO_CACHE_OPTION, project_cache, report_cache

if TYPE_CHECKING:
    from workbench.core.problems import Problem
    from workbench.project import Project
    from workbench.rendering.cache import RenderCache


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@format_option()
@click.option(
    "--audit/--no-audit",
    "with_audit",
    default=True,
    show_default=True,
    help="Also run `workbench audit` on the fixtures that load.",
)
@NO_CACHE_OPTION
def check(paths: tuple[Path, ...], output_format: str, with_audit: bool, no_cache: bool) -> None:
    """Load and validate every fixture and manifest (PATHS, or the configured fixture dirs).

    Without PATHS it is also the coverage gate: it fails when an API lacks a typical, empty,
    error or truncated variant and has no waiver with a reason, or has an approval policy but
    no Intervention surface. Recordings of a tool with no surface of its own (an MCP or HTTP
    tool recorded with F2 in `workbench live`) are observed: their missing kinds are not gaps.
    Calls `workbench import` brought of a tool the project does not have are reported as
    "imported, not yours: not counted", never gaps.
    Then the render audit draws every variant and checks it against
    the render principles (see `workbench audit`; a variant whose inputs did not change is
    read from the render cache unless --no-cache). Each problem is printed as
    FILE:LINE: FIELD: MESSAGE; exit code 1 if any is an error (warnings are printed only).
    """
    from workbench.cli.audit import default_jobs
    from workbench.coverage import coverage, coverage_problems
    from workbench.project import open_project

    # A cold check of a large project is mostly parsing: spread it over the cores.
    project = open_project(paths, installed=False, jobs=default_jobs())
    catalog = project.catalog
    # Named files are linted on their own; the coverage gate is about the whole project.
    gaps = (
        []
        if paths
        else coverage_problems(
            coverage(catalog, project.registry, recordings=project.config.recordings),
            root=project.config.root,
        )
    )
    problems = sorted(
        [*catalog.problems, *gaps],
        key=lambda problem: (problem.file, problem.line or 0, problem.field),
    )
    loads = not any(problem.severity == "error" for problem in catalog.problems)
    if with_audit and loads:
        cache = project_cache(project, no_cache)
        problems.extend(_audit_problems(project, cache))
        report_cache(cache)
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


def _audit_problems(project: Project, cache: RenderCache | None) -> list[Problem]:
    """The audit's open findings (and stale waivers) as check problems, at the variant's line."""
    from workbench.audit.report import variant_label
    from workbench.audit.runner import audit_refs, run_audit
    from workbench.cli.audit import default_jobs
    from workbench.core.problems import Problem
    from workbench.fixtures.files import display_path
    from workbench.hosts import load_hosts

    host_set = load_hosts(project.config)
    report = run_audit(
        project.catalog,
        project.registry,
        refs=audit_refs(project.catalog),
        jobs=default_jobs(),
        hosts=host_set.targeted(),
        cache=cache,
    )
    problems = list(host_set.problems)
    for ref, findings in report.subjects:
        for finding in findings:
            if finding.waived_by is not None:
                continue
            message = f"{variant_label(ref)} {finding.key.label}: {finding.message()}"
            if finding.server_text is not None:
                # The server's wording, recorded: no one here can fix it, so it does not fail.
                message += f" (the server's own text, {finding.server_text}: not counted)"
            elif finding.agent_tool is not None:
                # Workbench's surfaces for an agent's own tool: the project cannot change them.
                message += f" ({finding.agent_tool}'s own tool, drawn by Workbench: not counted)"
            problems.append(
                Problem(
                    file=display_path(ref.fixture.path, project.config.root),
                    line=ref.fixture.variant_lines.get(ref.variant.id),
                    field=f"audit.{finding.rule}",
                    message=message,
                    code="audit",
                    severity="error" if finding.counts else "warning",
                )
            )
    for item in [*report.unknown_rules, *report.unused_waivers]:
        unknown = item in report.unknown_rules
        problems.append(
            Problem(
                file=display_path(Path(item.file), project.config.root),
                line=item.line,
                field="audit_waivers",
                message=(
                    f"no rule named {item.waiver.rule!r}"
                    if unknown
                    else f"the waiver for {item.waiver.rule!r} matches no finding any more"
                ),
                severity="error" if unknown else "warning",
                code="audit",
            )
        )
    return problems
