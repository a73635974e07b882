"""``workbench call`` when the server asks something mid-call: declined unless ``--answers``
scripts it, and the printed result says what was asked and answered; roots; MCP Apps."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.sources.helpers import SERVERS
from workbench.cli import main

SERVER = shlex.join([sys.executable, str(SERVERS / "conversation.py")])


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    # The test server asks the client things the pre-2026 way (server -> client requests),
    # which needs the initialize handshake: "protocol": "legacy".
    config = {
        "mcpServers": {
            "conversation": {
                "command": sys.executable,
                "args": [str(SERVERS / "conversation.py")],
                "protocol": "legacy",
            }
        }
    }
    (tmp_path / "mcp.json").write_text(json.dumps(config), encoding="utf-8")
    return CliRunner()


def call(runner: CliRunner, api: str, *extra: str, args: str = "{}") -> Result:
    return runner.invoke(
        main, ["call", f"conversation.{api}", "--config", "mcp.json", "--args", args, *extra]
    )


def test_a_2026_server_asks_by_input_required_and_gets_the_same_answers(
    runner: CliRunner, tmp_path: Path
) -> None:
    # Over --mcp the client probes and speaks 2026-07-28: requests arrive inside results.
    answers = tmp_path / "answers.yaml"
    answers.write_text("elicitation: {content: {name: Ada}}\n", encoding="utf-8")
    result = runner.invoke(
        main,
        ["call", "conversation.ask_modern", "--mcp", SERVER, "--answers", str(answers)],
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "accept: {'name': 'Ada'}"
    assert "asked elicitation-1: 'Who are you?'" in result.stderr
    looping = runner.invoke(main, ["call", "conversation.loop_modern", "--mcp", SERVER])
    assert looping.exit_code == 1
    assert "stopped after 10 rounds" in looping.stdout


def test_an_elicitation_is_declined_headless_and_the_output_says_so(runner: CliRunner) -> None:
    result = call(runner, "ask")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "decline: None"
    assert result.stderr.strip() == (
        "asked elicitation-1: 'What should we call you?' (a form of 3 field(s): name, age, "
        "color) -> declined (headless: script an answer with --answers FILE)"
    )


def test_answers_from_a_yaml_file_are_sent_and_printed(runner: CliRunner, tmp_path: Path) -> None:
    answers = tmp_path / "answers.yaml"
    answers.write_text(
        "# what a person would answer\n"
        "elicitation-1: {action: accept, content: {name: Ada, age: 36, color: g}}\n"
        "sampling: {reply: '4', model: my-model}\n",
        encoding="utf-8",
    )
    result = call(runner, "ask", "--answers", str(answers))
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "accept: {'name': 'Ada', 'age': 36, 'color': 'g'}"
    assert '-> accepted: {"name": "Ada", "age": 36, "color": "g"}' in result.stderr
    sampled = call(runner, "sample", "--answers", str(answers))
    assert sampled.stdout.strip() == "my-model said: 4"
    assert "asked sampling-1: a model's reply to 1 message(s), up to 50 tokens" in sampled.stderr
    assert "-> approved, reply '4' as my-model" in sampled.stderr


def test_content_that_breaks_the_schema_is_declined_with_the_reason(
    runner: CliRunner, tmp_path: Path
) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({"elicitation": {"content": {"age": 999}}}), encoding="utf-8")
    result = call(runner, "ask", "--answers", str(answers))
    assert result.stdout.strip() == "decline: None"
    assert "does not match the requested schema" in result.stderr
    assert "'name' is a required property" in result.stderr


def test_a_broken_answers_file_is_a_usage_error_at_its_line(
    runner: CliRunner, tmp_path: Path
) -> None:
    answers = tmp_path / "answers.yaml"
    answers.write_text("elicitation-1: {action: accept}\nquestion-3: {action: yes}\n", "utf-8")
    result = call(runner, "ask", "--answers", str(answers))
    assert result.exit_code == 2
    assert "answers.yaml" in result.stderr and "question-3" in result.stderr
    answers.write_text("sampling: {action: reject, reply: nope}\n", "utf-8")
    result = call(runner, "ask", "--answers", str(answers))
    assert result.exit_code == 2 and "answers.yaml:1" in result.stderr
    assert "takes no content or reply" in result.stderr


def test_a_hostile_url_is_refused_and_the_output_says_why(runner: CliRunner) -> None:
    result = call(runner, "ask_url", args='{"url": "javascript:alert(1)"}')
    assert result.stdout.strip() == "url decline"
    assert (
        "(to open javascript:alert(1)) -> declined (refused: only https and http" in result.stderr
    )


def test_json_output_has_the_interventions_and_the_server_log(runner: CliRunner) -> None:
    result = call(runner, "ask", "--format", "json")
    payload = json.loads(result.stdout)
    [exchange] = payload["interventions"]
    assert exchange["key"] == "elicitation-1" and exchange["kind"] == "elicitation"
    assert exchange["fields"] == ["name", "age", "color"]
    assert exchange["answer"] == {
        "action": "decline",
        "by": "default",
        "note": "headless: script an answer with --answers FILE",
    }
    chatty = json.loads(call(runner, "chatty", "--format", "json").stdout)
    kinds = [line["kind"] for line in chatty["serverMessages"]["shown"]]
    assert kinds.count("log") == 4 and "list-changed" in kinds


def test_no_root_is_offered_unless_given(runner: CliRunner, tmp_path: Path) -> None:
    result = call(runner, "roots")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "no roots"  # not the working directory
    other = tmp_path / "project"
    other.mkdir()
    result = call(runner, "roots", "--root", str(other), "--root", str(tmp_path))
    assert result.stdout.strip() == f"{other.resolve().as_uri()}, {tmp_path.resolve().as_uri()}"
    missing = call(runner, "roots", "--root", str(tmp_path / "nope"))
    assert missing.exit_code == 2


def test_json_output_names_an_app_tools_ui_resource(runner: CliRunner) -> None:
    clock = json.loads(call(runner, "clock", "--format", "json").stdout)
    ui = clock["ui"]
    assert ui["resourceUri"] == "ui://clock/app.html"
    assert ui["resource"]["mimeType"] == "text/html;profile=mcp-app"
    assert ui["resource"]["meta"]["csp"] == {"connectDomains": ["https://api.example.com"]}
    assert ui["textFallback"] is True
    chart = json.loads(call(runner, "chart", "--format", "json").stdout)
    assert chart["ui"]["textFallback"] is False
    plain = json.loads(call(runner, "roots", "--format", "json").stdout)
    assert "ui" not in plain


def test_tools_marks_an_app_only_tool_and_keeps_it_out_of_openai(runner: CliRunner) -> None:
    listing = runner.invoke(main, ["tools", "--config", "mcp.json"])
    assert listing.exit_code == 0, listing.output
    lines = listing.stdout.splitlines()
    [refresh] = [line for line in lines if line.strip().startswith(".refresh")]
    [clock] = [line for line in lines if line.strip().startswith(".clock")]
    assert "app only: not offered to the model" in refresh
    assert "app only" not in clock
    tools = json.loads(
        runner.invoke(main, ["tools", "--config", "mcp.json", "--format", "json"]).stdout
    )
    [conversation] = [tool for tool in tools["tools"] if tool["source"] == "conversation"]
    assert conversation["app_only"] == ["refresh"] and "refresh" in conversation["apis"]
    functions = json.loads(
        runner.invoke(main, ["tools", "--config", "mcp.json", "--openai"]).stdout
    )
    names = [function["function"]["name"] for function in functions]
    assert any(name.endswith("clock") for name in names)
    assert not any(name.endswith("refresh") for name in names)


DEFAULTS_SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "default": "John Doe"},
        "age": {"type": "integer", "default": 30},
        "score": {"type": "number", "default": 95.5},
        "status": {"type": "string", "enum": ["active", "inactive"], "default": "active"},
        "verified": {"type": "boolean", "default": True},
        "nickname": {"type": "string"},
        "subscribed": {"type": "boolean"},
    },
    "required": ["name"],
}


def test_an_accepted_answer_sends_the_schemas_defaults_and_leaves_the_rest_out(
    runner: CliRunner, tmp_path: Path
) -> None:
    """As the conformance suite's elicitation-sep1034-client-defaults scenario asks: fields the
    answer does not give are sent as their defaults; one with no default is left out, never
    sent as false or empty."""
    answers = tmp_path / "answers.yaml"
    answers.write_text("elicitation: {action: accept, content: {age: 41}}\n", encoding="utf-8")
    args = json.dumps({"schema": DEFAULTS_SCHEMA})
    result = call(runner, "ask_schema", "--answers", str(answers), args=args)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == (
        "accept: {'name': 'John Doe', 'age': 41, 'score': 95.5, 'status': 'active', "
        "'verified': True}"
    )
