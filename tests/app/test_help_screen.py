"""Keys you can find: ``?`` / F1 list every key of the screen; the footer fits and ends in them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.binding import Binding

from workbench.app.app import WorkbenchApp
from workbench.app.bindings import own_bindings
from workbench.app.screens.fixture_screen import FixtureScreen
from workbench.app.screens.help_screen import HelpScreen, sections
from workbench.app.screens.live_screen import LiveScreen
from workbench.app.widgets.source_tree import SourceTree
from workbench.config import WorkbenchConfig
from workbench.rendering.screen import screen_text, settle
from workbench.session import LiveOptions, build_session


def listed(screen) -> dict[str, str]:
    """What the help screen lists: description -> keys."""
    return {what: keys for _, rows in sections(screen) for keys, what in rows}


def described(binding: Binding) -> str:
    return binding.tooltip or binding.description


async def test_question_mark_lists_every_key_of_the_fixture_screen(
    make_app: Callable[..., WorkbenchApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, FixtureScreen)
        rows = listed(screen)
        for binding in own_bindings(screen) + own_bindings(app):
            assert described(binding) in rows, binding
        # Each action once, its keys together; the approval keys in a section of their own.
        assert rows["Open or close the tool's Portal"] == "o / f6"
        assert rows["List every key here"] == "? / f1"
        titles = [title for title, _ in sections(screen)]
        assert "When a call waits for approval" in titles and "In a tree" in titles
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        assert "Keys · fixtures" in text and "Play or pause the replay" in text
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen


async def test_f1_opens_the_keys_from_a_text_field_in_live_mode(tmp_path: Path) -> None:
    config = WorkbenchConfig(
        root=tmp_path, fixture_dirs=(tmp_path / "fixtures",), include_bundled=True
    )
    session = build_session(LiveOptions(include_demo=False, workspace=tmp_path), config=config)
    app = WorkbenchApp(live_session=session, animate=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, LiveScreen)
        for _ in range(200):
            await pilot.pause(0.02)
            if not screen.query_one(SourceTree).loading:
                break
        await settle(pilot)
        footer = screen_text(app).splitlines()[-1]
        # The footer at 120 columns is whole: it ends with the keys list and quit, not mid-word.
        assert "^q Quit" in footer and "? Keys" in footer
        tree = screen.query_one(SourceTree)
        assert tree.cursor_node is not None and tree.cursor_node.data == (
            "python",
            "web-browsing",
            "search",
        )
        await pilot.press("enter")  # Into the form: "?" types there, F1 still opens the list.
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert app.screen is screen
        assert "f1 Keys" in screen_text(app).splitlines()[-1]
        await pilot.press("f1")
        for _ in range(100):
            await pilot.pause(0.05)
            if "Keys · live calls" in screen_text(app):
                break
        assert isinstance(app.screen, HelpScreen)
        assert "Keys · live calls" in screen_text(app)
        assert "In the form" in [title for title, _ in sections(screen)]
