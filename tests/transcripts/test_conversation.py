"""The conversation model: rows read a page at a time, subagents nested, the call filter."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from workbench.transcripts.conversation import (
    CallQuery,
    CallRow,
    Conversation,
    MessageRow,
    ProblemRow,
    TurnRow,
    runs_past,
)

SAMPLES = Path(__file__).resolve().parent / "samples"


def write_session(path: Path, calls: int) -> Path:
    import json

    with path.open("w") as stream:
        for index in range(calls):
            if index % 10 == 0:
                stream.write(json.dumps({"type": "user", "message": {"content": f"s{index}"}}))
                stream.write("\n")
            use = {"type": "tool_use", "id": f"t{index}", "name": "Bash", "input": {"c": "x"}}
            result = {"type": "tool_result", "tool_use_id": f"t{index}", "content": "ok"}
            for role, item in (("assistant", use), ("user", result)):
                record = {"type": role, "message": {"role": role, "content": [item]}}
                stream.write(json.dumps(record) + "\n")
    return path


def test_rows_are_read_a_page_at_a_time(tmp_path: Path) -> None:
    conversation = Conversation(write_session(tmp_path / "s.jsonl", 1_000))
    first = conversation.load(50)
    assert 50 <= len(first) < 100  # Whole turns, a little past the page.
    assert not conversation.done
    assert [row.number for row in conversation.calls][:3] == [1, 2, 3]
    conversation.load_all()
    assert conversation.done
    assert len(conversation.calls) == 1_000
    assert [row.number for row in conversation.calls] == list(range(1, 1_001))


def test_a_turn_lists_prompt_words_calls_and_problems_with_subagents_nested() -> None:
    conversation = Conversation(SAMPLES / "claude-code.jsonl")
    rows = conversation.load_all()
    assert isinstance(rows[0], TurnRow) and rows[0].prompt is not None
    kinds = [type(row).__name__ for row in rows]
    assert kinds.count("ProblemRow") == 2 and isinstance(rows[-1], ProblemRow)
    thinking = [
        row for row in rows if isinstance(row, MessageRow) and row.message.role == "thinking"
    ]
    assert len(thinking) == 1
    nested = [(row.call.id, row.depth) for row in rows if isinstance(row, CallRow) and row.depth]
    assert nested == [("toolu_sub_bash", 1)]
    task = next(
        i for i, row in enumerate(rows) if isinstance(row, CallRow) and row.call.id == "toolu_task"
    )
    # The subagent's prompt, then its call, right under the Task.
    assert isinstance(rows[task + 1], MessageRow) and rows[task + 1].depth == 1
    assert isinstance(rows[task + 2], CallRow) and rows[task + 2].call.id == "toolu_sub_bash"


def test_shown_text_is_redacted() -> None:
    conversation = Conversation(SAMPLES / "claude-code.jsonl")
    conversation.load_all()
    bash = conversation.calls[0]
    assert "sk-proj" not in bash.variant().model_dump_json()
    assert "[redacted]" in bash.variant().args["command"]


def test_mcp_calls_are_named_by_server_and_drawn_by_its_tool() -> None:
    conversation = Conversation(SAMPLES / "claude-code.jsonl")
    conversation.load_all()
    mcp = next(row for row in conversation.calls if row.call.id == "toolu_mcp_issues")
    assert mcp.name == "github.list_issues"
    assert (mcp.target.tool, mcp.target.api) == ("github", "list_issues")


def test_the_filter() -> None:
    conversation = Conversation(SAMPLES / "claude-code.jsonl")
    conversation.load_all()

    def ids(text: str) -> list[str]:
        query = CallQuery.parse(text)
        return [row.call.id for row in conversation.calls if query.matches(row)]

    assert ids("error") == ["toolu_read_err"]
    assert ids("tool:grep") == ["toolu_grep_empty"]
    assert ids("tool:bash compiler") == ["toolu_sub_bash"]
    assert ids("TOOL:BASH make") == ["toolu_bash_ok", "toolu_bash_long"]
    assert ids("nothing-like-this") == []
    assert len(ids("")) == len(conversation.calls)
    assert CallQuery.parse("  ").empty


@given(st.text(max_size=60))
def test_any_filter_text_parses_and_matches_without_raising(text: str) -> None:
    query = CallQuery.parse(text)
    conversation = Conversation(SAMPLES / "codex.jsonl")
    for row in conversation.load_all():
        if isinstance(row, CallRow):
            assert query.matches(row) in (True, False)


def test_a_call_runs_past_the_next_by_the_recorded_times_else_by_nesting() -> None:
    calls = {
        row.call.id: row
        for row in Conversation(SAMPLES / "claude-code.jsonl").load_all()
        if isinstance(row, CallRow)
    }
    task, sub, after = calls["toolu_task"], calls["toolu_sub_bash"], calls["toolu_bash_long"]
    assert runs_past(task, sub)  # The subagent's Bash started before the Task ended.
    assert not runs_past(task, after)
    assert not runs_past(sub, after)
    for row in (task, sub, after):  # A format that records no times: the nesting says.
        row.call.started = row.call.ended = None
    assert runs_past(task, sub)
    assert not runs_past(task, after)
