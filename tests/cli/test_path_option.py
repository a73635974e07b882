"""Every path a command takes is spelled by one option, single or repeatable."""

from __future__ import annotations

from pathlib import Path

import click
from click.testing import CliRunner

from workbench.cli import main
from workbench.cli.output import path_option


def test_a_repeatable_path_option_collects_every_path_and_refuses_a_folder(
    tmp_path: Path,
) -> None:
    @click.command()
    @path_option("--config", "config_files", "A config file (repeatable).", multiple=True)
    def report(config_files: tuple[Path, ...]) -> None:
        click.echo(repr(config_files))

    runner = CliRunner()
    assert runner.invoke(report, []).output == "()\n"
    picked = runner.invoke(report, ["--config", "a.json", "--config", "b.json"])
    assert picked.output == f"{(Path('a.json'), Path('b.json'))!r}\n"
    refused = runner.invoke(report, ["--config", str(tmp_path)])
    assert refused.exit_code == 2
    assert "is a directory" in refused.output


def test_the_live_commands_take_their_paths_from_it() -> None:
    context = click.Context(main)
    expected = {
        "config_files": (True, False),
        "skills": (True, True),
        "roots": (True, True),
        "workspace": (False, True),
    }
    for name in ("live", "call", "tools"):
        command = main.get_command(context, name)
        assert command is not None
        options = {param.name: param for param in command.params}
        for dest, (multiple, directory) in expected.items():
            option = options[dest]
            assert isinstance(option, click.Option) and isinstance(option.type, click.Path)
            assert option.multiple is multiple, (name, dest)
            assert (option.type.dir_okay, option.type.file_okay) == (directory, not directory)
