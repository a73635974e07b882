"""Live mode never loses a key press: choosing an API puts the cursor in its first required
field, Tab from the tree goes there too, and every focus stop takes what is typed. The card
under a form is that API's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widget import Widget
from textual.widgets import Button, Input, ListView, Select, Switch, Tabs, TextArea, Tree

from tests.app.test_live_screen import make_app, pick, ready, wait_for
from workbench.app.screens.live_screen import LiveScreen
from workbench.app.widgets.phase_stepper import PhaseStepper
from workbench.app.widgets.schema_form import SchemaForm
from workbench.app.widgets.source_tree import SourceTree
from workbench.app.widgets.tool_card import ToolCard
from workbench.rendering.screen import screen_text, settle

SIZES = [(80, 24), (120, 40)]

TAKES_KEYS = (Input, TextArea, Select, Switch, Button, Tree, ListView, Tabs)
"""Widgets where a key does something: typing, choosing, pressing, moving a cursor."""


def api_node_line(tree: SourceTree, address: tuple[str, str, str]) -> int:
    node = next(node for node in tree._walk(tree.root) if node.data == address)
    return node.line


async def typed_lands(pilot, screen: LiveScreen, text: str = "7") -> Widget:
    """Type ``text`` at the focused widget and check it went somewhere."""
    focused = screen.focused
    assert isinstance(focused, TAKES_KEYS), f"the focus is on {focused!r}: keys would be lost"
    if isinstance(focused, Input):
        # Tab selects a field's text, so typing replaces it: either way the keys are in.
        await pilot.press(*text)
        assert focused.value.endswith(text)
    elif isinstance(focused, TextArea):
        before = focused.text
        await pilot.press(*text)
        assert focused.text != before
    return focused


@pytest.mark.parametrize("size", SIZES)
async def test_tab_from_the_tree_and_enter_on_an_api_go_to_its_first_required_field(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        screen = await ready(pilot)
        tree = screen.query_one(SourceTree)
        form = await pick(pilot, screen, "python", "calculator", "calculate")
        tree.focus()
        await settle(pilot)
        # The first Tab from the tree: straight into the form, and what is typed lands there.
        await pilot.press("tab")
        await settle(pilot)
        assert screen.focused is form._widgets["expression"]
        await pilot.press(*"1+1")
        assert form._widgets["expression"].value == "1+1"
        # Enter on an API in the tree: its first required field.
        form = await pick(pilot, screen, "python", "local-system", "runCommand")
        tree.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert screen.focused is form._widgets["command"]
        await pilot.press(*"ls")
        assert form._widgets["command"].value == "ls"


@pytest.mark.parametrize("size", SIZES)
async def test_a_click_on_an_api_puts_the_cursor_in_its_first_required_field(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        screen = await ready(pilot)
        tree = screen.query_one(SourceTree)
        address = ("python", "local-system", "runCommand")
        tree.scroll_home(animate=False, immediate=True)
        await settle(pilot)
        line = api_node_line(tree, address)
        await pilot.click(SourceTree, offset=(8, line - tree.scroll_offset.y))
        await settle(pilot)
        form = screen.query_one(SchemaForm)
        assert form.api is not None and form.api.name == "runCommand"
        assert screen.focused is form._widgets["command"]
        await pilot.press(*"pwd")
        assert form._widgets["command"].value == "pwd"


@pytest.mark.parametrize("size", SIZES)
async def test_every_focus_stop_takes_what_is_typed(tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        screen = await ready(pilot)
        await pick(pilot, screen, "python", "calculator", "calculate")
        screen.query_one(SourceTree).focus()
        await settle(pilot)
        stops = len(screen.focus_chain)
        seen: list[str] = []
        for key in ["tab"] * (stops + 1) + ["shift+tab"] * (stops + 1):
            await pilot.press(key)
            await settle(pilot)
            focused = await typed_lands(pilot, screen)
            seen.append(type(focused).__name__)
        # The walk went through the form and back to the tree.
        assert "Input" in seen and "SourceTree" in seen


@pytest.mark.parametrize("size", SIZES)
async def test_another_api_shows_its_own_card_only(tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        screen = await ready(pilot)
        form = await pick(pilot, screen, "python", "calculator", "calculate")
        form._widgets["expression"].value = "6 * 7"
        await pilot.press("ctrl+s")
        card = screen.query_one(ToolCard)
        await wait_for(
            pilot, lambda: card.call_state is not None and card.call_state.phase.is_terminal
        )
        await pick(pilot, screen, "python", "local-system", "runCommand")
        await settle(pilot)
        # No calculator card or stepper under the runCommand form.
        assert card.call_state is None
        assert screen.query_one(PhaseStepper).phases == ()
        text = screen_text(app)
        assert "Calculator · calculate" not in text and "6 * 7" not in text.split("╯", 1)[-1]
        # Back on the calculator: its latest call is on the card again.
        await pick(pilot, screen, "python", "calculator", "calculate")
        await settle(pilot)
        assert card.call_state is not None and card.call_state.api == "calculate"
        assert "Calculator · calculate" in screen_text(app)
