"""Cards honour ``renderDisplayControl``: a collapsed API's done card first shows its Inspector
and one summary line, a key opens and folds it (in the footer and the palette), and an approval
or an error is never folded away."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.test_approval_in_view import footer_entries, in_view
from workbench.app.app import WorkbenchApp
from workbench.app.screens.fixture_screen import FixtureScreen
from workbench.app.widgets.tool_card import ToolCard
from workbench.core.call_state import Phase
from workbench.project import open_project
from workbench.rendering.screen import screen_text, settle

SIZES = [(80, 24), (120, 40)]
REPO = Path(__file__).resolve().parents[2]


def replay_app(monkeypatch: pytest.MonkeyPatch, select: str) -> WorkbenchApp:
    monkeypatch.chdir(REPO)
    return WorkbenchApp(lambda: open_project([]), animate=False, select=select)


async def ready(app: WorkbenchApp, pilot) -> FixtureScreen:
    await app.workers.wait_for_complete()
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, FixtureScreen) and screen.state is not None
    return screen


@pytest.mark.parametrize("size", SIZES)
async def test_a_collapsed_read_opens_and_folds_with_a_key(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    app = replay_app(monkeypatch, "fixtures/local-system/readFile.yaml#large-csv")
    async with app.run_test(size=size) as pilot:
        screen = await ready(app, pilot)
        card = screen.query_one(ToolCard)
        assert screen.state is not None and screen.state.phase is Phase.DONE
        # First look: the Inspector and one line with the outcome and the cut; no file rows.
        assert card.folded and card.size.height == 5
        in_view(app, "Read: data/", "▸ data/big.cs", "showing 20 of 2,000 lines")
        assert "item-5" not in screen_text(app)
        assert "e Expand" in footer_entries(app)
        await pilot.press("e")
        await settle(pilot)
        assert not card.folded and card.size.height > 20
        in_view(app, "1,item-1,37,line 1")
        if size[0] >= 120:  # Open, the key leaves the lead: at 80 columns it gives way.
            assert "e Fold" in footer_entries(app)
        # Stepping through the phases keeps the choice for this call; ctrl+o folds it again.
        await pilot.press("left_square_bracket", "right_square_bracket")
        await settle(pilot)
        assert not card.folded
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert card.folded and card.size.height == 5


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    "select",
    ["readFile.yaml#missing-file", "listFiles.yaml#outside-workspace"],
)
async def test_an_approval_an_error_or_a_skip_is_never_folded(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], select: str
) -> None:
    app = replay_app(monkeypatch, f"fixtures/local-system/{select}")
    async with app.run_test(size=size) as pilot:
        screen = await ready(app, pilot)
        card = screen.query_one(ToolCard)
        assert screen.state is not None and screen.state.phase is not Phase.DONE
        seen = set()
        for _ in range(5):  # Every phase back to the first: none of them folds.
            seen.add(screen.state.phase)
            assert not card.can_fold and not card.folded
            # The fold key is out of the footer while there is nothing to fold, and no-op.
            assert not any(entry.endswith(("Expand", "Fold")) for entry in footer_entries(app))
            await pilot.press("e")
            await settle(pilot)
            assert not card.folded and "▸ " not in screen_text(app)
            await pilot.press("left_square_bracket")
            await settle(pilot)
        assert Phase.AWAITING_APPROVAL in seen or Phase.FAILED in seen


async def test_the_fold_key_is_in_the_command_palette(monkeypatch: pytest.MonkeyPatch) -> None:
    app = replay_app(monkeypatch, "fixtures/local-system/grepContent.yaml#thousands")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await ready(app, pilot)
        commands = {command.title: command.help for command in app.get_system_commands(screen)}
        assert "Expand" in commands and "e / ^o" in commands["Expand"]


@pytest.mark.parametrize("size", SIZES)
async def test_a_live_read_arrives_folded_and_ctrl_o_opens_it(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    from tests.app.test_live_screen import field, make_app, pick, wait_for
    from tests.app.test_live_screen import ready as live_ready

    app = make_app(tmp_path)
    (tmp_path / "notes.txt").write_text("".join(f"line {n}\n" for n in range(1, 41)))
    async with app.run_test(size=size) as pilot:
        screen = await live_ready(pilot)
        form = await pick(pilot, screen, "python", "local-system", "readFile")
        field(form, "path").value = "notes.txt"
        await pilot.press("ctrl+s")
        card = screen.query_one(ToolCard)
        await wait_for(
            pilot, lambda: card.call_state is not None and card.call_state.phase is Phase.DONE
        )
        await settle(pilot)
        assert card.folded and card.size.height == 5
        assert "▸ notes.txt" in screen_text(app)
        await pilot.press("ctrl+o")  # Typed in a form field's place: the card opens.
        await settle(pilot)
        assert not card.folded and card.size.height > 20  # The Render's rows, open.
