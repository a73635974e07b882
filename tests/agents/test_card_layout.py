"""A read's Placeholder cannot know how long the file is, nor a Task's how many calls its
subagent will make, nor a search's how many results will come: whatever came back, short or
long, the card must not jump when the result replaces it (``workbench audit`` rule 8)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from workbench.cli import main


def _lines(count: int) -> str:
    return "\n".join(f"value_{number} = {number}" for number in range(1, count + 1))


def _typical(identifier: str, content: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": f"{identifier}-{content.count(chr(10)) + 1}",
        "label": "A read as an imported session gives it",
        "kind": "typical",
        "result": {"success": True, "content": content, **extra},
    }


def _write(root: Path, tool: str, api: str, variants: list[dict[str, Any]]) -> None:
    folder = root / tool
    folder.mkdir(parents=True, exist_ok=True)
    document = {"tool": tool, "api": api, "variants": variants}
    (folder / f"{api}.yaml").write_text(yaml.safe_dump(document), encoding="utf-8")


@pytest.mark.parametrize("length", [1, 2, 5, 40])
def test_a_read_of_any_length_keeps_the_cards_layout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, length: int
) -> None:
    """gemini-cli's read_file and Claude Code's Read of a whole file (no line range in the
    args), a short one as in the gemini sample and a long one; read_many_files; a Task with
    as many calls and report lines; a web search or fetch with that many lines or results."""
    root = tmp_path / "fixtures"
    content = _lines(length)
    gemini = _typical("gemini", content)
    gemini["args"] = {"file_path": "/home/dev/app/settings.py"}
    _write(root, "gemini-cli", "read_file", [gemini])
    numbered = "\n".join(f"{n:>6}→{line}" for n, line in enumerate(content.split("\n"), 1))
    claude = _typical("claude", numbered)
    claude["args"] = {"file_path": "/home/dev/app/settings.py"}
    claude["result"]["state"] = {
        "type": "text",
        "file": {"content": content, "numLines": length, "startLine": 1, "totalLines": length},
    }
    _write(root, "claude-code", "Read", [claude])
    files = [f"src/module_{number}.py" for number in range(length)]
    # gemini-cli ends the model's text with a last separator and gives its user the list.
    read = "\n".join(f"--- {name} ---\n{_lines(2)}" for name in files)
    many = _typical("many", f"{read}\n--- End of content ---")
    many["result"]["state"] = {"resultDisplay": {"summary": "Read the files", "files": files}}
    many["args"] = {"include": ["src/**/*.py"]}
    _write(root, "gemini-cli", "read_many_files", [many])
    task = _typical("task", content)
    task["args"] = {"description": "Find the settings", "prompt": "Where?", "subagent_type": "x"}
    # One call fewer than lines: the shortest is a subagent that answered without a call.
    calls = [{"name": "Read", "input": {"file_path": name}} for name in files[1:]]
    task["result"]["state"] = {"calls": calls, "totalToolUseCount": len(calls)}
    _write(root, "claude-code", "Task", [task])
    # The web: an answer of that many lines, a page's text, that many results.
    answer = _typical("answer", content)
    answer["args"] = {"query": "tomllib write toml"}
    _write(root, "gemini-cli", "google_web_search", [answer])
    page = _typical("page", content)
    page["args"] = {"url": "https://docs.python.org/3/library/tomllib.html", "prompt": "Writes?"}
    _write(root, "claude-code", "WebFetch", [page])
    links = [{"title": f"Result {n}", "url": f"https://example.com/{n}"} for n in range(length)]
    found = _typical("found", f"Web search results: {length} links")
    found["args"] = {"query": "tomllib write toml"}
    found["result"]["state"] = {"results": [{"tool_use_id": "srvtoolu_1", "content": links}]}
    _write(root, "claude-code", "WebSearch", [found])
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["audit", str(root)])
    assert result.exit_code == 0, result.output
    findings = [line for line in result.output.splitlines() if "rule " in line]
    assert not findings, result.output


def test_read_many_files_counts_the_files_its_content_names_not_its_last_separator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "fixtures"
    content = "--- a.md ---\nA\n--- b.md ---\nB\n\n--- End of content ---"
    _write(root, "gemini-cli", "read_many_files", [_typical("plain", content)])
    monkeypatch.chdir(tmp_path)
    shown = CliRunner().invoke(main, ["show", "fixtures/gemini-cli/read_many_files.yaml#plain-6"])
    assert shown.exit_code == 0, shown.output
    assert "2 files read" in shown.output and "End of content" not in shown.output
