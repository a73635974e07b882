"""A call recorded in the live TUI (F2) never fails ``workbench check`` or ``review --check``
by itself; the save dialog offers waivers for the kinds the API still lacks."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from textual.widgets import Checkbox, Input, Label

from tests.app.test_live_screen import pick, ready, wait_for
from workbench.app.app import WorkbenchApp
from workbench.app.screens.save_fixture_screen import SaveFixtureScreen
from workbench.app.widgets.history_panel import HistoryPanel
from workbench.app.widgets.tool_card import ToolCard
from workbench.cli import main
from workbench.config import load_config
from workbench.rendering.screen import settle
from workbench.session import LiveOptions, build_session

pytestmark = pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")

PYPROJECT = """\
[project]
name = "recorded"
version = "0"

[tool.workbench]
fixtures = ["fixtures"]
include_bundled = false
plugins = false
"""


def make_project(tmp_path: Path) -> WorkbenchApp:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (tmp_path / "fixtures").mkdir()
    config = load_config(tmp_path)
    session = build_session(LiveOptions(include_demo=True, workspace=tmp_path), config=config)
    return WorkbenchApp(live_session=session, animate=False)


async def call_weather(pilot, screen) -> None:  # type: ignore[no-untyped-def]
    form = await pick(pilot, screen, "demo", "demo", "weather")
    form._widgets["city"].value = "Lisbon"
    form.action_submit()
    card = screen.query_one(ToolCard)
    await wait_for(
        pilot, lambda: card.call_state is not None and card.call_state.phase.is_terminal, 30
    )
    await wait_for(pilot, lambda: screen.query_one(HistoryPanel).entries[0].state is not None)


async def open_dialog(pilot) -> SaveFixtureScreen:  # type: ignore[no-untyped-def]
    await pilot.press("f2")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, SaveFixtureScreen))
    await settle(pilot)
    dialog = pilot.app.screen
    assert isinstance(dialog, SaveFixtureScreen)
    return dialog


async def test_a_recorded_mcp_call_passes_check_and_the_review_gate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_project(tmp_path)
    async with app.run_test(size=(170, 56)) as pilot:
        screen = await ready(pilot)
        await call_weather(pilot, screen)
        await open_dialog(pilot)
        await pilot.press("ctrl+s")
        entry = screen.query_one(HistoryPanel).entries[0]
        await wait_for(pilot, lambda: entry.saved_as is not None, 30)
    assert (tmp_path / "recordings" / "demo" / "weather.yaml").exists()
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    checked = runner.invoke(main, ["check"])
    assert checked.exit_code == 0, checked.output
    # The recording is checked and audited, and its missing kinds are shown as observed.
    assert "1 fixture file(s), 1 variant(s)" in checked.output, checked.output
    covered = runner.invoke(main, ["coverage"])
    assert "observed" in covered.output, covered.output
    reviewed = runner.invoke(main, ["review", "--check"])
    assert reviewed.exit_code == 0, reviewed.output
    assert "the review gate passes" in reviewed.output
    # Its cases are on the board, not hidden: a reviewer can opt in by accepting them.
    assert re.search(r"\b[1-9][0-9]* new case\(s\) of recordings", reviewed.output)
    # --require-review still asks for every case to be reviewed, recordings included.
    strict = runner.invoke(main, ["review", "--check", "--require-review"])
    assert strict.exit_code == 1, strict.output
    # Opting in: once accepted (the snapshots are committed), a change fails like any other.
    accepted = runner.invoke(main, ["review", "--accept-all", "--note", "first look"])
    assert accepted.exit_code == 0, accepted.output
    recording = tmp_path / "recordings" / "demo" / "weather.yaml"
    text = recording.read_text(encoding="utf-8")
    assert "sunny" in text
    recording.write_text(text.replace("sunny", "stormy"), encoding="utf-8")
    changed = runner.invoke(main, ["review", "--check"])
    assert changed.exit_code == 1 and "changed (text) and not accepted" in changed.output, (
        changed.output
    )


async def test_the_save_dialog_writes_the_chosen_waivers_with_their_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_project(tmp_path)
    async with app.run_test(size=(170, 56)) as pilot:
        screen = await ready(pilot)
        await call_weather(pilot, screen)
        dialog = await open_dialog(pilot)
        boxes = {box.id: box for box in dialog.query(Checkbox)}
        # The kinds the API lacks; the one being recorded is covered by this save.
        assert set(boxes) == {"waive-typical", "waive-empty", "waive-error", "waive-truncated"}
        assert [name for name, box in boxes.items() if box.disabled] == ["waive-typical"]
        boxes["waive-empty"].value = True
        boxes["waive-truncated"].value = True
        await settle(pilot)
        # A waiver without a reason is refused: the dialog stays open and says so.
        reason = dialog.query_one("#save-reason", Input)
        reason.value = ""
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert pilot.app.screen is dialog
        assert "Say why the API cannot produce 'empty', 'truncated'" in str(
            dialog.query_one("#save-error", Label).render()
        )
        reason.value = "the demo server always has weather, in one short line"
        await settle(pilot)
        await pilot.press("ctrl+s")
        entry = screen.query_one(HistoryPanel).entries[0]
        await wait_for(pilot, lambda: entry.saved_as is not None, 30)
    text = (tmp_path / "recordings" / "demo" / "weather.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    assert data["waivers"] == [
        {"kind": "empty", "reason": "the demo server always has weather, in one short line"},
        {"kind": "truncated", "reason": "the demo server always has weather, in one short line"},
    ]
    monkeypatch.chdir(tmp_path)
    covered = CliRunner().invoke(main, ["coverage", "--format", "json"])
    [row] = json.loads(covered.output)["apis"]
    assert row["kinds"] == {
        "typical": "covered",
        "empty": "waived",
        "error": "observed",
        "truncated": "waived",
        "loading": "covered",
    }


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_save_dialog_fits_with_its_waivers(tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_project(tmp_path)
    async with app.run_test(size=size) as pilot:
        screen = await ready(pilot)
        await call_weather(pilot, screen)
        dialog = await open_dialog(pilot)
        height = size[1]
        for selector in ("#save-label", "#waive-error", "#save-reason", "#save"):
            region = dialog.query_one(selector).region
            assert region.height > 0 and region.y >= 0 and region.bottom <= height, selector
            assert region.right <= size[0], selector
        # Every control can be reached and used from the keyboard.
        dialog.query_one("#waive-error", Checkbox).focus()
        await pilot.press("space")
        await settle(pilot)
        assert dialog.query_one("#waive-error", Checkbox).value is True
