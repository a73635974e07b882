"""Record the reference tools' fixtures from real calls.

    python scripts/record_reference.py [--out fixtures] [--only local-system/runCommand]

Every variant is a real call of the bundled runtime — in a freshly built sample workspace,
with a fresh task database — recorded through the same live-call path the TUI uses, then
written into ``fixtures/<tool>/<api>.yaml``. Hand-kept files (the calculator's) are left alone.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.config import bundled_fixtures_dir
from workbench.core import events as ev
from workbench.core.call_record import CallRecord
from workbench.core.runtime import RuntimeServices
from workbench.fixtures.models import FixtureFile
from workbench.fixtures.recorder import dump_fixture, variant_from_events
from workbench.policy.engine import PolicyContext, check_approval
from workbench.policy.verdict import ApprovalDecision
from workbench.sources.call_runner import LiveCall
from workbench.sources.python_source import PythonToolSource
from workbench.tools import bundled_packages


@dataclass
class Spec:
    tool: str
    api: str
    variant_id: str
    label: str
    kind: str
    args: dict[str, Any]
    setup: Callable[[Path], None] | None = None
    settings: dict[str, str] = field(default_factory=dict)
    decision: str = "approve"
    timeout_ms: int = 60_000
    description: str = ""
    cancel_after_ms: int | None = None
    """Cancel the call this long after it started (the user pressing escape)."""
    mode: str = "manual"
    """The approval mode; ``headless`` turns a needed approval into a blocked call."""


WAIVERS: dict[tuple[str, str], list[dict[str, str]]] = {
    ("task", "createTask"): [
        {
            "kind": "empty",
            "reason": "creating a task yields the new task or an error, never nothing",
        }
    ],
    ("task", "createTasks"): [
        {
            "kind": "empty",
            "reason": "the schema requires at least one task, so a batch is never empty",
        }
    ],
    ("task", "updateTaskStatus"): [
        {"kind": "empty", "reason": "a status change always reports the task's old and new status"},
        {
            "kind": "truncated",
            "reason": "the result is one task's status change; there is nothing long to cut",
        },
    ],
}


# --- the sample workspace ---------------------------------------------------------------------

APP_PY = '''"""A tiny app used by the workbench fixtures."""

import os
import sys


def greet(name: str) -> str:
    # TODO: localise the greeting
    return f"Hello, {name}!"


def main() -> int:
    name = os.environ.get("USER", "world")
    print(greet(name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''

UTIL_PY = '''def chunks(items, size):
    """Yield lists of at most size items."""
    # TODO: accept any iterable, not just sequences
    for start in range(0, len(items), size):
        yield items[start : start + size]
'''


NOTES_ZH = """# 发布说明 🚀 Release notes

## 新功能 ✨
- 支持 asyncio 任务取消 ⏹️ (cancellation)
- 搜索结果显示中文、日本語、한국어 标题 🌏
- 表情符号宽度正确：👍 🐍 🎉 ✅

## 修复 🐛
- 修复超时后进度条不消失的问题 ⏱️
- 日本語のファイル名（設定.toml）を正しく表示 📁

## 致谢 🙏
感谢所有贡献者！
"""  # noqa: RUF001 - full-width punctuation is the point of this file


def build_workspace(root: Path) -> None:
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text(APP_PY)
    (root / "src" / "util.py").write_text(UTIL_PY)
    (root / "tests").mkdir()
    (root / "tests" / "test_app.py").write_text(
        "from src.app import greet\n\n\ndef test_greet():\n    assert greet('Ada') "
        "== 'Hello, Ada!'\n"
    )
    (root / "README.md").write_text(
        "# sample\n\nA sample project for the workbench fixtures.\n\n## TODO\n\n- write docs\n"
    )
    (root / "docs").mkdir()
    (root / "docs" / "guide.md").write_text("# Guide\n\nRun `python src/app.py`.\n")
    (root / "docs" / "notes-zh.md").write_text(NOTES_ZH, encoding="utf-8")
    (root / "empty-dir").mkdir()
    (root / "empty.txt").write_text("")
    (root / "data").mkdir()
    rows = ["id,name,score,line"] + [
        f"{index},item-{index},{(index * 37) % 100},line {index}" for index in range(1, 3201)
    ]
    (root / "data" / "big.csv").write_text("\n".join(rows) + "\n")
    (root / "assets").mkdir()
    (root / "assets" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64))
    generated = root / "generated"
    generated.mkdir()
    for index in range(1, 721):
        (generated / f"report-{index:04d}.txt").write_text(f"report {index}\n")
    skills = root / "skills"
    (skills / "empty-skill").mkdir(parents=True)
    (skills / "empty-skill" / "SKILL.md").write_text(
        "---\nname: empty-skill\ndescription: A skill whose instructions were never written.\n---\n"
    )
    (skills / "empty-skill" / "notes.md").write_text("")
    huge = skills / "style-guide"
    (huge / "references").mkdir(parents=True)
    rules = "\n".join(
        f"{index}. Rule {index}: prefer clear names, short functions and comments "
        f"that say why; example {index} shows the before and after."
        for index in range(1, 601)
    )
    (huge / "SKILL.md").write_text(
        "---\nname: style-guide\ndescription: The house style guide, every "
        f"rule of it.\n---\n# Style guide\n\n{rules}\n"
    )
    (huge / "references" / "glossary.md").write_text(
        "\n".join(
            f"- term {index}: the definition of term {index}, with an example "
            "sentence that uses it."
            for index in range(1, 2001)
        )
        + "\n"
    )


def edit_target(root: Path) -> None:
    (root / "src" / "config.py").write_text(
        "DEBUG = False\nLEVEL = 'info'\n"
        + "".join(f"OPTION_{index} = 'old'\n" for index in range(1, 401))
    )


def seed_tasks(count: int) -> Callable[[Path], None]:
    def seed(root: Path) -> None:
        from workbench.tools.task.store import TaskStore

        store = TaskStore(root / ".workbench" / "tasks.db")
        statuses = ["todo", "running", "completed", "failed", "paused"]
        names = [
            "Write the parser",
            "Add tests for the parser",
            "Wire the CLI",
            "Document the flags",
            "Release 0.2",
        ]
        for index in range(count):
            task = store.create(
                names[index % len(names)] + ("" if index < len(names) else f" ({index + 1})"),
                f"Instruction for task {index + 1}.",
                priority=index % 5,
                command="echo building && echo done" if index == 0 else None,
            )
            if statuses[index % len(statuses)] != "todo":
                store.set_status(task.identifier, statuses[index % len(statuses)])
        store.close()

    return seed


def seed_runnable(root: Path) -> None:
    from workbench.tools.task.store import TaskStore

    store = TaskStore(root / ".workbench" / "tasks.db")
    store.create(
        "Build the site",
        "Build the static site.",
        priority=2,
        command='for step in fetch render minify write; do echo "[build] $step"; '
        "sleep 0.25; done; echo 'built 42 pages'",
    )
    store.create(
        "Publish",
        "Publish after building.",
        priority=2,
        command="echo publishing",
        depends_on=["TASK-1"],
    )
    store.create(
        "Lint", "Run the linter.", command="echo 'src/app.py:7: line too long' >&2; exit 1"
    )
    store.create("Write the changelog", "No command: done by hand.")
    store.create("Load test", "Replay the access log.", command="seq 1 6000 | sed 's/^/request /'")
    store.close()


# --- the variants -------------------------------------------------------------------------------

HOSTILE_COMMAND = (
    "printf '\\033[1;32mPASS\\033[0m tests/test_app.py\\n'; printf 'title\\033]0;pwned\\007 "
    "and clipboard\\033]52;c;cGF5bG9hZA==\\007 gone\\n'; printf '[bold]not "
    "markup[/] [@click=app.quit]quit[/]\\n'"
)

SPECS: list[Spec] = [
    # web-browsing
    Spec(
        "web-browsing",
        "search",
        "asyncio-tutorials",
        "Search with a handful of results",
        "typical",
        {"query": "asyncio tutorial"},
    ),
    Spec(
        "web-browsing",
        "search",
        "cjk-and-emoji",
        "Results in Chinese and Japanese with emoji in the titles (wide characters)",
        "wide-text",
        {"query": "asyncio 教程"},
    ),
    Spec(
        "web-browsing",
        "search",
        "no-results",
        "Nothing found for an obscure query",
        "empty",
        {"query": "quantum zebra migration"},
    ),
    Spec(
        "web-browsing",
        "search",
        "settings-invalid",
        "SearXNG is not configured: the Render shows a config hint",
        "error",
        {"query": "release notes template"},
        settings={"web.online": "1"},
    ),
    Spec(
        "web-browsing",
        "search",
        "hundreds-of-results",
        "Hundreds of results are capped in the card",
        "truncated",
        {"query": "asyncio archive", "limit": 300},
    ),
    Spec(
        "web-browsing",
        "search",
        "markup-in-titles",
        "A result title holding markup-like text and escapes shows literally",
        "hostile",
        {"query": "free prizes"},
    ),
    Spec(
        "web-browsing",
        "crawlSinglePage",
        "docs-page",
        "Read a documentation page",
        "typical",
        {"url": "https://docs.example.dev/python/asyncio-tasks.html"},
        settings={"web.offline_latency_ms": "400"},
    ),
    Spec(
        "web-browsing",
        "crawlSinglePage",
        "javascript-only",
        "A page with no readable text",
        "empty",
        {"url": "https://app.example.com/dashboard"},
        settings={"web.offline_latency_ms": "400"},
    ),
    Spec(
        "web-browsing",
        "crawlSinglePage",
        "metadata-address",
        "The SSRF guard refuses a cloud metadata address",
        "error",
        {"url": "http://169.254.169.254/latest/meta-data/"},
        settings={"web.online": "1"},
    ),
    Spec(
        "web-browsing",
        "crawlSinglePage",
        "not-in-corpus",
        "Offline mode cannot fetch an unknown page",
        "not-found",
        {"url": "https://docs.example.dev/missing.html"},
    ),
    Spec(
        "web-browsing",
        "crawlSinglePage",
        "very-long-page",
        "A page over 25,000 characters is capped",
        "truncated",
        {"url": "https://spec.example.org/very-long-spec.html"},
        settings={"web.offline_latency_ms": "400"},
    ),
    Spec(
        "web-browsing",
        "crawlSinglePage",
        "hostile-page",
        "A page whose title and text hold markup and escape sequences",
        "hostile",
        {"url": "https://shop.example.net/deals"},
    ),
    Spec(
        "web-browsing",
        "crawlMultiPages",
        "three-docs",
        "Read three documentation pages",
        "typical",
        {
            "urls": [
                "https://docs.example.dev/python/asyncio-tasks.html",
                "https://docs.example.dev/python/subprocess.html",
                "https://mcp.example.dev/spec/tools.html",
            ]
        },
        settings={"web.offline_latency_ms": "600"},
    ),
    Spec(
        "web-browsing",
        "crawlMultiPages",
        "nothing-readable",
        "Every page needs JavaScript: nothing to read",
        "empty",
        {"urls": ["https://app.example.com/dashboard"]},
        settings={"web.offline_latency_ms": "600"},
    ),
    Spec(
        "web-browsing",
        "crawlMultiPages",
        "all-failed",
        "Every page fails",
        "error",
        {"urls": ["https://docs.example.dev/gone-1.html", "https://docs.example.dev/gone-2.html"]},
        settings={"web.offline_latency_ms": "600"},
    ),
    Spec(
        "web-browsing",
        "crawlMultiPages",
        "one-failed",
        "Two pages read, one fails",
        "partial-failure",
        {
            "urls": [
                "https://docs.example.dev/http/caching.html",
                "https://docs.example.dev/missing.html",
                "https://sqlite.example.org/docs/wal.html",
            ]
        },
        settings={"web.offline_latency_ms": "600"},
    ),
    Spec(
        "web-browsing",
        "crawlMultiPages",
        "twenty-pages",
        "Twenty pages, one very long",
        "truncated",
        {
            "urls": [
                "https://spec.example.org/very-long-spec.html",
                *[
                    f"https://lists.example.org/archive/asyncio/2026/msg{index:05d}.html"
                    for index in range(1, 20)
                ],
            ]
        },
        settings={"web.offline_latency_ms": "500"},
    ),
    # local-system
    Spec(
        "local-system",
        "listFiles",
        "src-folder",
        "List a source folder",
        "typical",
        {"path": "src"},
    ),
    Spec(
        "local-system",
        "listFiles",
        "empty-folder",
        "An empty directory",
        "empty",
        {"path": "empty-dir"},
    ),
    Spec(
        "local-system",
        "listFiles",
        "missing-folder",
        "A directory that does not exist",
        "error",
        {"path": "build/output"},
    ),
    Spec(
        "local-system",
        "listFiles",
        "whole-tree",
        "A recursive listing over the 500-entry limit",
        "truncated",
        {"path": ".", "recursive": True},
    ),
    Spec(
        "local-system",
        "listFiles",
        "outside-workspace",
        "Listing /etc needs approval; the user skips it",
        "skipped",
        {"path": "/etc"},
        decision="skip",
    ),
    Spec(
        "local-system",
        "readFile",
        "python-source",
        "Read a Python file with highlighting",
        "typical",
        {"path": "src/app.py"},
    ),
    Spec("local-system", "readFile", "empty-file", "An empty file", "empty", {"path": "empty.txt"}),
    Spec(
        "local-system",
        "readFile",
        "cjk-and-emoji",
        "A file of Chinese and Japanese notes with emoji (wide characters)",
        "wide-text",
        {"path": "docs/notes-zh.md"},
    ),
    Spec(
        "local-system",
        "readFile",
        "missing-file",
        "A file that does not exist",
        "error",
        {"path": "src/missing.py"},
    ),
    Spec(
        "local-system",
        "readFile",
        "binary-file",
        "A binary file is refused",
        "binary",
        {"path": "assets/logo.png"},
    ),
    Spec(
        "local-system",
        "readFile",
        "large-csv",
        "A 3,200-line file: the first 2,000 lines are returned",
        "truncated",
        {"path": "data/big.csv"},
    ),
    Spec(
        "local-system",
        "writeFile",
        "new-notes",
        "Write a new Markdown file (approved)",
        "typical",
        {
            "path": "notes/todo.md",
            "content": "# TODO\n\n- [ ] write the parser\n- [ ] add tests\n- [ ] wire the "
            "CLI\n- [x] sketch the design\n",
        },
    ),
    Spec(
        "local-system",
        "writeFile",
        "empty-content",
        "Write an empty file",
        "empty",
        {"path": "out/empty.log", "content": ""},
    ),
    Spec(
        "local-system",
        "writeFile",
        "onto-a-directory",
        "Writing onto a directory fails",
        "error",
        {"path": "src", "content": "oops\n"},
    ),
    Spec(
        "local-system",
        "writeFile",
        "large-file",
        "Write a 6,000-line file; progress streams",
        "truncated",
        {
            "path": "data/generated.csv",
            "content": "".join(f"{index},value-{index},{index * 3}\n" for index in range(1, 6001)),
        },
    ),
    Spec(
        "local-system",
        "writeFile",
        "declined",
        "The user skips a write",
        "skipped",
        {"path": "README.md", "content": "# replaced\n"},
        decision="skip",
    ),
    Spec(
        "local-system",
        "editFile",
        "rename-greeting",
        "Change one line",
        "typical",
        {
            "path": "src/app.py",
            "oldString": '    return f"Hello, {name}!"',
            "newString": '    return f"Hi, {name}!"',
        },
    ),
    Spec(
        "local-system",
        "editFile",
        "no-change",
        "newString equals oldString: nothing changes",
        "empty",
        {"path": "src/app.py", "oldString": "import os", "newString": "import os"},
    ),
    Spec(
        "local-system",
        "editFile",
        "not-found",
        "oldString is not in the file",
        "error",
        {"path": "src/app.py", "oldString": "print('bye')", "newString": "print('hi')"},
    ),
    Spec(
        "local-system",
        "editFile",
        "ambiguous",
        "oldString appears more than once",
        "ambiguous",
        {"path": "src/config.py", "oldString": "= 'old'", "newString": "= 'new'"},
        setup=edit_target,
    ),
    Spec(
        "local-system",
        "editFile",
        "replace-all",
        "Replace 400 lines: a long diff",
        "truncated",
        {
            "path": "src/config.py",
            "oldString": "= 'old'",
            "newString": "= 'new'",
            "replaceAll": True,
        },
        setup=edit_target,
    ),
    Spec(
        "local-system",
        "globFiles",
        "python-files",
        "Find Python files",
        "typical",
        {"pattern": "**/*.py"},
    ),
    Spec(
        "local-system", "globFiles", "no-rust", "No file matches", "empty", {"pattern": "**/*.rs"}
    ),
    Spec(
        "local-system",
        "globFiles",
        "missing-base",
        "The base directory does not exist",
        "error",
        {"pattern": "*.md", "path": "website"},
    ),
    Spec(
        "local-system",
        "globFiles",
        "many-reports",
        "720 matches, 500 returned",
        "truncated",
        {"pattern": "generated/*.txt"},
    ),
    Spec(
        "local-system", "grepContent", "todos", "Find TODO comments", "typical", {"pattern": "TODO"}
    ),
    Spec(
        "local-system",
        "grepContent",
        "nothing",
        "No line matches",
        "empty",
        {"pattern": "FIXME_NEVER_WRITTEN"},
    ),
    Spec(
        "local-system",
        "grepContent",
        "bad-regex",
        "An invalid regular expression",
        "error",
        {"pattern": "([a-z"},
    ),
    Spec(
        "local-system",
        "grepContent",
        "thousands",
        "Thousands of matches, 200 returned",
        "truncated",
        {"pattern": "line [0-9]+", "path": "data"},
    ),
    Spec(
        "local-system",
        "runCommand",
        "run-steps",
        "A command that prints as it goes (with ANSI colour)",
        "typical",
        {
            "command": "for step in install build test; do printf '\\033[36m==>\\033[0m "
            '%s\\n\' "$step"; sleep 0.3; done; echo finished',
            "description": "Run the three build steps",
        },
    ),
    Spec(
        "local-system",
        "runCommand",
        "no-output",
        "A command that prints nothing",
        "empty",
        {"command": "true"},
    ),
    Spec(
        "local-system",
        "runCommand",
        "failing",
        "A command that fails with exit code 2",
        "error",
        {"command": "ls build-output", "description": "List the build output"},
    ),
    Spec(
        "local-system",
        "runCommand",
        "twenty-thousand-lines",
        "20,000 lines of output",
        "truncated",
        {
            "command": 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); echo "line $i of the '
            'long output"; done'
        },
    ),
    Spec(
        "local-system",
        "runCommand",
        "killed-on-timeout",
        "A command killed at its timeout",
        "timeout",
        {"command": "echo starting; sleep 30", "timeout": 1500},
    ),
    Spec(
        "local-system",
        "runCommand",
        "timed-out",
        "The call's own deadline passes while the command still runs",
        "timed-out",
        {"command": "echo 'warming the cache'; sleep 0.4; echo 'still warming'; sleep 30"},
        timeout_ms=1000,
    ),
    Spec(
        "local-system",
        "runCommand",
        "cancelled",
        "The user cancels a long build half-way",
        "cancelled",
        {
            "command": (
                'for step in fetch compile link package; do echo "[build] $step"; sleep 0.4; done'
            ),
            "description": "Build the release package",
        },
        cancel_after_ms=1000,
    ),
    Spec(
        "local-system",
        "runCommand",
        "blocked",
        "A command that needs approval, in headless mode: blocked, never run",
        "blocked",
        {"command": "rm -rf build", "description": "Remove the build folder"},
        mode="headless",
    ),
    Spec(
        "local-system",
        "runCommand",
        "skipped",
        "The user skips a command they did not ask for",
        "skipped",
        {"command": "rm -rf build; echo done", "description": "Clean the build folder"},
        decision="skip",
    ),
    Spec(
        "local-system",
        "runCommand",
        "escape-sequences",
        "Output with ANSI colour, OSC title and clipboard sequences and markup",
        "hostile",
        {"command": HOSTILE_COMMAND},
    ),
    # task
    Spec(
        "task",
        "createTask",
        "write-parser",
        "Create one task",
        "typical",
        {
            "name": "Write the parser",
            "instruction": "Parse the config file into typed settings; report errors with line "
            "numbers.",
            "priority": 2,
            "command": "python -m parser --check",
        },
    ),
    Spec(
        "task",
        "createTask",
        "unknown-parent",
        "The parent task does not exist",
        "error",
        {"name": "Subtask", "instruction": "A subtask.", "parentIdentifier": "TASK-99"},
    ),
    Spec(
        "task",
        "createTask",
        "long-instruction",
        "A task with a very long instruction",
        "truncated",
        {
            "name": "Migrate the database",
            "instruction": "\n".join(
                f"Step {index}: migrate table {index}, verify the row counts, and "
                "record the duration."
                for index in range(1, 61)
            ),
        },
    ),
    Spec(
        "task",
        "createTasks",
        "plan-of-three",
        "Plan three tasks at once",
        "typical",
        {
            "tasks": [
                {"name": "Design", "instruction": "Sketch the design."},
                {"name": "Build", "instruction": "Build it.", "dependsOn": ["TASK-1"]},
                {"name": "Ship", "instruction": "Ship it.", "dependsOn": ["TASK-2"]},
            ]
        },
    ),
    Spec(
        "task",
        "createTasks",
        "all-invalid",
        "Every task in the batch fails",
        "error",
        {
            "tasks": [
                {"name": "Orphan", "instruction": "x", "parentIdentifier": "TASK-40"},
                {"name": "Blocked", "instruction": "y", "dependsOn": ["TASK-41"]},
            ]
        },
    ),
    Spec(
        "task",
        "createTasks",
        "one-fails",
        "Two created, one fails",
        "partial-failure",
        {
            "tasks": [
                {"name": "Write docs", "instruction": "Write the docs."},
                {"name": "Review docs", "instruction": "Review.", "parentIdentifier": "TASK-77"},
                {"name": "Publish docs", "instruction": "Publish."},
            ]
        },
    ),
    Spec(
        "task",
        "createTasks",
        "forty-tasks",
        "Forty tasks in one batch",
        "truncated",
        {
            "tasks": [
                {"name": f"Chapter {index}", "instruction": f"Write chapter {index} of the guide."}
                for index in range(1, 41)
            ]
        },
    ),
    Spec("task", "listTasks", "all-tasks", "List the tasks", "typical", {}, setup=seed_tasks(5)),
    Spec(
        "task",
        "listTasks",
        "none-completed",
        "No task matches the filter",
        "empty",
        {"status": ["cancelled"]},
        setup=seed_tasks(5),
    ),
    Spec(
        "task",
        "listTasks",
        "unknown-parent",
        "Filtering by a parent that does not exist",
        "error",
        {"parentIdentifier": "TASK-999"},
        setup=seed_tasks(5),
    ),
    Spec(
        "task",
        "listTasks",
        "hundred-twenty",
        "120 tasks, 50 returned",
        "truncated",
        {"limit": 50},
        setup=seed_tasks(120),
    ),
    Spec(
        "task",
        "updateTaskStatus",
        "mark-completed",
        "Mark a task completed (approved)",
        "typical",
        {"identifier": "TASK-1", "status": "completed"},
        setup=seed_tasks(5),
    ),
    Spec(
        "task",
        "updateTaskStatus",
        "missing-task",
        "The task does not exist",
        "error",
        {"identifier": "TASK-404", "status": "cancelled"},
        setup=seed_tasks(5),
    ),
    Spec(
        "task",
        "updateTaskStatus",
        "declined",
        "The user skips a status change",
        "skipped",
        {"identifier": "TASK-2", "status": "failed", "error": "flaky"},
        setup=seed_tasks(5),
        decision="skip",
    ),
    Spec(
        "task",
        "runTask",
        "build-site",
        "Run a task whose command prints as it goes",
        "typical",
        {"identifier": "TASK-1"},
        setup=seed_runnable,
    ),
    Spec(
        "task",
        "runTask",
        "no-command",
        "A task without a command is simply completed",
        "empty",
        {"identifier": "TASK-4"},
        setup=seed_runnable,
    ),
    Spec(
        "task",
        "runTask",
        "dependency-open",
        "Its dependency is not completed",
        "error",
        {"identifier": "TASK-2"},
        setup=seed_runnable,
    ),
    Spec(
        "task",
        "runTask",
        "lint-fails",
        "The task's command fails",
        "failed-run",
        {"identifier": "TASK-3"},
        setup=seed_runnable,
    ),
    Spec(
        "task",
        "runTask",
        "load-test",
        "6,000 lines of output",
        "truncated",
        {"identifier": "TASK-5"},
        setup=seed_runnable,
    ),
    # skills
    Spec(
        "skills",
        "activateSkill",
        "release-notes",
        "Activate a bundled skill",
        "typical",
        {"name": "release-notes"},
    ),
    Spec(
        "skills",
        "activateSkill",
        "unknown-skill",
        "An unknown skill lists the available ones",
        "error",
        {"name": "write-poetry"},
    ),
    Spec(
        "skills",
        "activateSkill",
        "empty-skill",
        "A skill with no instructions",
        "empty",
        {"name": "empty-skill"},
    ),
    Spec(
        "skills",
        "activateSkill",
        "huge-style-guide",
        "A skill longer than the model is given",
        "truncated",
        {"name": "style-guide"},
    ),
    Spec(
        "skills",
        "readReference",
        "template",
        "Read a skill's reference file",
        "typical",
        {"skill": "release-notes", "path": "references/template.md"},
    ),
    Spec(
        "skills",
        "readReference",
        "missing-reference",
        "The reference does not exist",
        "error",
        {"skill": "release-notes", "path": "references/style.md"},
    ),
    Spec(
        "skills",
        "readReference",
        "path-escape",
        "A path that leaves the skill folder is refused",
        "path-escape",
        {"skill": "release-notes", "path": "../code-review/SKILL.md"},
    ),
    Spec(
        "skills",
        "readReference",
        "empty-notes",
        "An empty reference file",
        "empty",
        {"skill": "empty-skill", "path": "notes.md"},
    ),
    Spec(
        "skills",
        "readReference",
        "long-glossary",
        "A 2,000-line reference is cut",
        "truncated",
        {"skill": "style-guide", "path": "references/glossary.md"},
    ),
]


async def record(spec: Spec) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="workbench-record-") as directory:
        workspace = Path(directory)
        build_workspace(workspace)
        if spec.setup is not None:
            spec.setup(workspace)
        packages = [package for package in bundled_packages() if package.identifier == spec.tool]
        services = RuntimeServices(
            workspace=workspace,
            offline=spec.settings.get("web.online") != "1",
            settings=spec.settings,
        )
        source = PythonToolSource("bundled", packages, services)
        await source.start()
        manifest = packages[0].manifest
        record = CallRecord.start(spec.tool, spec.api)

        async def gate(request: ev.ApprovalRequested) -> ApprovalDecision:
            await asyncio.sleep(0)
            if spec.decision == "skip":
                return ApprovalDecision("skip", reason="not now: outside what I asked for")
            return ApprovalDecision("approve", args=spec.args)

        check = check_approval(
            manifest,
            spec.api,
            spec.args,
            PolicyContext(mode=spec.mode, workspace=workspace),  # type: ignore[arg-type]
        )
        call = LiveCall(
            source,
            manifest,
            spec.tool,
            spec.api,
            spec.args,
            on_event=record.add,
            timeout_ms=spec.timeout_ms,
            approval=check,
            approval_gate=gate,
            workspace=workspace,
        )
        try:
            if spec.cancel_after_ms is None:
                await call.run()
            else:
                running = asyncio.ensure_future(call.run())
                await asyncio.sleep(spec.cancel_after_ms / 1000)
                call.cancel("stopped by the user")
                await running
        finally:
            await source.stop()
        variant = variant_from_events(
            record.events,
            variant_id=spec.variant_id,
            label=spec.label,
            kind=spec.kind,
            description=spec.description,
        )
        scrubbed: dict[str, Any] = _scrub(variant, str(workspace))
        return scrubbed


def _scrub(value: Any, workspace: str) -> Any:
    """Replace the temporary workspace path so recordings do not depend on the machine."""
    if isinstance(value, str):
        return value.replace(workspace, "/workspace")
    if isinstance(value, list):
        return [_scrub(item, workspace) for item in value]
    if isinstance(value, dict):
        return {key: _scrub(item, workspace) for key, item in value.items()}
    return value


async def main_async(out: Path, only: set[str]) -> int:
    files: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for spec in SPECS:
        key = f"{spec.tool}/{spec.api}"
        if only and key not in only and spec.tool not in only:
            continue
        print(f"recording {key}#{spec.variant_id} …", file=sys.stderr)
        files.setdefault((spec.tool, spec.api), []).append(await record(spec))
    for (tool, api), variants in files.items():
        data = {
            "tool": tool,
            "api": api,
            "variants": variants,
            "waivers": WAIVERS.get((tool, api), []),
        }
        FixtureFile.model_validate(data)
        path = out / tool / f"{api}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        header = (
            "# Recorded from real calls by `python scripts/record_reference.py`; "
            "edit labels freely.\n"
        )
        path.write_text(header + dump_fixture(data), encoding="utf-8")
        print(f"wrote {path} ({len(variants)} variants)", file=sys.stderr)
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=bundled_fixtures_dir())
    parser.add_argument(
        "--only", action="append", default=[], help="tool or tool/api to record (repeatable)"
    )
    options = parser.parse_args()
    if shutil.which("sh") is None:
        raise SystemExit("recording needs /bin/sh")
    raise SystemExit(asyncio.run(main_async(options.out, set(options.only))))


if __name__ == "__main__":
    main()
