"""Sessions recorded by older versions of the agents call their tools with the input names
those versions documented. Imported, they pass ``workbench check`` and the audit, and the
surfaces read either name; a call with neither the new nor an old name still fails."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from rich.console import Console

from workbench.cli import main
from workbench.core.call_state import CallState, Phase
from workbench.core.result import ToolResult
from workbench.surfaces.context import SurfaceContext
from workbench.tools.agent_packages import agent_packages

SOURCE = "\n".join(f"line {number}" for number in range(11, 14))
# gemini-cli's replace and Claude Code's Edit both counted replacements before replace_all.
COUNTED_EDIT = {"file_path": "/home/dev/app/a.py", "old_string": "x = 1", "new_string": "x = 2",
                "expected_replacements": 1}  # fmt: skip

OLDER_CALLS: list[tuple[str, str, dict[str, Any], str]] = [
    # gemini-cli before file_path: absolute_path, and a 0-based offset with a limit.
    ("gemini-cli", "read_file", {"absolute_path": "/home/dev/app/a.py", "offset": 10, "limit": 3},
     SOURCE),
    # gemini-cli's first read_file: path.
    ("gemini-cli", "read_file", {"path": "/home/dev/app/b.py"}, SOURCE),
    ("gemini-cli", "list_directory", {"path": "/home/dev/app", "respect_git_ignore": True},
     "Directory listing for /home/dev/app:\n[DIR] src\nREADME.md"),
    ("gemini-cli", "glob", {"pattern": "**/*.py", "path": "/home/dev/app"},
     "Found 1 file(s) matching \"**/*.py\":\n/home/dev/app/a.py"),
    ("gemini-cli", "search_file_content", {"pattern": "TODO", "path": "src", "include": "*.py"},
     "Found 1 match for pattern \"TODO\":\n---\nFile: src/a.py\nL3: # TODO: tidy\n---"),
    ("gemini-cli", "read_many_files", {"paths": ["docs/*.md"], "exclude": ["docs/old.md"]},
     "--- docs/intro.md ---\nHello\n"),
    ("gemini-cli", "run_shell_command", {"command": "ls", "directory": "src"},
     "Command: ls\nDirectory: src\nStdout: a.py\nExit Code: 0"),
    ("gemini-cli", "replace", COUNTED_EDIT,
     "Successfully modified file: /home/dev/app/a.py (1 replacements)."),
    ("claude-code", "TodoWrite",
     {"todos": [{"content": "Write the test", "status": "in_progress", "priority": "high",
                 "id": "1"},
                {"content": "Fix the bug", "status": "pending", "priority": "medium",
                 "id": "2"}]},
     "Todos have been modified successfully."),
    ("claude-code", "Task", {"description": "Find the config", "prompt": "Where is it read?"},
     "It is read in src/config.py."),
    ("claude-code", "Edit", COUNTED_EDIT,
     "The file /home/dev/app/a.py has been updated."),
    ("codex", "shell",
     {"command": ["bash", "-lc", "ls"], "workdir": "/home/dev/app", "timeout": 10000,
      "with_escalated_permissions": False},
     "a.py\nREADME.md"),
]  # fmt: skip


def _write(root: Path, calls: list[tuple[str, str, dict[str, Any], str]]) -> None:
    documents: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for index, (tool, api, args, content) in enumerate(calls):
        documents.setdefault((tool, api), []).append(
            {
                "id": f"older-{index}",
                "label": "A call of an older version, as its session recorded it",
                "kind": "typical",
                "args": args,
                "result": {"success": True, "content": content},
            }
        )
    for (tool, api), variants in documents.items():
        folder = root / tool
        folder.mkdir(parents=True, exist_ok=True)
        document = {"tool": tool, "api": api, "variants": variants}
        (folder / f"{api}.yaml").write_text(yaml.safe_dump(document), encoding="utf-8")


def test_older_versions_calls_pass_check_and_audit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "fixtures"
    _write(root, OLDER_CALLS)
    monkeypatch.chdir(tmp_path)
    checked = CliRunner().invoke(main, ["check", str(root)])
    assert checked.exit_code == 0, checked.output
    audited = CliRunner().invoke(main, ["audit", str(root)])
    assert audited.exit_code == 0, audited.output
    assert "on agents' own tools" not in audited.output, audited.output


@pytest.mark.parametrize(
    ("tool", "api", "args"),
    [
        ("gemini-cli", "read_file", {"offset": 10, "limit": 3}),
        ("gemini-cli", "list_directory", {"ignore": ["*.log"]}),
        ("gemini-cli", "read_many_files", {"exclude": ["*.md"]}),
        ("claude-code", "TodoWrite", {"todos": [{"content": "Fix it", "status": "pending"}]}),
    ],
)
def test_a_call_with_neither_name_still_fails_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tool: str, api: str, args: dict[str, Any]
) -> None:
    root = tmp_path / "fixtures"
    _write(root, [(tool, api, args, "done")])
    monkeypatch.chdir(tmp_path)
    checked = CliRunner().invoke(main, ["check", str(root)])
    assert checked.exit_code == 1, checked.output
    assert f"{api}.yaml" in checked.output


def _drawn(tool: str, api: str, args: dict[str, Any], content: str, phase: Phase) -> str:
    package = next(package for package in agent_packages() if package.identifier == tool)
    result = ToolResult(success=True, content=content) if phase is Phase.DONE else None
    state = CallState(tool=tool, api=api, args=args, phase=phase, result=result)
    ctx = SurfaceContext(state=state, manifest=package.manifest, width=100)
    console = Console(width=100, record=True, color_system=None, file=io.StringIO())
    console.print(package.surfaces.inspectors[api](ctx))
    render = package.surfaces.renders[api](ctx)
    if render is not None:
        console.print(render)
    return console.export_text()


def test_the_surfaces_read_the_older_names() -> None:
    # A 0-based offset of 10 is the file's line 11.
    read = _drawn("gemini-cli", "read_file", OLDER_CALLS[0][2], SOURCE, Phase.DONE)
    assert "/home/dev/app/a.py" in read and "(lines 11-13)" in read
    assert "11 line 11" in " ".join(read.split())
    listing = _drawn("gemini-cli", "list_directory", OLDER_CALLS[2][2], "", Phase.EXECUTING)
    assert "/home/dev/app" in listing
    many = _drawn("gemini-cli", "read_many_files", OLDER_CALLS[5][2], "", Phase.EXECUTING)
    assert "docs/*.md" in many
    todos = _drawn("claude-code", "TodoWrite", OLDER_CALLS[8][2], "ok", Phase.DONE)
    assert "Write the test" in todos and "Fix the bug" in todos
