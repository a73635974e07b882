"""The sources' report after a start: one account for `workbench tools`, `call` and the TUI."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.session import LiveOptions, build_session


@pytest.fixture(autouse=True)
def in_tmp(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)


async def test_failures_package_problems_and_conflicts_become_the_panels_rows(
    tmp_path: Path,
) -> None:
    skills = tmp_path / "calculator"
    (skills / "greet").mkdir(parents=True)
    (skills / "greet" / "SKILL.md").write_text("---\nname: greet\ndescription: Hi\n---\nHi.\n")
    session = build_session(
        LiveOptions(
            mcp=[str(tmp_path / "no-server")],
            skills=[skills],
            tool_modules=["no_such_module_for_workbench_tests"],
            workspace=tmp_path,
        )
    )
    await session.manager.start()
    try:
        report = session.report()
    finally:
        await session.manager.stop()
    assert [(source.name, source.state) for source in report.sources] == [
        ("python", "ready"),
        ("python-2", "ready"),
        ("mcp", "failed"),
    ]
    assert [source.name for source in report.failed] == ["mcp"]
    rows = [(row.file, row.severity, row.message) for row in report.as_problems()]
    assert rows[0] == (
        "source mcp",
        "error",
        f"command not found: {tmp_path / 'no-server'}",
    )
    assert rows[1][:2] == ("tools", "error")
    assert "no_such_module_for_workbench_tests" in rows[1][2]
    assert rows[2] == (
        "tool calculator",
        "warning",
        "offered by python, python-2: call it as SOURCE/calculator.API",
    )
    assert len(rows) == 3
