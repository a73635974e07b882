"""``workbench show`` prints a tool card headless; bad references are one-line usage errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from workbench.cli import main

CALC = "fixtures/calculator/calculate.yaml"


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    return CliRunner()


def test_show_prints_the_card_at_a_phase_and_width(runner: CliRunner) -> None:
    result = runner.invoke(
        main, ["show", f"{CALC}#division-by-zero", "--phase", "failed", "--width", "60"]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert all(len(line) <= 60 for line in lines)
    assert "Calculation failed: 1/0" in result.output
    assert "DivisionByZero while evaluating" in result.output
    assert "\x1b" not in result.output


def test_show_defaults_to_the_last_phase_and_can_show_earlier_ones(runner: CliRunner) -> None:
    done = runner.invoke(main, ["show", f"{CALC}#arithmetic"])
    assert done.exit_code == 0 and "Calculated: (2 + 3) * sqrt(16) = 20" in done.output
    streaming = runner.invoke(main, ["show", f"{CALC}#arithmetic", "--phase", "args-streaming"])
    assert streaming.exit_code == 0 and "Calculating: (2 + 3) * sq" in streaming.output
    assert "receiving arguments" in streaming.output


def test_show_portal(runner: CliRunner) -> None:
    result = runner.invoke(
        main, ["show", f"{CALC}#huge-factorial", "--surface", "portal", "--width", "100"]
    )
    assert (
        result.exit_code == 0 and "arguments" in result.output and "factorial(500)" in result.output
    )


def test_show_a_fixture_file_outside_the_project_with_its_tools(
    runner: CliRunner, tmp_path: Path
) -> None:
    draft = tmp_path / "draft.yaml"
    draft.write_text(
        "tool: calculator\napi: calculate\nvariants:\n  - id: draft\n    "
        'label: A draft\n    kind: typical\n    args: {expression: "6 * 7"}\n '
        '   result: {success: true, content: "6 * 7 = 42", state: {value: '
        '"42"}}\n'
    )
    result = runner.invoke(main, ["show", f"{draft}#draft", "--width", "80"])
    assert result.exit_code == 0, result.output
    assert "6 * 7" in result.output and "42" in result.output


@pytest.mark.parametrize(
    ("reference", "extra", "message"),
    [
        (
            "fixtures/nope.yaml#x",
            [],
            "unknown fixture file 'fixtures/nope.yaml' (known: calculator/calculate.yaml",
        ),
        (
            f"{CALC}#nope",
            [],
            "no variant 'nope' in fixtures/calculator/calculate.yaml (variants: "
            "arithmetic, division-by-zero",
        ),
        (
            f"{CALC}#arithmetic",
            ["--phase", "sleeping"],
            "unknown phase 'sleeping' (phases: args-streaming, awaiting-approval",
        ),
        (
            f"{CALC}#arithmetic",
            ["--phase", "streaming-output"],
            "has no phase 'streaming-output' (it has: args-streaming, executing, done)",
        ),
    ],
)
def test_unknown_things_are_one_line_errors_naming_what_exists(
    runner: CliRunner, reference: str, extra: list[str], message: str
) -> None:
    result = runner.invoke(main, ["show", reference, *extra])
    assert result.exit_code == 2
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_help_says_what_each_command_does(runner: CliRunner) -> None:
    for command in ([], ["show"], ["check"]):
        result = runner.invoke(main, [*command, "--help"])
        assert result.exit_code == 0
        assert len(result.output.splitlines()) > 4
