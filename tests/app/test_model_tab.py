"""The details pane's Model tab: the selected result as each host's model reads it."""

from __future__ import annotations

from rich.console import Console
from textual.widgets import Static

from tests.app.test_fixture_screen import SIZE, ready, select
from workbench.app.app import WorkbenchApp
from workbench.hosts import bundled_hosts
from workbench.rendering.screen import settle


def text_of(static: Static) -> str:
    console = Console(width=120, color_system=None)
    with console.capture() as captured:
        console.print(static.content)
    return captured.get()


async def test_the_model_tab_shows_each_hosts_rule_and_what_its_model_reads() -> None:
    app = WorkbenchApp(animate=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await select(pilot, screen, "twenty-thousand-lines")
        details = screen.call_view.details
        tabs = details.query_one("TabbedContent")
        tabs.active = "details-model"  # type: ignore[attr-defined]
        await settle(pilot)
        shown = text_of(details.query_one("#details-model-body", Static))
        assert "Codex CLI (codex" in shown and "gemini-cli (gemini-cli" in shown
        assert "no host" not in shown  # `none` is left out unless asked for
        assert "[showing the last 60 of 20000 output lines]" in shown
        details.set_hosts([bundled_hosts().get("opencode")])
        await settle(pilot)
        shown = text_of(details.query_one("#details-model-body", Static))
        assert "OpenCode (opencode" in shown and "Codex CLI" not in shown
