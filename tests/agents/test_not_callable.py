"""An agent's own tool cannot be called from Workbench, and every way of trying says so:
the live TUI, ``workbench call`` and the tool manager a source sits in."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from workbench.app.app import WorkbenchApp
from workbench.app.screens.live_screen import LiveScreen
from workbench.app.widgets.history_panel import HistoryPanel
from workbench.app.widgets.source_tree import SourceTree
from workbench.cli import main
from workbench.config import WorkbenchConfig
from workbench.rendering.screen import screen_text, settle
from workbench.session import LiveOptions, build_session
from workbench.sources.manager import ResolutionError, ToolManager
from workbench.sources.python_source import PythonToolSource
from workbench.tools.agent_packages import agent_packages

SAYS = "cannot be called from Workbench"


async def test_the_live_tui_says_an_agents_tool_cannot_be_called(tmp_path: Path) -> None:
    config = WorkbenchConfig(root=tmp_path, fixture_dirs=(tmp_path / "fixtures",))
    session = build_session(LiveOptions(include_demo=False, workspace=tmp_path), config=config)
    app = WorkbenchApp(live_session=session, animate=False)
    async with app.run_test(size=(170, 50)) as pilot:
        screen = app.screen
        assert isinstance(screen, LiveScreen)
        tree = screen.query_one(SourceTree)
        for _ in range(200):
            await pilot.pause(0.02)
            if not tree.loading:
                break
        await settle(pilot)
        node = next(
            node for node in tree._walk(tree.root) if node.data == ("python", "claude-code", "Bash")
        )
        assert node.parent is not None
        assert not node.parent.is_expanded  # folded: it is there only to say why
        assert "UI only, not callable" in str(node.parent.label)
        node.parent.expand()
        await settle(pilot)
        tree.select_node(node)
        await settle(pilot)
        notes = [notification.message for notification in app._notifications]
        assert any(SAYS in note and "Claude Code" in note for note in notes), notes
        assert SAYS in screen_text(app).replace("\n", " ") or any(
            SAYS in part.text for part in screen.call_view._status
        )
        # Asking for the call anyway starts nothing and says the same.
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert screen.query_one("#history", HistoryPanel).entries == []
        assert screen.current_call is None
        assert sum(SAYS in notification.message for notification in app._notifications) >= 2


def test_workbench_call_says_whose_tool_it_is(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["call", "codex.apply_patch", "--args", '{"input": ""}'])
    assert result.exit_code == 2
    assert f"codex.apply_patch {SAYS}" in result.output
    assert "runs only inside Codex" in result.output


async def test_the_manager_names_a_ui_only_tool_and_lists_it_apart() -> None:
    source = PythonToolSource("python", agent_packages())
    manager = ToolManager()
    manager.add(source)
    await manager.start()
    try:
        assert manager.entries() == []
        assert {entry.tool for entry in manager.ui_only()} == {"claude-code", "codex", "gemini-cli"}
        reason = re.escape("gemini-cli.save_memory cannot be called")
        with pytest.raises(ResolutionError, match=reason):
            manager.resolve("save_memory")
        with pytest.raises(ResolutionError, match=re.escape("no tool API 'nothing.here'")):
            manager.resolve("nothing.here")
        assert manager.not_callable("python", "claude-code", "Task") is not None
        assert manager.not_callable("python", "claude-code", "Nope") is None
    finally:
        await manager.stop()
