"""The live tree says which folders each MCP server has been offered as roots: none unless named."""

from __future__ import annotations

from pathlib import Path

from workbench.app.app import WorkbenchApp
from workbench.app.screens.live_screen import LiveScreen
from workbench.app.widgets.source_tree import SourceTree
from workbench.config import WorkbenchConfig
from workbench.rendering.screen import screen_text, settle
from workbench.session import LiveOptions, build_session


def make_app(tmp_path: Path, roots: list[Path]) -> WorkbenchApp:
    config = WorkbenchConfig(root=tmp_path, fixture_dirs=(tmp_path / "fixtures",))
    options = LiveOptions(include_demo=True, workspace=tmp_path, roots=roots)
    return WorkbenchApp(live_session=build_session(options, config=config), animate=False)


async def server_rows(app: WorkbenchApp) -> dict[str, list[str]]:
    """Source name -> the labels of the rows right under it that are not tools."""
    async with app.run_test(size=(170, 56)) as pilot:
        screen = app.screen
        assert isinstance(screen, LiveScreen)
        tree = screen.query_one(SourceTree)
        for _ in range(400):
            await pilot.pause(0.02)
            if not tree.loading:
                break
        await settle(pilot)
        rows = {
            str(node.data): [child.label.plain for child in node.children if not child.children]
            for node in tree.root.children
        }
        rows["screen"] = [screen_text(app)]
        return rows


async def test_a_server_offered_no_root_says_so(tmp_path: Path) -> None:
    rows = await server_rows(make_app(tmp_path, []))
    assert rows["demo"] == ["roots offered: none"]
    # Only MCP servers are told about roots: the in-process tools have no such row.
    assert not any("roots" in label for label in rows["python"])
    assert "roots offered: none" in rows["screen"][0]


async def test_the_roots_given_with_root_are_named_on_the_servers_row(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    rows = await server_rows(make_app(tmp_path, [data]))
    assert rows["demo"] == [f"roots offered: {data.resolve()}"]
