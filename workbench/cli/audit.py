"""``workbench audit``: check every surface in every phase, width and theme against the render
principles; exit 1 on any finding."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from workbench.cli.output import fail_unless_loaded, format_option, path_option
from workbench.cli.render_cache import NO_CACHE_OPTION, project_cache, report_cache
from workbench.cli.shard import SHARD_OPTION

if TYPE_CHECKING:
    from workbench.config import WorkbenchConfig
    from workbench.hosts import HostProfile
    from workbench.review.shards import Shard


def default_jobs() -> int:
    """Every core this process may run on: the audit's drawings are pure and independent, so
    a cold audit (nothing cached) shares its variants among that many processes."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # No affinity call (macOS): every core of the machine.
        return max(1, os.cpu_count() or 1)


def targeted_hosts(config: WorkbenchConfig, names: tuple[str, ...] = ()) -> list[HostProfile]:
    """``names`` (else the project's targets) as profiles; a broken or unknown one is a usage
    error naming what exists."""
    from workbench.cli.output import fail_usage
    from workbench.hosts import load_hosts

    host_set = load_hosts(config)
    wanted = names or host_set.targets
    if host_set.problems and wanted:
        fail_usage("; ".join(problem.format() for problem in host_set.problems))
    try:
        return [host_set.get(name) for name in wanted]
    except LookupError as error:
        fail_usage(str(error))


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@format_option(
    "Output format (junit: one test case per variant, for CI reports).",
    formats=("text", "json", "junit"),
)
@click.option(
    "--rule",
    "rule_names",
    multiple=True,
    metavar="NAME",
    help="Only this rule (repeatable); see --list-rules.",
)
@click.option("--list-rules", is_flag=True, help="Print the rules and the principle each checks.")
@click.option("--show-waived", is_flag=True, help="Also print findings a fixture file waives.")
@click.option(
    "--jobs",
    type=click.IntRange(1, 64),
    default=None,
    help="Processes to draw with (default: every core; 1 draws in this process).",
)
@path_option(
    "--output",
    "output_path",
    "Write the report to this file instead of stdout.",
)
@click.option(
    "--host",
    "host_names",
    multiple=True,
    metavar="NAME",
    help="Hold the results to this host's rules (repeatable; default: [tool.workbench] hosts).",
)
@SHARD_OPTION
@NO_CACHE_OPTION
def audit(
    paths: tuple[Path, ...],
    output_format: str,
    rule_names: tuple[str, ...],
    list_rules: bool,
    show_waived: bool,
    jobs: int | None,
    output_path: Path | None,
    host_names: tuple[str, ...],
    shard: Shard | None,
    no_cache: bool,
) -> None:
    """Draw every fixture variant (PATHS, or the configured fixtures) in every phase, at 60, 100
    and 120 columns, in the dark and light theme, and its Portal; check each drawing against
    the render principles.

    Each finding is one line: FILE#VARIANT PHASE WIDTHS THEME: rule N (NAME): what is wrong —
    what to change. A variant whose inputs did not change since its last audit is read from
    the render cache (see --no-cache). Exit code 1 if any finding is not waived in its fixture file
    (``audit_waivers``, each with a reason), 2 if the fixtures do not load.

    With --shard K/N only that shard's tool APIs are audited (whole, so each shard's report,
    unused waivers included, is exact for its part); the shards' findings together are the
    unsharded run's.
    """
    from workbench.audit import all_rules, rules_by_name
    from workbench.audit.report import (
        format_json,
        format_junit,
        format_summary,
        format_text,
        unused_lines,
    )
    from workbench.audit.runner import audit_refs, run_audit, shard_refs
    from workbench.cli.output import echo, fail_usage
    from workbench.project import open_project

    if list_rules:
        for item in all_rules():
            echo(f"rule {item.number} ({item.name}): {item.summary}")
        return
    known = rules_by_name()
    unknown = [name for name in rule_names if name not in known]
    if unknown:
        fail_usage(f"no rule named {unknown[0]!r} (rules: {', '.join(sorted(known))})")
    rules = [known[name] for name in rule_names] if rule_names else None
    project = open_project(paths, installed=False)
    fail_unless_loaded(project.catalog.problems)
    refs = audit_refs(project.catalog)
    if shard is not None:
        refs = shard_refs(project.catalog, refs, shard)
    hosts = targeted_hosts(project.config, host_names)
    cache = project_cache(project, no_cache)

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            # Our own counter (trusted): the carriage return must survive the cleaning echo.
            click.echo(f"\r{done}/{total} variants", nl=False, err=True)

    report = run_audit(
        project.catalog,
        project.registry,
        rules=rules,
        refs=refs,
        jobs=jobs or default_jobs(),
        on_progress=progress,
        hosts=hosts,
        cache=cache,
    )
    report_cache(cache)
    if sys.stderr.isatty():
        click.echo("\r" + " " * 30 + "\r", nl=False, err=True)
    if output_format == "json":
        body = format_json(report)
    elif output_format == "junit":
        body = format_junit(report)
    else:
        body = "\n".join(format_text(report, show_waived=show_waived))
    if output_path is not None:
        output_path.write_text(body + "\n", encoding="utf-8")
    elif body:
        echo(body)
    for line in unused_lines(report):
        echo(line, err=True)
    echo(format_summary(report), err=True)
    if not report.ok:
        raise SystemExit(1)
