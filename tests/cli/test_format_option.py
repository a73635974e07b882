"""Every command that answers in JSON spells ``--format`` the same way, from one option."""

from __future__ import annotations

import click
from click.testing import CliRunner

from workbench.cli import main
from workbench.cli.output import format_option


def test_the_option_defaults_to_text_and_refuses_other_formats() -> None:
    @click.command()
    @format_option("What to print.", formats=("text", "json", "junit"))
    def report(output_format: str) -> None:
        click.echo(output_format)

    runner = CliRunner()
    assert runner.invoke(report, []).output == "text\n"
    assert runner.invoke(report, ["--format", "junit"]).output == "junit\n"
    refused = runner.invoke(report, ["--format", "xml"])
    assert refused.exit_code == 2
    assert "'xml' is not one of 'text', 'json', 'junit'" in refused.output
    assert "What to print.  [default: text]" in runner.invoke(report, ["--help"]).output


def test_the_commands_take_the_shared_option() -> None:
    context = click.Context(main)
    for name in ("check", "coverage", "review", "audit", "resources", "prompts"):
        command = main.get_command(context, name)
        assert command is not None
        [option] = [param for param in command.params if param.name == "output_format"]
        assert isinstance(option, click.Option) and isinstance(option.type, click.Choice)
        assert option.opts == ["--format"]
        assert option.default == "text" and option.show_default is True
        assert list(option.type.choices)[:2] == ["text", "json"]
