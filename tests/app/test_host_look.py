"""The host-look key: the card folded as each host first shows it, then whole again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import Static

from tests.app.test_fixture_screen import ready, select
from tests.app.test_live_screen import ready as live_ready
from workbench.app.app import WorkbenchApp
from workbench.app.widgets.key_footer import KeyFooter
from workbench.config import WorkbenchConfig, load_config
from workbench.hosts import bundled_hosts
from workbench.project import open_project
from workbench.rendering.screen import screen_text, settle
from workbench.session import LiveOptions, build_session

REPO = Path(__file__).resolve().parents[2]
BUNDLED_ORDER = [name for name in sorted(bundled_hosts().profiles) if name != "none"]


def footer_text(app: WorkbenchApp) -> str:
    footer = app.screen.query_one(KeyFooter)
    return " ".join(str(label.render()) for label in footer.query("FooterKey"))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_h_cycles_the_card_through_each_hosts_first_look_and_back(
    make_app: Callable[..., WorkbenchApp], size: tuple[int, int]
) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = await ready(pilot)
        await select(pilot, screen, "twenty-thousand-lines")
        view = screen.call_view
        card = view.card
        assert [host.name for host in view.look_hosts] == BUNDLED_ORDER  # none targeted
        whole = card.size.height
        assert "first shows it" not in view.status_line.plain
        seen = []
        for _ in BUNDLED_ORDER:
            await pilot.press("h")
            await settle(pilot)
            shown = screen_text(app)
            host = card.host_look
            assert host is not None
            seen.append(host.name)
            status = view.status_line.plain
            assert f"as {host.title} first shows it: " in status
            look = card.first_look()
            assert look is not None
            if host.user is not None and look.hidden:
                said = f"{look.hidden:,} of {look.body_lines:,} lines hidden until "
                assert said + host.user.expand in status
                assert card.size.height < whole  # folded: fewer rows than the full card
                # The host's own elision line, in the card's frame (cut with … when too wide).
                assert look.elision is not None and look.elision[:18] in shown
            # The line under the card keeps what it says about the host visible at any width.
            assert f"as {host.title}" in str(view.status_line.render())
        assert seen == BUNDLED_ORDER
        await pilot.press("h")
        await settle(pilot)
        assert card.host_look is None and card.size.height == whole
        assert "first shows it" not in view.status_line.plain


async def test_codex_folds_to_its_first_and_last_five_lines_named_in_the_footer(
    make_app: Callable[..., WorkbenchApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await select(pilot, screen, "twenty-thousand-lines")
        assert "Host look" in footer_text(app)
        card = screen.call_view.card
        while card.host_look is None or card.host_look.name != "codex":
            await pilot.press("h")
        await settle(pilot)
        look = card.first_look()
        assert look is not None and look.hidden == look.body_lines - 10
        assert f"… +{look.hidden:,} lines" in screen_text(app)
        assert "Look: codex" in footer_text(app)
        titles = {command.title: command for command in app.get_system_commands(screen)}
        assert "Host look" in titles
        titles["Host look"].callback()
        await settle(pilot)
        assert card.host_look is not None and card.host_look.name == "crush"


def targeted_project(tmp_path: Path) -> WorkbenchConfig:
    (tmp_path / "pyproject.toml").write_text(
        "[tool.workbench]\n"
        f'fixtures = ["{(REPO / "fixtures" / "local-system").as_posix()}"]\n'
        'hosts = ["codex", "gemini-cli"]\n'
    )
    return load_config(tmp_path)


def model_tab_text(app: WorkbenchApp) -> str:
    body = app.screen.query_one("#details-model-body", Static)
    console = Console(width=120, color_system=None)
    with console.capture() as captured:
        console.print(body.content)
    return captured.get()


async def test_the_project_targets_are_the_hosts_offered_and_read_in_the_model_tab(
    tmp_path: Path,
) -> None:
    config = targeted_project(tmp_path)
    app = WorkbenchApp(lambda: open_project(config=config), animate=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await select(pilot, screen, "twenty-thousand-lines")
        view = screen.call_view
        assert [host.name for host in view.look_hosts] == ["codex", "gemini-cli"]
        await pilot.press("h", "h")
        await settle(pilot)
        assert view.card.host_look is not None and view.card.host_look.name == "gemini-cli"
        await pilot.press("h")
        await settle(pilot)
        assert view.card.host_look is None
        view.details.query_one("TabbedContent").active = "details-model"  # type: ignore[attr-defined]
        await settle(pilot)
        shown = model_tab_text(app)
        assert "Codex CLI (codex" in shown and "gemini-cli (gemini-cli" in shown
        assert "Claude Code" not in shown and "OpenCode" not in shown


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_f3_in_live_mode_offers_the_targeted_hosts_first_look(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    config = targeted_project(tmp_path)
    session = build_session(LiveOptions(include_demo=False, workspace=tmp_path), config=config)
    app = WorkbenchApp(live_session=session, animate=False)
    async with app.run_test(size=size) as pilot:
        screen = await live_ready(pilot)
        await pilot.app.workers.wait_for_complete()
        view = screen.call_view
        assert [host.name for host in view.look_hosts] == ["codex", "gemini-cli"]
        titles = [command.title for command in app.get_system_commands(screen)]
        assert "Host look" in titles
        await pilot.press("f3")
        await settle(pilot)
        assert view.card.host_look is not None and view.card.host_look.name == "codex"
        # No call yet: the line under the card says so rather than a count.
        assert "as Codex CLI first shows it: no call to fold" in view.status_line.plain
        await pilot.press("f3", "f3")
        await settle(pilot)
        assert view.card.host_look is None
