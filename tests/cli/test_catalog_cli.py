"""``workbench resources`` and ``workbench prompts``: list, read and render headless, with the
exit codes of ``call``; ``workbench tools`` fails when a server did not start."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from workbench.cli import main

DEAD = f"{sys.executable} -c 'import sys; sys.exit(3)'"


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def test_resources_lists_each_servers_resources_and_templates() -> None:
    result = run("resources", "--demo")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("[ready] demo")
    assert "    demo://notes/today.md  text/markdown  Today's notes" in result.stdout
    assert "    demo://chapters/{number}  (template)  A chapter of the guide" in result.stdout
    listing = json.loads(run("resources", "--demo", "--format", "json").stdout)
    [demo] = listing["servers"]
    assert (
        demo["state"] == "ready"
        and {"uri": "demo://config.json"}.items() <= demo["resources"][2].items()
    )


def test_read_prints_text_describes_blobs_and_fails_on_an_error() -> None:
    text = run("resources", "--demo", "--read", "demo://chapters/3")
    assert text.exit_code == 0 and text.stdout.startswith("# Chapter 3")
    blob = run("resources", "--demo", "--read", "demo://logo.png")
    assert blob.exit_code == 0 and blob.stdout.strip() == "[image/png, 463 bytes, 16×16 px]"
    as_json = json.loads(
        run("resources", "--demo", "--read", "demo://config.json", "--format", "json").stdout
    )
    assert as_json["error"] is None and as_json["parts"][0]["mimeType"] == "application/json"
    missing = run("resources", "--demo", "--read", "demo://nope")
    assert missing.exit_code == 1 and "could not read demo://nope" in missing.stderr


def test_prompts_lists_and_renders_with_arguments() -> None:
    listing = run("prompts", "--demo")
    assert listing.exit_code == 0
    assert "    review_code(code*, focus)  Ask a model to review a piece of code." in listing.stdout
    rendered = run("prompts", "--demo", "--get", "review_code", "--args", '{"code": "x = 1"}')
    assert rendered.exit_code == 0
    assert rendered.stdout == "── user\nReview this code for correctness:\n\nx = 1\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--get", "review_code"], "prompt 'review_code' needs --args with code"),
        (["--get", "review_code", "--args", "[1]"], "--args must be a JSON object of strings"),
        (["--args", "{}"], "--args goes with --get NAME"),
        (["--get", "review_code", "--server", "other"], "no MCP server named 'other'"),
    ],
)
def test_prompt_usage_errors_exit_2(args: list[str], message: str) -> None:
    result = run("prompts", "--demo", *args)
    assert result.exit_code == 2 and message in result.stderr


def test_a_server_that_did_not_start_fails_every_listing() -> None:
    for command in ("resources", "prompts", "tools"):
        result = run(command, "--mcp", DEAD)
        assert result.exit_code == 1, (command, result.output)
        assert "failed: the server exited with code 3" in result.stderr
