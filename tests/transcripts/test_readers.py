"""Each reader on a sample session we wrote from the format's published field names.

Every sample has a success, an error, an empty result, a call a person or the turn stopped,
an MCP call, a record nobody knows and (where the format has them) a subagent's call.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.transcripts.importer import Importer, kind_of, resolve
from workbench.transcripts.model import Message, ToolCall, TranscriptProblem, turns
from workbench.transcripts.readers import FORMATS, detect_format, read_transcript
from workbench.transcripts.redaction import TranscriptRedactor

SAMPLES = Path(__file__).parent / "samples"
FILES = {
    "claude-code": "claude-code.jsonl",
    "codex": "codex.jsonl",
    "gemini": "gemini.json",
    "acp": "acp.jsonl",
    "openai-chat": "openai-chat.json",
    "openai-responses": "openai-responses.json",
    "anthropic": "anthropic.json",
    "otel": "otel.json",
}

# format -> call id -> (outcome, kind, tool.api it resolves to)
EXPECTED: dict[str, dict[str, tuple[str, str, str]]] = {
    "claude-code": {
        "toolu_bash_ok": ("done", "typical", "claude-code.Bash"),
        "toolu_read_err": ("failed", "error", "claude-code.Read"),
        "toolu_grep_empty": ("done", "empty", "claude-code.Grep"),
        "toolu_edit_denied": ("denied", "denied", "claude-code.Edit"),
        "toolu_mcp_issues": ("done", "typical", "github.list_issues"),
        "toolu_task": ("done", "typical", "claude-code.Task"),
        "toolu_sub_bash": ("done", "typical", "claude-code.Bash"),
        "toolu_bash_long": ("done", "truncated", "claude-code.Bash"),
    },
    "codex": {
        "call_shell_ok": ("done", "typical", "codex.shell"),
        "call_shell_fail": ("failed", "error", "codex.shell"),
        "call_shell_empty": ("done", "empty", "codex.shell"),
        "call_patch_denied": ("denied", "denied", "codex.apply_patch"),
        "call_mcp_docs": ("done", "typical", "docs.search"),
        "call_mcp_only": ("failed", "error", "docs.fetch_page"),
        "call_shell_long": ("done", "truncated", "codex.shell"),
        "call_shell_interrupted": ("interrupted", "interrupted", "codex.shell"),
    },
    "gemini": {
        "read_file-1": ("done", "typical", "gemini-cli.read_file"),
        "run_shell_command-2": ("failed", "error", "gemini-cli.run_shell_command"),
        "glob-3": ("done", "empty", "gemini-cli.glob"),
        "replace-4": ("cancelled", "cancelled", "gemini-cli.replace"),
        "mcp-5": ("done", "typical", "docs.search"),
    },
    "acp": {
        "tc-read": ("done", "typical", "acp.read"),
        "tc-run": ("failed", "error", "acp.execute"),
        "tc-search": ("done", "empty", "acp.search"),
        "tc-edit": ("denied", "denied", "acp.edit"),
        "tc-mcp": ("done", "typical", "acp.fetch"),
    },
    "openai-chat": {
        "call_w1": ("done", "typical", "get_weather.get_weather"),
        "call_w2": ("failed", "error", "get_weather.get_weather"),
        "call_w3": ("done", "empty", "list_alerts.list_alerts"),
        "call_w4": ("done", "typical", "weather.forecast"),
    },
    "openai-responses": {
        "call_inv_ok": ("done", "typical", "search_invoices.search_invoices"),
        "call_inv_err": ("failed", "error", "search_invoices.search_invoices"),
        "call_inv_empty": ("done", "empty", "search_invoices.search_invoices"),
        "mcp_1": ("done", "typical", "billing.get_customer"),
        "mcp_2": ("failed", "error", "billing.get_customer"),
    },
    "anthropic": {
        "toolu_a1": ("done", "typical", "git_status.git_status"),
        "toolu_a2": ("failed", "error", "git_diff.git_diff"),
        "toolu_a3": ("done", "empty", "git_stash_list.git_stash_list"),
        "mcptoolu_a4": ("done", "typical", "sourcegraph.search_code"),
    },
    "otel": {
        "call_o1": ("done", "typical", "fetch_url.fetch_url"),
        "call_o2": ("failed", "error", "fetch_url.fetch_url"),
        "call_o3": ("done", "empty", "list_todos.list_todos"),
        "call_o4": ("done", "typical", "delegate.delegate"),
        "call_o5": ("done", "typical", "notes.read_note"),
        "call_o6": ("cancelled", "cancelled", "delete_all.delete_all"),
    },
}

SUBAGENT_CALLS = {"claude-code": ("toolu_sub_bash", "toolu_task"), "otel": ("call_o5", "call_o4")}
"""A subagent's call and the call that started it, in the formats that record subagents."""


def entries(format: str) -> list[Message | ToolCall | TranscriptProblem]:
    return list(read_transcript(SAMPLES / FILES[format], format))


def test_every_format_has_a_sample() -> None:
    assert set(FILES) == set(FORMATS) == set(EXPECTED)


@pytest.mark.parametrize("format", FORMATS)
def test_auto_recognises_the_format(format: str) -> None:
    assert detect_format(SAMPLES / FILES[format]) == format


@pytest.mark.parametrize("format", FORMATS)
def test_every_call_ends_as_the_agent_recorded_it(format: str) -> None:
    calls = {entry.id: entry for entry in entries(format) if isinstance(entry, ToolCall)}
    found = {
        call_id: (
            call.outcome,
            kind_of(call),
            "{0.tool}.{0.api}".format(resolve(call, format, {}, {})),
        )
        for call_id, call in calls.items()
    }
    assert found == EXPECTED[format]


@pytest.mark.parametrize("format", FORMATS)
def test_an_unknown_record_is_a_located_problem_that_quotes_nothing(format: str) -> None:
    problems = [entry for entry in entries(format) if isinstance(entry, TranscriptProblem)]
    assert problems, "every sample holds a record nobody knows"
    text = (SAMPLES / FILES[format]).read_text()
    for problem in problems:
        line = problem.format()
        assert line.startswith(str(SAMPLES / FILES[format]))
        assert "nobody knows" not in line  # the record's own words stay out of the report
        if problem.line is not None:
            assert 1 <= problem.line <= text.count("\n") + 1


@pytest.mark.parametrize("format", sorted(SUBAGENT_CALLS))
def test_a_subagents_call_is_nested_under_the_call_that_started_it(format: str) -> None:
    child, parent = SUBAGENT_CALLS[format]
    calls = {entry.id: entry for entry in entries(format) if isinstance(entry, ToolCall)}
    assert calls[child].parent_call == parent
    assert all(call.parent_call is None for call in calls.values() if call.id != child)


def test_claude_code_keeps_the_structured_result_and_the_conversation() -> None:
    found = entries("claude-code")
    call = next(e for e in found if isinstance(e, ToolCall) and e.id == "toolu_grep_empty")
    assert call.state == {"mode": "files_with_matches", "filenames": [], "numFiles": 0}
    assert call.duration_ms == 200
    roles = [entry.role for entry in found if isinstance(entry, Message)]
    assert roles[:3] == ["user", "thinking", "assistant"]


def test_codex_takes_exit_code_and_duration_from_the_exec_events() -> None:
    calls = {e.id: e for e in entries("codex") if isinstance(e, ToolCall)}
    assert calls["call_shell_ok"].state == {"exitCode": 0, "durationMs": 250}
    assert calls["call_shell_ok"].args == {
        "command": ["bash", "-lc", "ls src"],
        "workdir": "/home/example-user/work/app",
    }
    assert calls["call_shell_fail"].error == "exited with code 1"
    assert calls["call_patch_denied"].args["input"].startswith("*** Begin Patch")


def test_acp_joins_message_chunks_and_keeps_a_diff_as_state() -> None:
    found = entries("acp")
    messages = [(e.role, e.text) for e in found if isinstance(e, Message)]
    assert ("user", "Fix the test") in messages
    assert ("assistant", "The test expects 3; I could not edit app.py.") in messages
    edit = next(e for e in found if isinstance(e, ToolCall) and e.id == "tc-edit")
    assert edit.state == {
        "diffs": [{"path": "app.py", "oldText": "return a - b", "newText": "return a + b"}]
    }


def test_a_call_without_a_result_comes_last_and_is_not_written(tmp_path: Path) -> None:
    sample = tmp_path / "cut.jsonl"
    lines = (SAMPLES / "claude-code.jsonl").read_text().splitlines()[:3]  # tool_use, no result
    sample.write_text("\n".join(lines) + "\n")
    found = list(read_transcript(sample))
    assert isinstance(found[-1], ToolCall) and found[-1].outcome == "unfinished"
    importer = Importer(tmp_path / "fixtures", redactor=TranscriptRedactor())
    importer.add(found[-1], "claude-code")
    summary = importer.finish()
    assert summary.unfinished == 1 and summary.calls == 0
    assert not (tmp_path / "fixtures").exists()


def test_turns_group_the_conversation_by_what_the_user_asked() -> None:
    found = list(turns(read_transcript(SAMPLES / "claude-code.jsonl")))
    assert [turn.prompt.text if turn.prompt else None for turn in found] == [
        "Why does the build fail? The key is in .env"
    ]
    (turn,) = found
    assert [call.id for call in turn.calls] == list(EXPECTED["claude-code"])
    assert len(turn.problems) == 2
    first = list(turns(read_transcript(SAMPLES / "codex.jsonl")))
    assert first[0].prompt is not None
    assert first[0].prompt.text == "List the source files and fix the typo"


def test_a_document_on_one_line_is_read_as_its_records(tmp_path: Path) -> None:
    document = json.loads((SAMPLES / "gemini.json").read_text())
    minified = tmp_path / "session.json"
    minified.write_text(json.dumps(document) + "\n" + json.dumps(document) + "\n")
    calls = [entry for entry in read_transcript(minified) if isinstance(entry, ToolCall)]
    assert [call.id for call in calls] == 2 * list(EXPECTED["gemini"])
    assert {call.line for call in calls} == {1, 2}


# The unknown record of each whole-JSON sample and the line where it starts.
DOCUMENT_PROBLEMS = {
    "gemini": ("message: unknown message type wormhole", 25),
    "anthropic": ("message block: unknown block type sparkle", 18),
    "openai-chat": ("message: unknown message role", 16),
    "openai-responses": ("item: unknown item type hyperdrive", 13),
    "otel": ("execute_tool span: no `gen_ai.tool.name`", 10),
}


@pytest.mark.parametrize("format", sorted(DOCUMENT_PROBLEMS))
def test_a_problem_inside_a_document_names_the_line_its_record_starts_on(format: str) -> None:
    what, line = DOCUMENT_PROBLEMS[format]
    reported = [entry.format() for entry in entries(format) if isinstance(entry, TranscriptProblem)]
    assert f"{SAMPLES / FILES[format]}:{line}: {what}" in reported
