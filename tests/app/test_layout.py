"""The layout holds at every size: 60x24, 80x24, 100x30, 120x40, 200x50, with and without the
Portal."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.containers import Vertical
from textual.pilot import Pilot

from workbench.app.app import WorkbenchApp
from workbench.app.screens.call_screen import CallScreen, sidebar_folds
from workbench.app.screens.fixture_screen import FixtureScreen
from workbench.app.screens.help_screen import HelpScreen
from workbench.app.screens.live_screen import LiveScreen
from workbench.app.widgets.call_stage import CallStage
from workbench.app.widgets.call_view import MIN_CARD_BESIDE_PORTAL, MIN_CARD_WIDTH
from workbench.app.widgets.schema_form import SchemaForm
from workbench.app.widgets.source_tree import SourceTree
from workbench.app.widgets.tool_tree import ToolTree
from workbench.config import WorkbenchConfig
from workbench.rendering.screen import screen_text, settle
from workbench.session import LiveOptions, build_session

SIZES = [(60, 24), (80, 24), (100, 30), (120, 40), (200, 50)]


async def fixture_ready(pilot: Pilot) -> FixtureScreen:
    await pilot.app.workers.wait_for_complete()
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, FixtureScreen)
    return screen


def assert_card_whole(screen: CallScreen, text: str) -> None:
    """The card fits its stage (at its preset, or the room there is) and its frame is drawn
    whole: the top border's both corners are on screen."""
    view = screen.call_view
    stage = view.query_one("#stage", CallStage)
    card = view.card
    assert MIN_CARD_WIDTH <= card.card_width <= stage.room, (card.card_width, stage.room)
    if view.width_preset is None:
        assert card.card_width == max(MIN_CARD_WIDTH, stage.room)
    top = next(line for line in text.splitlines() if "╭─" in line and "Calculator" in line)
    assert top.rstrip().endswith("╮") or "╮" in top[top.index("╭─") :], top


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_fixture_screen_holds_at_every_size(
    make_app: Callable[..., WorkbenchApp], size: tuple[int, int]
) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = await fixture_ready(pilot)
        if sidebar_folds(size[0]):  # Folded by the narrow screen: ^b brings it back.
            assert not screen.query_one("#sidebar").display
            await pilot.press("ctrl+b")
            await settle(pilot)
        text = screen_text(app)
        # The first screen is complete: the first tool and its first variant, the whole card.
        tree = screen.query_one(ToolTree)
        assert tree.scroll_y == 0
        sidebar = "\n".join(line[: tree.region.right] for line in text.splitlines())
        assert "Calculator" in sidebar and "arithmetic" in sidebar
        assert_card_whole(screen, text)
        assert screen.focused is tree

        # The Portal: docked beside a card of at least the narrowest preset, or over the card.
        await pilot.press("o")
        await settle(pilot)
        view = screen.call_view
        assert view.portal_open
        if view.portal_mode == "docked":
            assert view.card.card_width >= MIN_CARD_BESIDE_PORTAL
            assert view.portal.region.x >= view.query_one("#stage", CallStage).region.right
            assert_card_whole(screen, screen_text(app))
        else:
            assert view.portal.region.width == view.region.width
        # Closing it gives everything back, the focus included.
        await pilot.press("o")
        await settle(pilot)
        assert screen.query_one("#sidebar", Vertical).display
        assert_card_whole(screen, screen_text(app))
        assert screen.focused is tree


async def test_the_sidebar_steps_aside_for_a_docked_portal_and_the_focus_comes_back(
    make_app: Callable[..., WorkbenchApp],
) -> None:
    # At 120 columns the Portal docks only without the sidebar; at 80 it covers the card and
    # the sidebar returns. A dialog closed there must not hand the focus to the filter field.
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await fixture_ready(pilot)
        await pilot.press("o")
        await settle(pilot)
        assert not screen.query_one("#sidebar", Vertical).display
        assert screen.call_view.portal_mode == "docked"
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert screen.query_one("#sidebar", Vertical).display
        assert screen.call_view.portal_mode == "overlay"
        assert screen.focused is screen.query_one(ToolTree)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("f1")
        await settle(pilot)
        assert app.screen is screen and screen.focused is screen.query_one(ToolTree)
        await pilot.press("x")  # A screen key's letter, not text in the filter.
        assert screen.query_one("#filter").value == ""


async def test_short_terminals_fold_the_details_and_d_brings_them_back(
    make_app: Callable[..., WorkbenchApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await fixture_ready(pilot)
        view = screen.call_view
        assert not view.details_open
        stage = view.query_one("#stage", CallStage)
        assert stage.region.height >= 12  # The card has the rows the details would take.
        await pilot.press("d")
        await settle(pilot)
        assert view.details_open
        # The choice holds when the terminal grows and shrinks again.
        await pilot.resize_terminal(120, 40)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert view.details_open


def live_app(tmp_path: Path) -> WorkbenchApp:
    config = WorkbenchConfig(
        root=tmp_path, fixture_dirs=(tmp_path / "fixtures",), include_bundled=True
    )
    session = build_session(LiveOptions(include_demo=False, workspace=tmp_path), config=config)
    return WorkbenchApp(live_session=session, animate=False)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_live_screen_keeps_form_card_and_details_usable(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = live_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        assert isinstance(screen, LiveScreen)
        for _ in range(200):
            await pilot.pause(0.02)
            if not screen.query_one(SourceTree).loading:
                break
        await settle(pilot)
        tree = screen.query_one(SourceTree)
        node = next(
            node
            for node in tree._walk(tree.root)
            if node.data == ("python", "calculator", "calculate")
        )
        tree.move_cursor(node)
        await settle(pilot)
        # Enter on the API goes to its form.
        await pilot.press("enter")
        await settle(pilot)
        form = screen.query_one(SchemaForm)
        assert screen.focused is not None and form in screen.focused.ancestors_with_self
        await pilot.press(*"1+2", "ctrl+s")
        await app.workers.wait_for_complete()
        await settle(pilot)
        view = screen.call_view
        assert view.state is not None and view.state.phase.is_terminal
        stage = view.query_one("#stage", CallStage)
        for portal in (False, True):
            if portal:
                await pilot.press("f6")
                await settle(pilot)
            text = screen_text(app)
            # The form, the card and (on a tall terminal) the details all keep rows.
            assert form.region.height >= 5
            if view.portal_mode == "docked" or not portal:
                # The card is not covered: whole, with rows to show itself.
                assert "Calculated" in text
                assert_card_whole(screen, text)
                assert stage.region.height >= 7, stage.region
            if size[1] >= 30:
                assert view.details.region.height >= 5
