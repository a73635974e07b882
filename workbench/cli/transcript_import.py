"""``workbench import``: agent transcripts in, one fixture variant per tool call."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from workbench.cli.output import ProgressReport, echo, fail_usage, path_option
from workbench.transcripts.redaction import TranscriptRedactor

if TYPE_CHECKING:
    from click.decorators import FC

    from workbench.config import WorkbenchConfig
    from workbench.transcripts.importer import ImportSummary
    from workbench.transcripts.model import TranscriptProblem

FORMAT_NAMES = (
    "auto",
    "claude-code",
    "codex",
    "gemini",
    "acp",
    "openai-chat",
    "openai-responses",
    "anthropic",
    "otel",
)
"""``--format`` choices (the readers' names, kept here so ``--help`` loads no reader)."""


def transcript_format_option(help: str) -> Callable[[FC], FC]:
    """``--format`` for the commands that read a transcript (import, open, show)."""
    return click.option(
        "--format",
        "transcript_format",
        type=click.Choice(FORMAT_NAMES),
        default="auto",
        show_default=True,
        help=help,
    )


MEBIBYTE = 1024 * 1024
SHOWN_PROBLEMS = 20
SHOWN_FILES = 30


def _transcripts(paths: tuple[Path, ...]) -> Iterator[Path]:
    """The files named, and the ``.jsonl``/``.json`` files under the folders named."""
    for path in paths:
        if path.is_dir():
            yield from sorted(
                found
                for found in path.rglob("*")
                if found.suffix in (".jsonl", ".json") and found.is_file()
            )
        else:
            yield path


def _mapping(config: WorkbenchConfig, entries: tuple[str, ...]) -> dict[str, str]:
    mapping: dict[str, str] = {}
    sources = [(name, target, "import_map") for name, target in config.import_map.items()]
    for entry in entries:
        name, separator, target = entry.partition("=")
        if not separator:
            fail_usage(f"--map {entry!r}: write NAME=TOOL.API")
        sources.append((name.strip(), target.strip(), "--map"))
    for name, target, origin in sources:
        tool, dot, api = target.partition(".")
        if not name or not dot or not tool or not api:
            fail_usage(f"{origin} {name}={target}: the target must be TOOL.API")
        mapping[name] = target
    return mapping


def _known_apis(config: WorkbenchConfig) -> dict[str, frozenset[str]]:
    """The project's tools and the agents' own (Claude Code's, Codex's, gemini-cli's) with their
    APIs: a call to one of them is drawn by its surfaces, and needs no manifest of its own."""
    from workbench.project import discover_packages
    from workbench.tools.agent_packages import agent_packages

    packages = discover_packages(config).packages
    return {
        package.identifier: frozenset(package.manifest.api_names())
        for package in [*packages, *agent_packages(packages)]
    }


@click.command("import")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@transcript_format_option("The transcripts' format; auto recognises it from the first records.")
@path_option(
    "--into",
    "into",
    "Fixture directory to write into (default: the project's first fixture directory).",
    directory=True,
)
@click.option(
    "--map",
    "mappings",
    multiple=True,
    metavar="NAME=TOOL.API",
    help="Draw calls named NAME with the project's TOOL.API (repeatable; adds to "
    "[tool.workbench] import_map).",
)
@click.option("--dry-run", is_flag=True, help="Report what would be written; write nothing.")
@click.option(
    "--no-redact",
    is_flag=True,
    help="Keep secrets (API keys, tokens, passwords) in the written fixtures. Careful.",
)
def import_transcripts(
    paths: tuple[Path, ...],
    transcript_format: str,
    into: Path | None,
    mappings: tuple[str, ...],
    dry_run: bool,
    no_redact: bool,
) -> None:
    """Write every tool call of agent transcripts (PATHS: files or folders) as fixture variants.

    One file per tool API under the fixture directory (DIR/TOOL/API.yaml); a variant's id is
    its call id, so importing a session twice adds nothing. Existing files keep their own
    variants and comments; a variant whose id is taken by different content is reported as
    conflicting and left out. Secrets and the home directory are redacted before anything is
    written. A line that cannot be read is reported as FILE:LINE: RECORD: PROBLEM (never quoted)
    and the import goes on. Exit code 1 when a fixture file could not be added to.
    """
    from workbench.config import load_config
    from workbench.transcripts.importer import Importer
    from workbench.transcripts.model import ToolCall, TranscriptProblem
    from workbench.transcripts.readers import UnknownFormat, detect_format, read_transcript

    config = load_config()
    mapping = _mapping(config, mappings)
    root = into or (config.fixture_dirs[0] if config.pyproject is not None else Path("fixtures"))
    if no_redact:
        echo(
            "workbench: warning: --no-redact: secrets in the transcripts (API keys, tokens, "
            "passwords) will be written into the fixtures as they are",
            err=True,
        )
    redactor = TranscriptRedactor(enabled=not no_redact)
    importer = Importer(
        root, redactor=redactor, mapping=mapping, known=_known_apis(config), dry_run=dry_run
    )
    problems = _Problems()
    files: list[Path] = []
    for path in _transcripts(paths):
        if path.is_file():
            files.append(path)
        else:  # A FIFO or a device would block the read, or never end.
            problems.add(TranscriptProblem(str(path), None, "file", "not a regular file"))
    total = sum(max(1, -(-path.stat().st_size // MEBIBYTE)) for path in files)
    with ProgressReport("Importing (MiB)", total) as progress:
        for path in files:
            read = 0
            advanced = 0
            name = path.name

            def on_bytes(size: int) -> None:
                nonlocal read, advanced
                read += size
                while advanced < read // MEBIBYTE:
                    advanced += 1
                    progress.advance(name)  # noqa: B023 - called only while this file is read

            try:
                chosen = detect_format(path) if transcript_format == "auto" else transcript_format
                importer.summary.formats.add(chosen)
                for entry in read_transcript(path, chosen, on_bytes=on_bytes):
                    if isinstance(entry, ToolCall):
                        importer.add(entry, chosen)
                    elif isinstance(entry, TranscriptProblem):
                        problems.add(entry)
            except UnknownFormat as error:
                problems.add(TranscriptProblem(str(path), None, "file", error.reason))
            except OSError as error:
                problems.add(
                    TranscriptProblem(str(path), None, "file", f"cannot read ({error.strerror})")
                )
            while advanced < max(1, -(-read // MEBIBYTE)):
                advanced += 1
                progress.advance(path.name)
    summary = importer.finish()
    _report(summary, problems, redactor, root, dry_run=dry_run)
    if any(report.refused for report in summary.files.values()):
        raise SystemExit(1)


def _report(
    summary: ImportSummary,
    problems: _Problems,
    redactor: TranscriptRedactor,
    root: Path,
    *,
    dry_run: bool,
) -> None:
    verb = "Would import" if dry_run else "Imported"
    formats = ", ".join(sorted(summary.formats)) or "no known format"
    echo(f"{verb} {summary.calls} calls ({formats}) into {root}:")
    echo(
        f"  {summary.count('added')} added, {summary.count('unchanged')} unchanged, "
        f"{summary.count('conflicting')} conflicting, in {len(summary.files)} files"
    )
    reports = sorted(summary.files.values(), key=lambda report: str(report.path))
    for report in reports[:SHOWN_FILES]:
        parts = [f"+{len(report.added)}"]
        if report.unchanged:
            parts.append(f"{len(report.unchanged)} unchanged")
        if report.conflicting:
            conflicts = ", ".join(report.conflicting[:5])
            more = len(report.conflicting) - 5
            parts.append(f"conflicting: {conflicts}" + (f" (+{more} more)" if more > 0 else ""))
        if report.created and report.added:
            parts.append("new file")
        if report.refused:
            parts.append(f"NOT WRITTEN: {report.refused}")
        echo(f"  {report.path}: {'; '.join(parts)}")
    if len(reports) > SHOWN_FILES:
        echo(f"  (showing {SHOWN_FILES} of {len(reports)} files)")
    if redactor.enabled:
        kinds = ", ".join(
            f"{count} {kind}"
            for kind, count in sorted(redactor.counts.items())
            if kind != "home directory"
        )
        echo(f"Redacted {redactor.secrets} secrets" + (f" ({kinds})" if kinds else ""), nl=False)
    else:
        echo("Secrets NOT redacted (--no-redact)", nl=False)
    echo(f"; {redactor.counts['home directory']} home directory paths shown as ~")
    if summary.unknown:
        names = ", ".join(f"{name} ({count})" for name, count in sorted(summary.unknown.items()))
        echo(
            f"Unknown names, drawn by the generic surfaces (map them with --map NAME=TOOL.API): "
            f"{names}"
        )
    if summary.unfinished:
        echo(f"{summary.unfinished} calls have no result in the transcript and were left out")
    if problems.count:
        echo(f"{problems.count} problems (those records were left out):", err=True)
        # A record's type is the one thing of the file a problem names: redacted too.
        terminal = TranscriptRedactor(enabled=redactor.enabled)
        for problem in problems.shown:
            echo(f"  {terminal.text(problem.format())}", err=True)
        if problems.count > len(problems.shown):
            echo(f"  (showing {len(problems.shown)} of {problems.count})", err=True)


class _Problems:
    """The first problems, to print, and how many there were (a broken file has one a line)."""

    def __init__(self) -> None:
        self.shown: list[TranscriptProblem] = []
        self.count = 0

    def add(self, problem: TranscriptProblem) -> None:
        self.count += 1
        if len(self.shown) < SHOWN_PROBLEMS:
            self.shown.append(problem)
