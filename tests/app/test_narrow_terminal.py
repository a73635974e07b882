"""80x24 is a first-class size: a key hides the tree (and the footer says so) so the width
presets can be seen; at 60 columns the tree starts folded so the card keeps a readable width;
the tree filter gives the keys back on esc and says when nothing matches;
the footer shows keys even before the app has the focus (a served page)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual import events
from textual.widgets import Footer, Input
from textual.widgets._footer import FooterKey

from tests.app.test_live_screen import make_app as make_live_app
from tests.app.test_live_screen import ready as live_ready
from workbench.app.app import WorkbenchApp
from workbench.app.screens.fixture_screen import FixtureScreen
from workbench.app.widgets.schema_form import SchemaForm
from workbench.app.widgets.tool_card import ToolCard
from workbench.app.widgets.tool_tree import ToolTree
from workbench.rendering.screen import screen_text, settle

SIZES = [(80, 24), (120, 40)]


async def fixture_ready(pilot) -> FixtureScreen:
    await pilot.app.workers.wait_for_complete()
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, FixtureScreen)
    return screen


def footer_text(app: WorkbenchApp) -> str:
    return screen_text(app).splitlines()[-1]


@pytest.mark.parametrize("size", SIZES)
async def test_hiding_the_tree_lets_the_60_column_card_be_seen(
    make_app: Callable[..., WorkbenchApp], size: tuple[int, int]
) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = await fixture_ready(pilot)
        card = screen.query_one(ToolCard)
        assert "^b Hide tree" in footer_text(app)
        await pilot.press("ctrl+b")
        await settle(pilot)
        assert not screen.query_one("#sidebar").display
        assert "^b Show tree" in footer_text(app)
        await pilot.press("w")  # 60 columns
        await settle(pilot)
        assert card.card_width == 60 and "60 cols" in screen_text(app)
        assert "no room" not in screen_text(app)
        await pilot.press("w")  # 80 columns: all of them but the scrollbar's at 80x24
        await settle(pilot)
        assert card.card_width >= min(80, size[0] - 1)
        # The screen's keys still work with the tree hidden, and it comes back.
        await pilot.press("left_square_bracket")
        await pilot.press("ctrl+b")
        await settle(pilot)
        assert screen.query_one("#sidebar").display
        assert "^b Hide tree" in footer_text(app)


async def test_at_60_columns_the_tree_folds_and_the_card_keeps_a_readable_width(
    make_app: Callable[..., WorkbenchApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(60, 24)) as pilot:
        screen = await fixture_ready(pilot)
        card = screen.query_one(ToolCard)
        assert not screen.query_one("#sidebar").display
        assert card.card_width >= 55  # The screen's width but the stage's gutter.
        assert "🧮 Calculator · calculate " in screen_text(app)
        assert footer_text(app).startswith(" ^b Show tree")  # Where the tree went.
        await pilot.press("ctrl+b")  # Asked for, the tree comes back at its floor.
        await settle(pilot)
        assert screen.query_one("#sidebar").display
        assert screen.query_one("#sidebar").size.width <= 20
        assert card.card_width >= 36
        assert "^b Show tree" not in footer_text(app)
        await pilot.press("down")  # The tree has the keys again.
        await settle(pilot)
        assert screen.ref is not None and screen.ref.variant.id == "division-by-zero"
        await pilot.press("ctrl+b")
        await settle(pilot)
        assert not screen.query_one("#sidebar").display and card.card_width >= 55
        await pilot.resize_terminal(80, 24)  # The user's choice outlives a resize.
        await settle(pilot)
        assert not screen.query_one("#sidebar").display
        await pilot.press("slash")  # The filter is the tree's: it brings the tree back.
        await settle(pilot)
        assert screen.query_one("#sidebar").display
        assert isinstance(screen.focused, Input)


async def test_hiding_the_tree_in_live_mode_keeps_typing_in_the_form(tmp_path: Path) -> None:
    app = make_live_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await live_ready(pilot)
        await pilot.press("f4")
        await settle(pilot)
        assert not screen.query_one("#sidebar").display
        form = screen.query_one(SchemaForm)
        assert form.api is not None and screen.focused is form.first_field()
        await pilot.press(*"abc")
        assert isinstance(screen.focused, Input) and screen.focused.value.endswith("abc")
        assert "f4 Show tree" in footer_text(app) or "^b Show tree" in footer_text(app)


@pytest.mark.parametrize("size", SIZES)
async def test_esc_leaves_the_filter_and_an_empty_filter_says_so(
    make_app: Callable[..., WorkbenchApp], size: tuple[int, int]
) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = await fixture_ready(pilot)
        tree = screen.query_one(ToolTree)
        await pilot.press("slash")
        await pilot.press(*"zzqx")
        await settle(pilot)
        assert "nothing matches “zzqx”" in screen_text(app)
        assert footer_text(app).startswith(" esc Back to tree")
        await pilot.press("escape")
        await settle(pilot)
        assert screen.focused is tree
        # The screen's keys are keys again, not letters in the filter.
        theme = app.theme
        await pilot.press("t")
        await settle(pilot)
        assert app.theme != theme
        assert screen.query_one("#filter", Input).value == "zzqx"


async def test_the_footer_lists_keys_before_the_app_has_the_focus(
    make_app: Callable[..., WorkbenchApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await fixture_ready(pilot)
        # A served page starts without the focus (no key may be pressed: a key gives it).
        await app._on_app_blur(events.AppBlur())
        assert not app.app_focus
        assert screen.catalog is not None
        ref = screen.catalog.resolve_ref("fixtures/local-system/writeFile.yaml#new-notes")
        assert screen.query_one(ToolTree).select_ref(ref.key)
        await settle(pilot)
        for _ in range(3):
            screen.action_prev_phase()
        await settle(pilot)
        assert screen.call_view.intervention is not None
        keys = [key.key_display for key in screen.query_one(Footer).query(FooterKey)]
        assert keys[:3] == ["y", "n", "esc"]  # the footer followed, unfocused


async def test_at_60_columns_the_footer_keeps_quit_before_a_lesser_key(
    make_app: Callable[..., WorkbenchApp],
) -> None:
    # Quit and Keys did not both fit after the screen's own keys: both went, and Portal took
    # the room Quit would have had.
    app = make_app()
    async with app.run_test(size=(60, 24)) as pilot:
        await fixture_ready(pilot)
        footer = footer_text(app)
        assert "^q Quit" in footer and "Portal" not in footer, footer
