"""A call recorded (F2) from an MCP server replays with what the server gave it: the tool's
title and emoji, and its MCP App UI section, also when the recording is named on its own."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.app.test_live_screen import SIZE, make_app, pick, ready, save_with_dialog, wait_for
from workbench.cli import main
from workbench.core.call_state import Phase

pytestmark = pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")


async def test_a_recorded_app_call_replays_with_its_title_emoji_and_app_section(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pick(pilot, screen, "demo", "demo", "clock")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.state is not None and screen.state.phase is Phase.DONE)
        await save_with_dialog(pilot, screen)
        path = tmp_path / "recordings" / "demo" / "clock.yaml"
        await wait_for(pilot, path.exists, 30)
        await wait_for(pilot, (path.parent / "manifest.yaml").exists, 30)
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    reference = "recordings/demo/clock.yaml#clock-lisbon"
    card = runner.invoke(main, ["show", reference, "--width", "100"])
    assert card.exit_code == 0, card.output
    assert "🔌 workbench-demo · clock · has an app UI" in card.stdout and "❔" not in card.stdout
    portal = runner.invoke(main, ["show", reference, "--surface", "portal", "--width", "100"])
    assert portal.exit_code == 0, portal.output
    assert "🔌 workbench-demo · clock" in portal.stdout
    assert "app UI (MCP Apps)" in portal.stdout and "ui://demo/clock.html" in portal.stdout
    assert "https://time.example.com" in portal.stdout
