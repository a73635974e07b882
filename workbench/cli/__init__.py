"""The ``workbench`` command line.

A subcommand's module is imported only when that subcommand runs (or ``--help`` lists it),
and imports what it needs when it runs: ``workbench check --no-audit`` never loads Textual
(the render audit draws with it), ``workbench call`` never loads the TUI, and ``workbench``
itself reaches its first screen without the other commands' imports.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from workbench.cli.output import Done, echo, exit_done, fail_usage, install_log_handler

if TYPE_CHECKING:
    from workbench.project import Project

SUBCOMMANDS: dict[str, str] = {
    "audit": "workbench.cli.audit:audit",
    "call": "workbench.cli.live:call",
    "check": "workbench.cli.check:check",
    "coverage": "workbench.cli.coverage:coverage",
    "hosts": "workbench.cli.hosts:hosts",
    "import": "workbench.cli.transcript_import:import_transcripts",
    "live": "workbench.cli.live:live",
    "new": "workbench.cli.new:new",
    "open": "workbench.cli.transcript_show:open_transcript",
    "prompts": "workbench.cli.catalog:prompts",
    "resources": "workbench.cli.catalog:resources",
    "review": "workbench.cli.review:review",
    "serve": "workbench.cli.serve:serve",
    "show": "workbench.cli.show:show",
    "snapshot": "workbench.cli.snapshot:snapshot",
    "tools": "workbench.cli.live:tools",
}
"""Commands defined in their own modules, by name: ``module:attribute``."""


def _usage_error(error: click.UsageError) -> None:
    """Click's usage errors in the one style every command uses: ``workbench: error: …``.

    Click prints a block (usage line, hint, ``Error: …``); a script grepping stderr, or a
    person reading it, should meet one shape whoever noticed the mistake.
    """
    message = error.format_message().rstrip(".")
    command = error.ctx.command_path if error.ctx is not None else "workbench"
    fail_usage(f"{message} (see `{command} --help`)")


class WorkbenchGroup(click.Group):
    """Turns configuration errors into ``file:line: field: message`` lines and exit code 2,
    for every command (never a traceback), and click's usage errors into the same
    ``workbench: error:`` line as the commands' own; routes log records through the cleaning
    stderr handler before any command runs; imports a subcommand's module when it is asked
    for (click's lazy-group pattern)."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: object,
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as error:
            _usage_error(error)
            raise

    def main(self, args: Sequence[str] | None = None, *rest: Any, **extra: Any) -> Any:
        """As click's; a command that is :class:`Done` ends the process at once when this
        process is the ``workbench`` command (its arguments are the process's own)."""
        try:
            return super().main(args, *rest, **extra)
        except Done as done:
            if args is not None:  # Called with arguments (a test's runner): a plain exit.
                raise SystemExit(done.code) from None
            exit_done(done)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *SUBCOMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = SUBCOMMANDS.get(cmd_name)
        if target is None:
            return super().get_command(ctx, cmd_name)
        module, _, attribute = target.partition(":")
        command = getattr(importlib.import_module(module), attribute)
        assert isinstance(command, click.Command)
        return command

    def invoke(self, ctx: click.Context) -> object:
        install_log_handler()
        try:
            return super().invoke(ctx)
        except click.UsageError as error:
            _usage_error(error)
            raise
        except Exception as error:
            # Imported only now: the TUI's start draws its first frame before the config's
            # models are imported (a ConfigError cannot exist before they are).
            from workbench.config import ConfigError

            if not isinstance(error, ConfigError):
                raise
            for problem in error.problems:
                echo(f"workbench: error: {problem.format()}", err=True)
            raise SystemExit(2) from None


FIXTURES_OPTION = click.option(
    "--fixtures",
    "fixture_paths",
    multiple=True,
    type=click.Path(exists=True, path_type=Path),
    help="Fixture file or directory to open instead of the configured ones (repeatable).",
)


def run_tui(fixture_paths: tuple[Path, ...], *, watch: bool, address: str | None = None) -> None:
    """The fixture TUI on the project (or on ``fixture_paths``); its first screen is the one
    the last same start kept, when nothing it was drawn from has changed."""
    from workbench.app.app import WorkbenchApp
    from workbench.app.first_screen import FirstScreenStore

    def load_project() -> Project:
        # The configuration is read again at each (re)load: `workbench dev` follows its edits.
        from workbench.project import open_project

        return open_project(fixture_paths)

    command = [*(str(path.resolve()) for path in fixture_paths), f"--open={address}", f"{watch=}"]
    WorkbenchApp(
        load_project,
        select=address,
        watch=watch,
        first_screen=FirstScreenStore.for_start(command),
    ).run()


@click.group(
    cls=WorkbenchGroup,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@FIXTURES_OPTION
@click.option(
    "--open",
    "address",
    metavar="FILE#VARIANT",
    default=None,
    help="Open the TUI on this fixture variant (as `workbench check` prints it).",
)
@click.option(
    "--watch",
    is_flag=True,
    help="Reload fixtures, manifests and tool modules as they are saved (as `workbench dev`).",
)
@click.pass_context
def main(
    ctx: click.Context, fixture_paths: tuple[Path, ...], address: str | None, watch: bool
) -> None:
    """Workbench: preview, review and test the UI surfaces of LLM-agent tools.

    Run without a command to open the TUI on the project's fixtures (the bundled reference
    tools when no [tool.workbench] config is found).
    """
    if ctx.invoked_subcommand is not None:
        return
    run_tui(fixture_paths, watch=watch, address=address)


@click.command()
@FIXTURES_OPTION
def dev(fixture_paths: tuple[Path, ...]) -> None:
    """Open the TUI and redraw it as you edit: a tool author's loop.

    Saving a fixture file, a manifest or a tool's Python module (surfaces, runtime, manifest)
    reloads it within a second, on the same variant, phase, width and theme. A module that
    no longer imports shows its error (file, line and code) in the card until it is fixed.
    """
    run_tui(fixture_paths, watch=True)


main.add_command(dev)

__all__ = ["main"]
