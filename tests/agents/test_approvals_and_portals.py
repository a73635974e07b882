"""The agents' own Interventions (what the user was asked to approve, as the agent's prompt
shows it) and Portals (the full view of a call): every API passes the audit with them, and
they show the exact command, the diff, the URL, the plan, the questions, the whole output."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from workbench.cli import main
from workbench.core.schema import sample_args
from workbench.tools.agent_packages import agent_packages

DENIED = "The user doesn't want to proceed with this tool use."


def _denied(variant_id: str, args: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": variant_id,
        "label": "A call its user denied",
        "kind": "denied",
        "args": args,
        "result": {
            "success": False,
            "content": DENIED,
            "error": {"type": "SkippedByUser", "message": DENIED},
        },
        "outcome": "skipped",
    }


def _done(variant_id: str, args: dict[str, Any], content: str, **state: Any) -> dict[str, Any]:
    result: dict[str, Any] = {"success": True, "content": content}
    if state:
        result["state"] = state
    return {"id": variant_id, "label": "A call that worked", "kind": "typical", "args": args,
            "result": result}  # fmt: skip


def _write(root: Path, tool: str, api: str, variants: list[dict[str, Any]]) -> Path:
    folder = root / tool
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{api}.yaml"
    document = {"tool": tool, "api": api, "variants": variants}
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    return path


def _show(path: Path, variant: str, *options: str) -> str:
    result = CliRunner().invoke(main, ["show", f"{path}#{variant}", *options])
    assert result.exit_code == 0, result.output
    return result.output


def _words(text: str) -> str:
    """The drawing's words in order, without the card's borders and line breaks."""
    rows = [line.strip().strip("│").strip() for line in text.splitlines()]
    return " ".join(" ".join(rows).split())


def test_every_api_denied_and_done_passes_the_audit_with_its_own_surfaces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "fixtures"
    for package in agent_packages():
        for api in package.manifest.api:
            args = sample_args(api.parameters)
            _write(root, package.identifier, api.name, [
                _denied("denied", args), _done("done", args, "Done: two lines\nof the result"),
            ])  # fmt: skip
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["audit", str(root)])
    assert result.exit_code == 0, result.output
    assert "on agents' own tools" not in result.output, result.output


COMMAND = (
    "pytest -q tests/test_parser.py::test_nested_lists_are_flattened_in_order "
    "--maxfail=1 --no-header"
)


def test_a_denied_command_shows_the_whole_command_its_purpose_and_folder(tmp_path: Path) -> None:
    args = {"command": COMMAND, "description": "Run the parser's failing test"}
    path = _write(tmp_path, "claude-code", "Bash", [_denied("bash", args)])
    drawn = _words(_show(path, "bash", "--phase", "awaiting-approval", "--width", "60"))
    # The command wraps at 60 columns (a long word folds) but is never cut: it is what the
    # user approves.
    assert "".join(f"$ {COMMAND}".split()) in "".join(drawn.split()), drawn
    assert "Run the parser's failing test" in drawn and "Run this command?" in drawn
    codex = {
        "command": ["bash", "-lc", "make test"],
        "workdir": "/home/dev/app",
        "sandbox_permissions": "require_escalated",
        "justification": "It needs the network",
    }
    path = _write(tmp_path, "codex", "shell", [_denied("shell", codex)])
    drawn = _words(_show(path, "shell", "--phase", "awaiting-approval"))
    assert "$ make test" in drawn and "runs in /home/dev/app" in drawn
    assert "It needs the network" in drawn and "sandbox runs outside it" in drawn


def test_a_denied_edit_write_fetch_plan_and_question_show_what_was_asked(tmp_path: Path) -> None:
    edit = {"file_path": "src/parser.py", "old_string": "depth = 0", "new_string": "depth = 1"}
    path = _write(tmp_path, "claude-code", "Edit", [_denied("edit", edit)])
    drawn = _show(path, "edit", "--phase", "awaiting-approval")
    assert "-depth = 0" in drawn and "+depth = 1" in drawn and "Make this edit?" in drawn
    write = {"file_path": "notes.md", "content": "# Notes\nfirst\nsecond"}
    path = _write(tmp_path, "gemini-cli", "write_file", [_denied("write", write)])
    drawn = _show(path, "write", "--phase", "awaiting-approval")
    assert "notes.md · 3 lines" in drawn and "second" in drawn
    fetch = {"prompt": "Summarise https://example.com/a and https://example.com/b please"}
    path = _write(tmp_path, "gemini-cli", "web_fetch", [_denied("fetch", fetch)])
    drawn = _show(path, "fetch", "--phase", "awaiting-approval")
    assert "→ https://example.com/a" in drawn and "→ https://example.com/b" in drawn
    plan = {"plan": "## Plan\n1. Write the failing test\n2. Fix the loop"}
    path = _write(tmp_path, "claude-code", "ExitPlanMode", [_denied("plan", plan)])
    drawn = _show(path, "plan", "--phase", "awaiting-approval")
    assert "2. Fix the loop" in drawn and "carry out this plan?" in drawn
    ask = {"questions": [{"question": "Which parser?", "header": "Parser", "multiSelect": False,
           "options": [{"label": "Fast", "description": "C extension"},
                       {"label": "Pure", "description": "Python only"}]}]}  # fmt: skip
    path = _write(tmp_path, "claude-code", "AskUserQuestion", [_denied("ask", ask)])
    drawn = _show(path, "ask", "--phase", "awaiting-approval")
    assert "[Parser] Which parser?" in drawn
    assert "1. Fast — C extension" in drawn and "2. Pure — Python only" in drawn


def test_the_portal_shows_what_the_card_cuts(tmp_path: Path) -> None:
    output = "\n".join(f"test {number} ok" for number in range(1, 501))
    path = _write(tmp_path, "claude-code", "Bash", [_done("bash", {"command": "make"}, output)])
    card = _show(path, "bash")
    portal = _show(path, "bash", "--surface", "portal")
    assert "test 300 ok" not in card and "test 300 ok" in portal
    assert "showing 400 of 500 lines" in portal
    source = "\n".join(f"value_{number} = {number}" for number in range(20, 40))
    read = {"file_path": "/home/dev/app/settings.py", "offset": 20, "limit": 20}
    path = _write(tmp_path, "claude-code", "Read", [_done("read", read, source)])
    portal = _words(_show(path, "read", "--surface", "portal"))
    assert "20 value_20 = 20" in portal and "39 value_39 = 39" in portal
    calls = [{"name": "Grep", "input": {"pattern": f"name_{number}"}} for number in range(6)]
    task = {"description": "Find callers", "prompt": "Where is parse called?"}
    path = _write(tmp_path, "claude-code", "Task", [
        _done("task", task, "In three places.", calls=calls, totalToolUseCount=6),
    ])  # fmt: skip
    card = _show(path, "task")
    portal = _show(path, "task", "--surface", "portal")
    assert "name_5" not in card and "name_5" in portal and "6 calls the subagent made" in portal
    todos = {"todos": [{"content": f"Step {n}", "status": "pending", "activeForm": f"Doing {n}"}
                       for n in range(14)]}  # fmt: skip
    path = _write(tmp_path, "claude-code", "TodoWrite", [_done("todo", todos, "ok")])
    assert "Step 13" not in _show(path, "todo") and "Step 13" in _show(
        path, "todo", "--surface", "portal"
    )


APPROVALS = Path(__file__).parent / "approvals"


def test_the_interventions_look_as_committed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A denied call of each kind, at its approval step, against the snapshots under
    ``tests/agents/approvals/snapshots`` (``workbench snapshot --update -k awaiting-approval``
    there rewrites them)."""
    monkeypatch.chdir(APPROVALS)
    result = CliRunner().invoke(main, ["snapshot", "-k", "awaiting-approval", "--no-cache"])
    assert result.exit_code == 0, result.output
    assert "0 failed, 0 new" in result.output, result.output


def test_codex_web_search_does_not_claim_nothing_was_found(tmp_path: Path) -> None:
    """A Codex rollout records a web search's query, never its results: the card says so
    instead of "no results" (a claude-code search that found nothing still says that)."""
    args = {"query": "rust Vec with_capacity"}
    path = _write(tmp_path, "codex", "web_search", [_done("search", args, "")])
    drawn = _words(_show(path, "search"))
    assert "keeps the query only" in drawn and "no results" not in drawn.lower()
    path = _write(tmp_path, "claude-code", "WebSearch", [_done("search", args, "")])
    assert "No results for rust Vec with_capacity" in _words(_show(path, "search"))


def test_a_long_path_keeps_its_file_name_and_the_counts_after_it(tmp_path: Path) -> None:
    """At 60 columns a deep path gives up part of its folder, never the file's name or the
    line count after it."""
    deep = "/home/user/project/docs/notes/archive/2026/release-checklist.md"
    write = {"file_path": deep, "content": "# Release\n- tag\n- publish"}
    path = _write(tmp_path, "claude-code", "Write", [_done("write", write, "File created.")])
    drawn = _show(path, "write", "--width", "60")
    assert "release-checklist.md written · 3 lines" in drawn, drawn
    source = "\n".join(f"line {number}" for number in range(30))
    read = {"file_path": deep.replace(".md", ".py")}
    path = _write(tmp_path, "gemini-cli", "read_file", [_done("read", read, source)])
    assert "release-checklist.py · 30 lines" in _show(path, "read", "--width", "60")


def test_an_image_view_does_not_say_the_model_got_nothing(tmp_path: Path) -> None:
    args = {"path": "/home/dev/app/docs/dashboard.png"}
    path = _write(tmp_path, "codex", "view_image", [_done("image", args, "")])
    drawn = _words(_show(path, "image"))
    assert "the image itself went to the model" in drawn
    assert "the model was given no text back" not in drawn


def test_the_portal_and_approvals_cap_prompts_scripts_urls_and_questions(tmp_path: Path) -> None:
    """A subagent's prompt, a script, a fetch's URLs and a question list can run to thousands
    of lines: each is cut with "showing N of M", never drawn whole."""
    prompt = "\n".join(f"step {number}" for number in range(1, 1001))
    task = {"description": "Refactor", "prompt": prompt}
    path = _write(tmp_path, "claude-code", "Task", [_done("task", task, "Done.")])
    portal = _show(path, "task", "--surface", "portal")
    assert "step 400" in portal and "step 401" not in portal
    assert "showing 400 of 1,000 lines" in portal
    script = "\n".join(f"echo {number}" for number in range(1, 601))
    path = _write(tmp_path, "claude-code", "Bash", [_done("bash", {"command": script}, "")])
    portal = _show(path, "bash", "--surface", "portal")
    assert "echo 400" in portal and "echo 401" not in portal and "of 600 lines" in portal
    urls = " ".join(f"https://example.com/{number}" for number in range(30))
    path = _write(tmp_path, "gemini-cli", "web_fetch", [_denied("fetch", {"prompt": urls})])
    asked = _show(path, "fetch", "--phase", "awaiting-approval", "--width", "120")
    assert "example.com/11 " in asked and "example.com/12 " not in asked.split("asks:")[0]
    assert "showing 12 of 30 URLs" in asked
    questions = [
        {"question": f"Question {n}?", "header": "Q",
         "options": [{"label": f"answer {n}.{m}"} for m in range(20)]}
        for n in range(10)
    ]  # fmt: skip
    path = _write(tmp_path, "claude-code", "AskUserQuestion", [
        _denied("ask", {"questions": questions}),
    ])  # fmt: skip
    asked = _show(path, "ask", "--phase", "awaiting-approval", "--width", "120")
    assert "answer 0.11" in asked and "answer 0.12" not in asked
    assert "showing 12 of 20 answers" in asked and "showing 8 of 10 questions" in asked
    assert "Question 8?" not in asked


def test_text_in_muted_rows_is_cleaned() -> None:
    """Paths and the model's words put in muted rows go through the sanitizer: a bidi
    override (which Rich itself lets through) becomes a visible mark."""
    from types import SimpleNamespace

    from workbench.agents.surfaces.common import muted

    ctx: Any = SimpleNamespace(palette=SimpleNamespace(muted="grey50"))
    row = muted(ctx, "∅ /tmp/a\u202etxt.exe is empty")
    assert "\u202e" not in row.plain and "txt.exe is empty" in row.plain


def test_a_codex_web_search_portal_does_not_claim_nothing_was_found(tmp_path: Path) -> None:
    args = {"query": "rust Vec with_capacity"}
    path = _write(tmp_path, "codex", "web_search", [_done("search", args, "")])
    drawn = _words(_show(path, "search", "--surface", "portal"))
    assert "keeps the query only" in drawn and "no results" not in drawn.lower()


def test_a_task_portal_keeps_the_cards_guards_on_its_call_rows(tmp_path: Path) -> None:
    """A subagent recorded with only its count of calls, or fewer calls than its count: the
    Portal draws its rows as the card does, never "showing 0 of N" nor a "└" before a note."""
    task = {"description": "Find callers", "prompt": "Where is parse called?"}
    calls = [{"name": "Grep", "input": {"pattern": "parse"}}, {"name": "Read", "input": {}}]
    path = _write(tmp_path, "claude-code", "Task", [
        _done("counted", task, "In three places.", totalToolUseCount=4),
        _done("some", task, "In three places.", calls=calls, totalToolUseCount=5),
    ])  # fmt: skip
    for surface in ("card", "portal"):
        counted = _show(path, "counted", "--surface", surface)
        assert "4 calls" in counted and "showing 0" not in counted, counted
        some = _show(path, "some", "--surface", surface)
        assert "├ ✓ Grep parse" in some and "├ ✓ Read" in some, some
        assert "└" not in some and "showing 2 of 5 calls" in some, some


def test_a_search_portal_says_the_tools_own_total_as_the_card_does(tmp_path: Path) -> None:
    """A Glob cut at its limit lists fewer files than it counted: the Portal says the count
    the card says, in the card's unit, not the number of rows it was given."""
    names = [f"/home/dev/app/src/module_{number}.py" for number in range(3)]
    glob = {"pattern": "src/**/*.py", "path": "/home/dev/app"}
    path = _write(tmp_path, "claude-code", "Glob", [
        _done("cut", glob, "\n".join(names), filenames=names, numFiles=250, truncated=True),
    ])  # fmt: skip
    card = _words(_show(path, "cut"))
    portal = _words(_show(path, "cut", "--surface", "portal"))
    assert "250 files" in card and "showing 3 of 250 files" in card, card
    assert "module_2.py" in portal and "showing 3 of 250 files" in portal, portal


def test_a_fetch_approval_lists_the_urls_its_inspector_names(tmp_path: Path) -> None:
    """gemini-cli fetches the words of its prompt that are URLs: the approval lists those and
    the Inspector names the first, never a URL cut out of a word the agent would not fetch."""
    fetch = {"prompt": "Compare (https://example.com/a) with https://example.com/b today"}
    path = _write(tmp_path, "gemini-cli", "web_fetch", [_denied("fetch", fetch)])
    asked = _show(path, "fetch", "--phase", "awaiting-approval", "--width", "120")
    assert "Awaiting approval: https://example.com/b" in asked, asked
    listed = [line.strip("│ ") for line in asked.splitlines() if "→" in line]
    assert listed == ["→ https://example.com/b"], asked
