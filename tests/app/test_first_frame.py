"""The fixture screen's first frame: the tree and the first variant's card, drawn together.

A start waits for that frame (`bench/startup.py` times it); a card drawn empty first ("Pick a
fixture variant…") is a whole frame of waiting that shows nothing to look at.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rich.console import RenderableType

from workbench.app.app import WorkbenchApp
from workbench.app.screens.fixture_screen import FixtureScreen
from workbench.app.widgets.tool_card import ToolCard
from workbench.app.widgets.tool_tree import ToolTree
from workbench.core.call_state import CallState
from workbench.fixtures.catalog import VariantRef
from workbench.project import open_project
from workbench.rendering.screen import screen_text, settle


async def test_a_start_never_draws_the_card_empty(
    make_app: Callable[..., WorkbenchApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[CallState | None] = []
    workers_then: list[set[str | None]] = []
    render = ToolCard.render

    def noting_render(card: ToolCard) -> RenderableType:
        if card.call_state is not None and not workers_then:
            workers_then.append({worker.group for worker in card.app.workers})
        drawn.append(card.call_state)
        return render(card)

    monkeypatch.setattr(ToolCard, "render", noting_render)
    project = open_project()
    app = make_app(loader=lambda: project)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, FixtureScreen)
        tree = screen.query_one(ToolTree)
        # The card on the stage is the variant under the tree's cursor…
        assert tree.cursor_node is not None and isinstance(tree.cursor_node.data, VariantRef)
        assert screen.ref == tree.cursor_node.data
        assert "Calculator · calculate" in screen_text(app)
        # …and it was never drawn without a call.
        assert drawn and None not in drawn
        # The host profiles (for `h` and the Model tab) were read after that first drawing,
        # not in a thread beside it.
        assert "hosts" not in workers_then[0]


async def test_a_start_shows_the_tree_from_its_first_row(
    make_app: Callable[..., WorkbenchApp],
) -> None:
    # The first variant is selected before the tree has a height: its tool and API rows
    # must still be in view, not scrolled away.
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await settle(pilot)
        tree = app.screen.query_one(ToolTree)
        assert tree.scroll_offset.y == 0
        text = screen_text(app)
        assert "▼ 🧮 Calculator" in text and "calculate" in text
