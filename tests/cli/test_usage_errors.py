"""Every usage error, whoever notices it (click parsing the command line, or a command
checking its input), is one ``workbench: error:`` line on stderr with exit code 2."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from workbench.cli import main


@pytest.mark.parametrize(
    ("arguments", "line"),
    [
        (["new"], "workbench: error: Missing argument 'NAME' (see `workbench new --help`)"),
        (
            ["show", "--width", "5", "x.yaml#y"],
            "workbench: error: Invalid value for '--width': 5 is not in the range 30<=x<=400 "
            "(see `workbench show --help`)",
        ),
        (["bogus"], "workbench: error: No such command 'bogus' (see `workbench --help`)"),
        (["--bogus"], "workbench: error: No such option '--bogus' (see `workbench --help`)"),
        (
            ["coverage", "--format", "xml"],
            "workbench: error: Invalid value for '--format': 'xml' is not one of 'text', 'json' "
            "(see `workbench coverage --help`)",
        ),
    ],
)
def test_click_usage_errors_read_like_the_commands_own(arguments: list[str], line: str) -> None:
    result = CliRunner().invoke(main, arguments, prog_name="workbench")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [line]
    assert "Usage:" not in result.output


def test_a_commands_own_usage_error_has_the_same_shape(tmp_path: object) -> None:
    result = CliRunner().invoke(main, ["new", "ok-tool", "--api", "9bad"])
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert line.startswith("workbench: error: --api '9bad': name an API as a Python method")
