"""``workbench import`` end to end: transcripts in, fixture files out, then check and show."""

from __future__ import annotations

import json
import os
import re
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from workbench.cli import main

SAMPLES = Path(__file__).parent / "samples"
SECRETS = (
    "sk-proj-FAKEFAKEFAKEFAKEFAKE0000",
    "FAKEtokenFAKEtoken1234",
    "FAKE-not-a-real-key-123",
    "sk_test_FAKEFAKEFAKEFAKE0000",
    "FAKEotelTOKEN00001234",
    "ghp_FAKEFAKEFAKEFAKEFAKEFAKE0000",
    "example-user",
)
"""The fake secrets (and the fake home directory's user) the samples hold."""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.workbench]\nfixtures = ["fixtures"]\ninclude_bundled = false\nplugins = false\n'
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def samples() -> list[str]:
    return sorted(str(path) for path in SAMPLES.iterdir())


def written(root: Path) -> dict[Path, bytes]:
    return {path: path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


def test_every_sample_imports_checks_and_shows(project: Path) -> None:
    result = run("import", *samples())
    assert result.exit_code == 0, result.output
    assert re.search(r"Imported 45 calls .* into .*fixtures", result.stdout)
    assert "45 added, 0 unchanged, 0 conflicting" in result.stdout
    checked = run("check", "fixtures")
    assert checked.exit_code == 0, checked.output
    assert "45 variant(s)," in checked.output
    # The agents' own tools are drawn by Workbench's packages: what the audit finds there is
    # reported, but the project cannot change those surfaces, so it does not fail the check.
    findings = [line for line in checked.output.splitlines() if ": audit." in line]
    assert all("drawn by Workbench: not counted" in line for line in findings), findings
    task = run("show", "fixtures/claude-code/Task.yaml#toolu_task", "--width", "80")
    assert task.exit_code == 0, task.output
    assert "1 call" in task.stdout and "Bash grep -r CC ci.yml" in task.stdout  # nested
    shown = run("show", "fixtures/codex/shell.yaml#call_shell_fail", "--width", "70")
    assert shown.exit_code == 0, shown.output
    assert "cat src/nope.c → exit 1" in shown.stdout  # drawn by the Codex package
    assert "failed · 120 ms" in shown.stdout
    denied = run("show", "fixtures/claude-code/Edit.yaml#toolu_edit_denied")
    assert denied.exit_code == 0, denied.output
    assert "skipped" in denied.stdout


def test_importing_twice_adds_nothing(project: Path) -> None:
    assert run("import", *samples()).exit_code == 0
    before = written(project / "fixtures")
    again = run("import", *samples())
    assert again.exit_code == 0, again.output
    assert "0 added, 45 unchanged, 0 conflicting" in again.stdout
    assert written(project / "fixtures") == before


def test_a_hand_written_file_keeps_its_comments_and_variants(project: Path) -> None:
    hand = project / "fixtures" / "codex" / "shell.yaml"
    hand.parent.mkdir(parents=True)
    text = textwrap.dedent(
        """\
        # Written by hand: keep this comment.
        tool: codex
        api: shell
        variants:
          - id: by-hand   # and this one
            label: A call written by hand
            kind: typical
            args: {command: [ls]}
            result: {success: true, content: "a.txt"}
          - id: call_shell_ok
            label: Same id as an imported call, other content
            kind: typical
            args: {command: [pwd]}
            result: {success: true, content: "/"}
        """
    )
    hand.write_text(text)
    result = run("import", str(SAMPLES / "codex.jsonl"))
    assert result.exit_code == 0, result.output
    assert "conflicting: call_shell_ok" in result.stdout
    after = hand.read_text()
    assert after.startswith(text)  # every byte the author wrote is still there, in place
    assert "- id: call_shell_fail" in after
    assert after.count("id: call_shell_ok") == 1


def test_map_and_import_map_choose_the_tool_that_draws_a_call(project: Path) -> None:
    with (project / "pyproject.toml").open("a") as config:
        config.write('import_map = {list_alerts = "weather.alerts"}\n')
    result = run(
        "import", str(SAMPLES / "openai-chat.json"), "--map", "get_weather=weather.current"
    )
    assert result.exit_code == 0, result.output
    assert (project / "fixtures/weather/current.yaml").is_file()
    assert (project / "fixtures/weather/alerts.yaml").is_file()
    assert not (project / "fixtures/get_weather").exists()
    assert "weather.current" not in result.stdout.split("Unknown names")[-1]


def test_a_bad_map_is_a_usage_error(project: Path) -> None:
    result = run("import", str(SAMPLES / "codex.jsonl"), "--map", "shell")
    assert result.exit_code == 2
    assert "NAME=TOOL.API" in result.output
    assert not (project / "fixtures").exists()


def test_dry_run_writes_nothing(project: Path) -> None:
    result = run("import", *samples(), "--dry-run")
    assert result.exit_code == 0, result.output
    assert "Would import 45 calls" in result.stdout
    assert not (project / "fixtures").exists()


def test_no_secret_reaches_a_file_or_the_terminal(project: Path) -> None:
    result = run("import", *samples())
    assert result.exit_code == 0, result.output
    output = result.stdout + result.stderr
    files = b"".join(written(project / "fixtures").values()).decode()
    for secret in SECRETS:
        assert secret not in files
        assert secret not in output
    assert re.search(r"Redacted [1-9][0-9]* secrets \(", result.stdout)
    assert "[redacted]" in files
    assert "~/work/app" in files


def test_no_redact_warns_and_keeps_them(project: Path) -> None:
    result = run("import", str(SAMPLES / "claude-code.jsonl"), "--no-redact")
    assert result.exit_code == 0, result.output
    assert "warning: --no-redact" in result.stderr
    files = b"".join(written(project / "fixtures").values()).decode()
    assert SECRETS[0] in files


def test_a_file_that_is_no_transcript_is_a_problem_not_a_traceback(project: Path) -> None:
    other = project / "notes.json"
    other.write_text('{"title": "not a transcript", "password": "FAKE-pass-999"}\n')
    result = run("import", str(other), str(SAMPLES / "codex.jsonl"))
    assert result.exit_code == 0, result.output
    assert f"{other}: file: not a transcript format" in result.stderr
    assert "FAKE-pass-999" not in result.output
    assert "Imported 8 calls (codex)" in result.stdout


def test_a_folder_imports_the_transcripts_under_it(project: Path) -> None:
    result = run("import", str(SAMPLES), "--dry-run")
    assert result.exit_code == 0, result.output
    assert "Would import 45 calls" in result.stdout


def test_a_fifo_is_a_problem_not_a_hang(project: Path) -> None:
    fifo = project / "session.jsonl"
    os.mkfifo(fifo)
    result = run("import", str(fifo))
    assert result.exit_code == 0, result.output
    assert f"{fifo}: file: not a regular file" in result.stderr


def test_format_choices_are_the_readers() -> None:
    from workbench.cli.transcript_import import FORMAT_NAMES
    from workbench.transcripts.readers import FORMATS

    assert ("auto", *FORMATS) == FORMAT_NAMES


def test_progress_is_plain_lines_in_a_log(project: Path) -> None:
    result = run("import", str(SAMPLES / "codex.jsonl"), "--dry-run")
    assert "Importing (MiB): 1/1 (100%)" in result.stderr
    assert "\r" not in result.stderr


def test_the_coverage_gate_counts_only_the_projects_own_tools(project: Path) -> None:
    assert run("import", *samples()).exit_code == 0
    # Names nobody knew and MCP servers the project lacks are someone else's tools: reported
    # apart, never a gap of this project.
    checked = run("check", "--no-audit")
    assert checked.exit_code == 0, checked.output
    not_yours = [line for line in checked.output.splitlines() if "not yours" in line]
    assert any(
        line.startswith("fixtures/github/list_issues.yaml:1: variants:") for line in not_yours
    )
    assert all(line.endswith("(imported, not yours: not counted)") for line in not_yours)
    covered = run("coverage")
    assert covered.exit_code == 0, covered.output
    assert re.search(r", 0 gaps, \d+ imported, not yours: not counted", covered.output)
    # Once the project describes the API itself, it is the project's, held to the gate.
    manifest = project / "fixtures" / "github" / "manifest.yaml"
    manifest.write_text(
        manifest.read_text().replace(
            "description: Imported from agent transcripts.\n", "description: Our issue list.\n"
        )
    )
    checked = run("check", "--no-audit")
    assert checked.exit_code == 1
    assert "github.list_issues no 'empty' variant and no waiver" in checked.output


SHELL_RECORDING = {
    "sessionId": "s-shell",
    "messages": [
        {"id": "m-1", "type": "user", "content": "List the sources"},
        {
            "id": "m-2",
            "type": "gemini",
            "content": "Listing.",
            "toolCalls": [
                {
                    "id": "run_shell_command-1",
                    "name": "run_shell_command",
                    "args": {"command": "ls src", "description": "List the sources"},
                    "status": "success",
                    "timestamp": "2026-01-07T08:00:01.000Z",
                    "result": [
                        {
                            "functionResponse": {
                                "id": "run_shell_command-1",
                                "name": "run_shell_command",
                                "response": {
                                    "output": "Command: ls src\nDirectory: (root)\n"
                                    "Output: main.py\nutil.py\nError: (none)\nExit Code: 0\n"
                                    "Signal: (none)\nBackground PIDs: (none)\n"
                                    "Process Group PGID: 4242"
                                },
                            }
                        }
                    ],
                    "resultDisplay": "main.py\nutil.py",
                }
            ],
        },
    ],
}


def test_a_gemini_command_shows_what_it_printed_not_the_lines_written_for_the_model(
    project: Path,
) -> None:
    recording = project / "session.json"
    recording.write_text(json.dumps(SHELL_RECORDING, indent=1))
    assert run("import", str(recording)).exit_code == 0
    checked = run("check", "fixtures")
    assert checked.exit_code == 0, checked.output
    assert ": audit." not in checked.output
    shown = run("show", "fixtures/gemini-cli/run_shell_command.yaml#run_shell_command-1")
    assert shown.exit_code == 0, shown.output
    assert "main.py" in shown.stdout and "util.py" in shown.stdout
    assert "Process Group PGID" not in shown.stdout and "Directory:" not in shown.stdout


def _tool_lines(index: int, name: str, args: dict[str, object], output: str) -> list[str]:
    """A Claude Code call and its result, as two session lines."""
    when = f"2026-01-05T10:01:{index:02d}.000Z"
    call_id = f"toolu_later_{index}"
    use = {"type": "tool_use", "id": call_id, "name": name, "input": args}
    result = {"type": "tool_result", "tool_use_id": call_id, "content": output}
    return [
        json.dumps({"type": "assistant", "uuid": f"l-{index}a", "sessionId": "s-1",
                    "timestamp": when, "message": {"role": "assistant", "content": [use]}}),
        json.dumps({"type": "user", "uuid": f"l-{index}b", "sessionId": "s-1",
                    "timestamp": when, "message": {"role": "user", "content": [result]}}),
    ]  # fmt: skip


def test_a_later_claude_code_session_is_drawn_by_its_own_tools_under_their_new_names(
    project: Path,
) -> None:
    # Later versions call Task "Agent", stop a background shell with TaskStop and read it with
    # TaskOutput; older ones stopped it with KillBash.
    session = (SAMPLES / "claude-code.jsonl").read_text().replace('"name":"Task"', '"name":"Agent"')
    later = [
        *_tool_lines(1, "TaskOutput", {"task_id": "bash_7", "block": True}, "Listening on 8000"),
        *_tool_lines(2, "TaskStop", {"task_id": "bash_7"}, "Stopped bash_7"),
        *_tool_lines(3, "KillBash", {"shell_id": "bash_8"}, "Killed bash_8"),
    ]
    (project / "later.jsonl").write_text(session + "\n".join(later) + "\n")
    imported = run("import", str(project / "later.jsonl"))
    assert imported.exit_code == 0, imported.output
    assert not list((project / "fixtures" / "claude-code").glob("manifest.*")), "unknown tools"
    checked = run("check", "fixtures")
    assert checked.exit_code == 0, checked.output
    assert ": audit." not in checked.output, checked.output
    agent = run("show", "fixtures/claude-code/Agent.yaml#toolu_task", "--width", "80")
    assert agent.exit_code == 0, agent.output
    assert "1 call" in agent.stdout and "Bash grep -r CC ci.yml" in agent.stdout  # nested
    output = run("show", "fixtures/claude-code/TaskOutput.yaml#toolu_later_1")
    assert "shell bash_7" in output.stdout and "Listening on 8000" in output.stdout
    stopped = run("show", "fixtures/claude-code/KillBash.yaml#toolu_later_3")
    assert "Stopped: shell bash_8" in stopped.stdout, stopped.stdout
