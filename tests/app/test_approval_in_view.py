"""An approval is answered where it is seen: the card's header and the reason for asking stay
in view with the answer bar, the footer leads with y / n / esc, at 80x24 and 120x40, live and
replayed; after esc the card's header is still there."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from tests.app.test_live_screen import field, make_app, pick, ready, wait_for
from workbench.app.app import WorkbenchApp
from workbench.app.screens.fixture_screen import FixtureScreen
from workbench.app.widgets.intervention_bar import InterventionBar
from workbench.app.widgets.tool_card import ToolCard
from workbench.core.call_state import Phase
from workbench.project import open_project
from workbench.rendering.screen import screen_text, settle

SIZES = [(80, 24), (120, 40)]


def footer_entries(app: WorkbenchApp) -> list[str]:
    """The footer's entries as drawn, left to right (the palette key last)."""
    footer = app.screen.query_one(Footer)
    keys = [key for key in footer.query(FooterKey) if key.display]
    # Never half an entry: each one drawn lies wholly inside the footer, left of the palette.
    palette = [key for key in keys if key.has_class("-command-palette")]
    right = palette[0].region.x if palette else footer.region.right
    for key in keys:
        if not key.has_class("-command-palette"):
            assert key.region.right <= right, f"{key.key_display} is cut at the edge"
    return [f"{key.key_display} {key.description}".strip() for key in keys]


def in_view(app: WorkbenchApp, *texts: str) -> None:
    text = screen_text(app)
    for wanted in texts:
        assert wanted in text, f"{wanted!r} not on screen:\n{text}"


@pytest.mark.parametrize("size", SIZES)
async def test_a_live_approval_shows_the_card_the_reason_and_the_answer_at_once(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        screen = await ready(pilot)
        form = await pick(pilot, screen, "python", "local-system", "runCommand")
        field(form, "command").value = "printf one; printf two | cat"
        await pilot.press("ctrl+s")
        card = screen.query_one(ToolCard)
        await wait_for(
            pilot,
            lambda: (
                card.call_state is not None
                and card.call_state.phase is Phase.AWAITING_APPROVAL
                and screen.call_view.intervention is not None
            ),
        )
        await settle(pilot)
        in_view(app, "Local System · runCommand", "Approval needed", "Approve (y)", "Skip (n)")
        entries = footer_entries(app)
        assert entries[:3] == ["y Approve", "n Skip…", "esc Cancel call"], entries
        # Typing the reason to skip: y and n type, and the footer still lists them.
        await pilot.press("n")
        bar = screen.call_view.intervention
        assert isinstance(bar, InterventionBar) and screen.focused is bar.query_one("#reason")
        await settle(pilot)
        assert footer_entries(app)[:3] == ["y Approve", "n Skip…", "esc Cancel call"]
        await pilot.press("escape")
        await wait_for(pilot, lambda: card.call_state.phase.is_terminal)
        await settle(pilot)
        assert card.call_state.phase is Phase.CANCELLED
        in_view(app, "Local System · runCommand", "Cancelled")


@pytest.mark.parametrize("size", SIZES)
async def test_a_replayed_approval_keeps_the_header_and_reason_above_the_answer(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    app = WorkbenchApp(
        lambda: open_project([]),
        animate=False,
        select="fixtures/local-system/writeFile.yaml#new-notes",
    )
    async with app.run_test(size=size) as pilot:
        await app.workers.wait_for_complete()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, FixtureScreen) and screen.script is not None
        await pilot.press(*["left_square_bracket"] * 3)
        await settle(pilot)
        assert screen.state is not None and screen.state.phase is Phase.AWAITING_APPROVAL
        # writeFile's approval card is taller than the pane at 80x24: its top stays in view.
        in_view(app, "Local System · writeFile", "Approval needed", "Approve (y)", "Cancel (esc)")
        assert footer_entries(app)[:3] == ["y Approve", "n Skip…", "esc Cancel"]
        await pilot.press("escape")
        await settle(pilot)
        assert screen.state.phase is Phase.CANCELLED
        in_view(app, "Local System · writeFile", "Cancelled")
        # Between questions the footer leads with the phase keys.
        assert footer_entries(app)[0] == "[ ] Phase" or footer_entries(app)[0].startswith("[")
