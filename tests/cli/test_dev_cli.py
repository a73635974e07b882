"""``workbench dev`` and ``workbench --watch`` open the fixture TUI with reloading on, and the
plain ``workbench`` opens it without."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from workbench.app.app import WorkbenchApp
from workbench.cli import main


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[WorkbenchApp]:
    """The apps the command would run (not run: the TUI itself is tested with pilot)."""
    apps: list[WorkbenchApp] = []
    monkeypatch.setattr(WorkbenchApp, "run", lambda self, *a, **k: apps.append(self))
    monkeypatch.chdir(tmp_path)
    return apps


@pytest.mark.parametrize(("args", "reloading"), [(["dev"], True), (["--watch"], True), ([], False)])
def test_the_command_opens_the_tui_reloading_or_not(
    opened: list[WorkbenchApp], args: list[str], reloading: bool
) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    [app] = opened
    assert app.reload_on_save is reloading
    assert ("reloading on save" in app.sub_title) is reloading


def test_dev_says_what_it_reloads() -> None:
    result = CliRunner().invoke(main, ["dev", "--help"])
    assert result.exit_code == 0
    assert "fixture file, a manifest or a tool's Python module" in result.output
