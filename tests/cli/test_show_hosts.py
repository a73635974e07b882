"""``workbench show --model`` and ``--host``, and ``workbench hosts``, through the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from workbench.cli import main

CSV = "fixtures/local-system/readFile.yaml#large-csv"


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    return CliRunner()


def test_host_draws_the_folded_card_beside_the_full_one(runner: CliRunner) -> None:
    result = runner.invoke(main, ["show", CSV, "--width", "60", "--host", "codex"])
    assert result.exit_code == 0, result.output
    folded, full = result.output.split("full card")
    assert "first look: Codex CLI" in folded and "│ … +13 lines" in folded
    assert "13 of 23 body lines hidden until ctrl+t" in folded
    assert "showing 20 of 2,000 lines" in folded  # the last lines stay in view under codex
    assert "… +13 lines" not in full and "   10 9,item-9" in full
    assert all(len(line) <= 60 for line in result.output.splitlines())


def test_model_prints_each_hosts_cut_with_counts_and_sources(
    runner: CliRunner, tmp_path: Path
) -> None:
    lines = "\n".join(f"match {n}: " + "y" * 50 for n in range(3_000))
    document = {
        "tool": "calculator",
        "api": "calculate",
        "variants": [
            {
                "id": "huge",
                "label": "A huge answer",
                "kind": "typical",
                "args": {"expression": "1+1"},
                "result": {"success": True, "content": f"ERROR up front\n{lines}\nTHE END"},
            }
        ],
    }
    draft = tmp_path / "huge.yaml"
    draft.write_text(yaml.safe_dump(document))
    result = runner.invoke(
        main, ["show", f"{draft}#huge", "--model", "--host", "gemini-cli", "--host", "opencode"]
    )
    assert result.exit_code == 0, result.output
    gemini, opencode = result.output.split("OpenCode (opencode")
    assert "cut past 40,000 characters, keeping the start (20%) and the end (80%)" in gemini
    assert "DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD" in gemini
    assert "Output too large. Showing first 8,000 and last 32,000 characters" in gemini
    assert "THE END" in gemini
    assert "keeping the start" in opencode and "MAX_BYTES = 50 * 1024" in opencode
    assert "THE END" not in opencode.split("what the model reads")[1]
    assert "tokens by cl100k_base" in result.output


def test_an_unknown_host_is_a_usage_error_naming_the_known_ones(runner: CliRunner) -> None:
    result = runner.invoke(main, ["show", CSV, "--host", "nope"])
    assert result.exit_code == 2
    assert "unknown host 'nope'" in result.output and "claude-code" in result.output


def test_hosts_lists_every_profile_with_its_sources(runner: CliRunner) -> None:
    result = runner.invoke(main, ["hosts"])
    assert result.exit_code == 0, result.output
    for name in ("claude-code", "codex", "gemini-cli", "opencode", "crush", "none"):
        assert f"\n{name}" in f"\n{result.output}"
    assert "TOOL_CALL_MAX_LINES = 5" in result.output
    as_json = runner.invoke(main, ["hosts", "--format", "json"])
    assert as_json.exit_code == 0 and '"claude-code"' in as_json.output
