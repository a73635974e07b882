"""Pilot tests of the rest of the MCP conversation in live mode: a server's form, URL and
sampling requests answered mid-call, resources, templates and prompts in the tree, the
server log, a changed tool list, and a recording without credentials."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from textual.widgets import Input, TextArea

from tests.app.test_live_screen import SIZE, make_app, pick, ready, save_with_dialog, wait_for
from workbench.app.widgets.input_request_bar import InputRequestBar
from workbench.app.widgets.portal_panel import PortalPanel
from workbench.app.widgets.schema_form import SchemaForm
from workbench.app.widgets.server_log_panel import ServerLogPanel
from workbench.app.widgets.source_tree import CatalogAddress, SourceTree
from workbench.core.call_state import Phase
from workbench.rendering.screen import screen_text, settle

pytestmark = pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")


async def card_text(pilot: object, screen: object) -> str:
    """The screen with the stage scrolled to the top of the card (the answer controls sit
    below the card, and the stage scrolls to them)."""
    screen.query_one("#stage").scroll_home(animate=False)  # type: ignore[attr-defined]
    await settle(pilot)  # type: ignore[arg-type]
    return screen_text(pilot.app)  # type: ignore[attr-defined]


def asking(screen: object) -> InputRequestBar | None:
    """The controls answering the server's request under the card, if they are open."""
    intervention = screen.call_view.intervention  # type: ignore[attr-defined]
    return intervention if isinstance(intervention, InputRequestBar) else None


def phase_of(screen: object) -> Phase | None:
    state = screen.state  # type: ignore[attr-defined]
    return state.phase if state is not None else None


async def test_a_form_the_server_sends_mid_call_is_answered_in_the_card(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pick(pilot, screen, "demo", "demo", "ask_profile")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: phase_of(screen) is Phase.AWAITING_INPUT)
        await wait_for(pilot, lambda: (bar := asking(screen)) is not None and bool(bar.form.api))
        # The first field has the keys: typing answers the server.
        await wait_for(pilot, lambda: isinstance(app.focused, Input))
        text = await card_text(pilot, screen)
        assert "Awaiting your answer" in text and "The server asks for input" in text
        assert "Who is using the demo?" in text and "one of: Tools, Models" in text
        await pilot.press(*"Ada", "enter")
        await wait_for(pilot, lambda: phase_of(screen) is Phase.DONE)
        assert screen.state is not None and screen.state.result is not None
        assert screen.state.result.content == "Hello Ada."
        [exchange] = screen.state.exchanges
        assert exchange.answer is not None and exchange.answer.content == {
            "name": "Ada",
            "newsletter": False,
        }
        assert asking(screen) is None
        await settle(pilot)
        # The log panel follows the server of the picked API.
        log = screen.query_one(ServerLogPanel)
        await wait_for(pilot, lambda: any("elicitation" in line for line in log.lines()))


async def test_escape_cancels_the_servers_request_and_the_call_goes_on(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pick(pilot, screen, "demo", "demo", "ask_profile")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: asking(screen) is not None)
        await pilot.press("escape")
        await wait_for(pilot, lambda: phase_of(screen) is Phase.DONE)
        assert screen.state is not None and screen.state.result is not None
        assert screen.state.result.content == "No profile (cancel): hello, anonymous user."


async def test_a_url_is_opened_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path)
    opened: list[str] = []
    monkeypatch.setattr(app, "open_url", lambda url, **_: opened.append(url))
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pick(pilot, screen, "demo", "demo", "sign_in")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: asking(screen) is not None)
        text = await card_text(pilot, screen)
        assert "The server asks you to open a page" in text
        assert "auth.example.com" in text and "nothing opens by itself" in text
        assert opened == []
        await pilot.click(".-open")
        await wait_for(pilot, lambda: phase_of(screen) is Phase.DONE)
        assert opened == ["https://auth.example.com/device?code=WB-DEMO"]
        assert screen.state is not None and screen.state.result is not None
        assert screen.state.result.content == "Sign-in accepted."


async def test_a_sampling_reply_is_written_and_approved_by_the_person(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pick(pilot, screen, "demo", "demo", "summarize")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: (bar := asking(screen)) is not None and bar.reply is not None)
        await wait_for(pilot, lambda: isinstance(app.focused, TextArea))
        text = await card_text(pilot, screen)
        assert "The server asks for a model's reply" in text
        assert "Summarise in one sentence." in text and "claude-3-haiku" in text
        assert "no model is called" in text
        await pilot.press(*"Servers ask.")
        await pilot.click(".-approve")
        await wait_for(pilot, lambda: phase_of(screen) is Phase.DONE)
        assert screen.state is not None and screen.state.result is not None
        assert screen.state.result.content == "Summary (workbench-user): Servers ask."


async def test_resources_templates_and_prompts_open_in_the_portal(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        tree = screen.query_one(SourceTree)
        addresses = [
            node.data for node in tree._walk(tree.root) if isinstance(node.data, CatalogAddress)
        ]
        assert CatalogAddress("resource", "demo", "demo://config.json") in addresses
        assert CatalogAddress("template", "demo", "demo://chapters/{number}") in addresses
        assert CatalogAddress("prompt", "demo", "review_code") in addresses
        portal = screen.query_one(PortalPanel)

        async def choose(address: CatalogAddress) -> None:
            node = next(node for node in tree._walk(tree.root) if node.data == address)
            node.parent.expand()  # type: ignore[union-attr]
            await settle(pilot)
            tree.move_cursor(node)
            tree.focus()
            await pilot.press("enter")
            await settle(pilot)

        await choose(CatalogAddress("resource", "demo", "demo://config.json"))
        await wait_for(pilot, lambda: portal.is_open and '"retries"' in screen_text(app))
        await choose(CatalogAddress("resource", "demo", "demo://logo.png"))
        await wait_for(pilot, lambda: "16×16 px" in screen_text(app))
        await choose(CatalogAddress("template", "demo", "demo://chapters/{number}"))
        form = screen.query_one("#form", SchemaForm)
        assert form.api is not None and list(form.api.parameters["properties"]) == ["number"]
        form.fill({"number": "3"})
        await settle(pilot)
        form.action_submit()
        await wait_for(pilot, lambda: "The text of chapter 3." in screen_text(app))
        assert screen.state is None  # Reading a resource is not a call.
        await choose(CatalogAddress("prompt", "demo", "review_code"))
        form.fill({"code": "print(1)"})
        await settle(pilot)
        form.action_submit()
        await wait_for(pilot, lambda: "Review this code for correctness:" in screen_text(app))


async def test_resource_links_of_a_result_open_in_the_portal(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pick(pilot, screen, "demo", "demo", "embedded_resource")
        await pilot.press("f9")  # Nothing on the card yet.
        await pick(pilot, screen, "demo", "demo", "resource_links")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: phase_of(screen) is Phase.DONE)
        await pilot.press("f9")
        # The demo's links point at files it does not serve: the Portal says so.
        await wait_for(pilot, lambda: "file:///docs/chapter-1.md" in screen_text(app))
        assert "Could not read" in screen_text(app)


async def test_a_changed_tool_list_refreshes_the_tree(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        demo = next(source for source in screen.session.manager.sources if source.name == "demo")
        before = demo.revision
        await pick(pilot, screen, "demo", "demo", "chatty")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: phase_of(screen) is Phase.DONE)
        await wait_for(pilot, lambda: demo.revision > before)
        await wait_for(pilot, lambda: screen._revisions == screen._source_revisions())
        assert screen.state is not None
        kinds = [item.kind for item in screen.state.server_messages.items]
        # The live session asks for "info" (logging/setLevel): the demo's debug line stays out.
        assert kinds.count("log") == 3 and "list-changed" in kinds
        await pilot.click("#details Tab#--content-tab-details-server")
        await settle(pilot)
        text = screen_text(app)
        assert "server log" in text and "3 rows found" in text


async def test_saving_a_call_writes_its_server_events(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pick(pilot, screen, "demo", "demo", "ask_profile")
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: asking(screen) is not None and isinstance(app.focused, Input), 30
        )
        await pilot.press(*"Ada", "enter")
        await wait_for(pilot, lambda: phase_of(screen) is Phase.DONE)
        await save_with_dialog(pilot, screen)
        path = tmp_path / "recordings" / "demo" / "ask_profile.yaml"
        await wait_for(pilot, path.exists, 30)
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        [event] = data["variants"][0]["server_events"]
        assert event["elicitation"]["message"].startswith("Who is using the demo?")
        assert event["answer"]["content"]["name"] == "Ada"
