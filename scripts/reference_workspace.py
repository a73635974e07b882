"""The sample workspace every reference recording starts from, and what recipes add to it.

Read by ``scripts/record_reference.py``; a recipe names a setup here (``setup: seed_runnable``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

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
