"""Pilot tests of live mode: fill a form, approve, stream, render, cancel, record a fixture."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from textual.pilot import Pilot
from textual.widgets import Input, Label, Select, TextArea

from workbench.app.app import WorkbenchApp
from workbench.app.screens.live_screen import LiveScreen
from workbench.app.screens.save_fixture_screen import SaveFixtureScreen
from workbench.app.widgets.history_panel import HistoryPanel
from workbench.app.widgets.intervention_bar import InterventionBar
from workbench.app.widgets.schema_form import SchemaForm
from workbench.app.widgets.source_tree import SourceTree
from workbench.app.widgets.tool_card import ToolCard
from workbench.cli import main
from workbench.config import WorkbenchConfig
from workbench.core.call_state import Phase
from workbench.core.manifest import ToolApi, ToolManifest, ToolMeta
from workbench.core.result import ToolResult, to_result
from workbench.core.runtime import BaseRuntime, CallContext
from workbench.rendering.screen import screen_text, settle
from workbench.session import LiveOptions, build_session
from workbench.sources.python_source import PythonToolSource
from workbench.surfaces.registry import SurfaceKind
from workbench.tools.package import ToolPackage

SIZE = (170, 56)


def make_app(tmp_path: Path) -> WorkbenchApp:
    config = WorkbenchConfig(
        root=tmp_path, fixture_dirs=(tmp_path / "fixtures",), include_bundled=True
    )
    session = build_session(LiveOptions(include_demo=True, workspace=tmp_path), config=config)
    return WorkbenchApp(live_session=session, animate=False)


async def ready(pilot: Pilot) -> LiveScreen:
    screen = pilot.app.screen
    assert isinstance(screen, LiveScreen)
    for _ in range(200):
        await pilot.pause(0.02)
        if not screen.query_one(SourceTree).loading:
            break
    await settle(pilot)
    return screen


async def pick(pilot: Pilot, screen: LiveScreen, source: str, tool: str, api: str) -> SchemaForm:
    tree = screen.query_one(SourceTree)
    node = next(node for node in tree._walk(tree.root) if node.data == (source, tool, api))
    tree.move_cursor(node)
    await settle(pilot)
    form = screen.query_one(SchemaForm)
    assert form.api is not None and form.api.name == api
    return form


def field(form: SchemaForm, key: str):
    return form._widgets[key]


async def wait_for(pilot: Pilot, predicate, timeout: float = 15.0) -> None:
    for _ in range(int(timeout / 0.05)):
        if predicate():
            return
        await pilot.pause(0.05)
    raise AssertionError("condition not reached in time")


async def test_form_fill_approve_stream_render(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        form = await pick(pilot, screen, "python", "local-system", "runCommand")
        command = field(form, "command")
        assert isinstance(command, Input)
        command.focus()
        # The command prints, then waits for the test: the streaming phase lasts until it has
        # been seen, however slowly a loaded machine runs the screen's frames.
        await pilot.press(*"seq -f step-%g 3; until [ -f go ]; do sleep 0.05; done")
        await pilot.press("ctrl+s")
        card = screen.query_one(ToolCard)
        await wait_for(
            pilot,
            lambda: (
                card.call_state is not None and card.call_state.phase is Phase.AWAITING_APPROVAL
            ),
        )
        await settle(pilot)
        assert card.body_kind is SurfaceKind.INTERVENTION
        assert "Approval needed" in screen_text(app)
        bar = screen.call_view.intervention
        assert isinstance(bar, InterventionBar)
        # The focus left the form for the approval: "y" approves.
        assert screen.focused is bar.query_one("#approve")
        await pilot.press("y")
        await wait_for(
            pilot,
            lambda: (
                card.call_state.phase is Phase.STREAMING_OUTPUT
                and card.call_state.output.line_count == 3
            ),
        )
        assert card.body_kind is SurfaceKind.STREAMING
        (tmp_path / "go").touch()
        await wait_for(pilot, lambda: card.call_state.phase.is_terminal)
        await settle(pilot)
        state = card.call_state
        assert state.phase is Phase.DONE and state.output.line_count == 3
        text = screen_text(app)
        assert "step-3" in text and "exit 0" in text
        history = screen.query_one(HistoryPanel)
        assert len(history.entries) == 1 and history.entries[0].state is not None


async def test_required_fields_are_validated_inline(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        form = await pick(pilot, screen, "python", "calculator", "calculate")
        await pilot.click("#submit")
        await settle(pilot)
        assert screen.query_one(HistoryPanel).entries == []
        assert "required" in screen_text(app)
        field(form, "expression").value = "1 + 1"
        field(form, "precision").value = "99"
        await pilot.click("#submit")
        await settle(pilot)
        assert screen.query_one(HistoryPanel).entries == []
        _, errors = form.current_args()
        assert errors == {"precision": "99 is greater than the maximum of 15"}
        field(form, "precision").value = "3"
        await settle(pilot)
        assert await pilot.click("#submit")
        card = screen.query_one(ToolCard)
        await wait_for(pilot, lambda: len(screen.query_one(HistoryPanel).entries) == 1, timeout=5)
        await wait_for(
            pilot, lambda: card.call_state is not None and card.call_state.phase.is_terminal
        )
        assert card.call_state.args == {"expression": "1 + 1", "precision": 3}


async def test_cancel_a_running_call(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        form = await pick(pilot, screen, "demo", "demo", "sleep")
        seconds = field(form, "seconds")
        seconds.value = "30"
        form.action_submit()
        card = screen.query_one(ToolCard)
        await wait_for(
            pilot, lambda: card.call_state is not None and card.call_state.phase is Phase.EXECUTING
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: card.call_state.phase.is_terminal, timeout=10)
        assert card.call_state.phase is Phase.CANCELLED
        assert "cancelled" in card.call_state.result.content.lower()


async def save_with_dialog(
    pilot: Pilot, screen: LiveScreen, *, label: str | None = None, kind: str | None = None
) -> SaveFixtureScreen:
    """Press F2, answer the dialog (label, kind), save with ctrl+s; returns the dialog."""
    await pilot.press("f2")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, SaveFixtureScreen))
    dialog = pilot.app.screen
    assert isinstance(dialog, SaveFixtureScreen)
    await settle(pilot)
    if label is not None:
        dialog.query_one("#save-label", Input).value = label
    if kind is not None:
        dialog.query_one("#save-kind", Select).value = kind
    await settle(pilot)
    await pilot.press("ctrl+s")
    return dialog


async def test_record_a_call_asks_label_and_kind_and_check_treats_it_as_observed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        form = await pick(pilot, screen, "demo", "demo", "weather")
        field(form, "city").value = "Lisbon"
        form.action_submit()
        card = screen.query_one(ToolCard)
        await wait_for(
            pilot, lambda: card.call_state is not None and card.call_state.phase.is_terminal
        )
        await wait_for(pilot, lambda: screen.query_one(HistoryPanel).entries[0].state is not None)
        # A kind the result contradicts is refused in the dialog, which stays open.
        dialog = await save_with_dialog(pilot, screen, label="Sunny in Lisbon", kind="error")
        await settle(pilot)
        assert pilot.app.screen is dialog
        assert "result.success: false" in str(dialog.query_one("#save-error", Label).render())
        dialog.query_one("#save-kind", Select).value = "typical"
        await settle(pilot)
        await pilot.press("ctrl+s")
        entry = screen.query_one(HistoryPanel).entries[0]
        await wait_for(pilot, lambda: entry.saved_as is not None)
    # Into the recordings folder, not a curated file; the label and kind as chosen.
    fixture = tmp_path / "recordings" / "demo" / "weather.yaml"
    assert entry.saved_as == "recordings/demo/weather.yaml#sunny-in-lisbon"
    data = yaml.safe_load(fixture.read_text())
    [variant] = data["variants"]
    assert (variant["label"], variant["kind"]) == ("Sunny in Lisbon", "typical")
    assert variant["args"] == {"city": "Lisbon"}
    assert variant["result"]["state"]["conditions"] == "sunny"
    # The manifest beside it describes the recorded API only, not the server's other eight.
    manifest = yaml.safe_load((fixture.parent / "manifest.yaml").read_text())
    assert [api["name"] for api in manifest["api"]] == ["weather"]
    # An MCP tool has no surfaces of its own: its recording is observed, so the kinds it
    # lacks are not gaps and no Inspector of its own is asked for.
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--no-audit"])
    assert result.exit_code == 0, result.output
    assert [line for line in result.output.splitlines() if "demo" in line] == [], result.output
    covered = CliRunner().invoke(main, ["coverage", "--format", "json"])
    [row] = [row for row in json.loads(covered.output)["apis"] if row["tool"] == "demo"]
    assert row["observed"] and row["gaps"] == []
    assert [kind for kind, status in row["kinds"].items() if status == "observed"] == [
        "empty",
        "error",
        "truncated",
    ]


async def test_unsupported_schema_falls_back_to_raw_json(tmp_path: Path) -> None:
    from workbench.core.manifest import ToolApi

    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        form = screen.query_one(SchemaForm)
        api = ToolApi(
            name="pick",
            parameters={
                "type": "object",
                "properties": {
                    "choice": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                    "name": {"type": "string"},
                },
            },
        )
        form.load(api)
        await settle(pilot)
        choice = field(form, "choice")
        assert isinstance(choice, TextArea)  # anyOf: a JSON editor for that field
        choice.text = "42"
        field(form, "name").value = "x"
        args, errors = form.current_args()
        assert errors == {} and args == {"choice": 42, "name": "x"}
        whole = ToolApi(
            name="whole",
            parameters={"$ref": "#/definitions/x", "definitions": {"x": {"type": "object"}}},
        )
        form.load(whole)
        await settle(pilot)
        assert form.raw_mode and "Edit the arguments as JSON" in screen_text(app)


async def test_viewing_an_older_call_while_another_runs_keeps_both_intact(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        history = screen.query_one(HistoryPanel)
        form = await pick(pilot, screen, "demo", "demo", "echo")
        field(form, "text").value = "first"
        form.action_submit()
        await wait_for(pilot, lambda: history.entries and history.entries[0].finished)
        form = await pick(pilot, screen, "demo", "demo", "sleep")
        field(form, "seconds").value = "30"
        form.action_submit()
        await wait_for(
            pilot,
            lambda: len(history.entries) == 2 and history.entries[1].state.phase is Phase.EXECUTING,
        )
        history.index = 0
        await settle(pilot)
        card = screen.query_one(ToolCard)
        assert card.call_state.api == "echo" and card.call_state.result.content == "first"
        # Another API in the tree: its form, and no card of another API under it.
        await pick(pilot, screen, "python", "calculator", "calculate")
        assert card.call_state is None
        await pilot.press("escape")  # The running call is still the one escape cancels.
        await wait_for(pilot, lambda: history.entries[1].finished, timeout=10)
        assert history.entries[1].state.phase is Phase.CANCELLED
        assert (
            history.entries[0].state.result.content == "first"
            and history.entries[0].state.phase is Phase.DONE
        )
        assert card.call_state is None
        history.index = 1
        await settle(pilot)
        assert card.call_state.api == "sleep" and card.call_state.phase is Phase.CANCELLED
        history.index = 0
        await settle(pilot)
        assert card.call_state.api == "echo"


class _Flood(BaseRuntime):
    """Reports progress and prints as fast as the event loop lets it, then finishes."""

    api_names = ("flood",)

    async def flood(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        for step in range(1, 40_001):
            ctx.progress(step, 40_000, None)
            ctx.stdout(f"line {step}\n")
            if step % 100 == 0:
                await asyncio.sleep(0)
        return to_result(success=True, content="flooded")


async def test_a_flooding_call_keeps_a_bounded_history_and_can_still_be_saved(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path)
    package = ToolPackage(
        manifest=ToolManifest(
            identifier="flood", meta=ToolMeta(title="Flood"), api=[ToolApi(name="flood")]
        ),
        create_runtime=lambda services: _Flood(),
    )
    app.live_session.manager.add(PythonToolSource("flood", [package], app.live_session.services))
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        form = await pick(pilot, screen, "flood", "flood", "flood")
        form.action_submit()
        card = screen.query_one(ToolCard)
        await wait_for(
            pilot,
            lambda: card.call_state is not None and card.call_state.phase.is_terminal,
            timeout=60,
        )
        [entry] = screen.query_one(HistoryPanel).entries
        assert entry.record.events.received > 80_000
        assert len(entry.record.events) < 6_000
        assert entry.state is not None and entry.state.output.line_count == 40_000
        await save_with_dialog(pilot, screen)
        await wait_for(pilot, lambda: entry.saved_as is not None, timeout=60)
    data = yaml.safe_load((tmp_path / "recordings" / "flood" / "flood.yaml").read_text())
    [variant] = data["variants"]
    assert variant["result"]["content"] == "flooded"
    # The last progress value survives the folding.
    assert [item["progress"] for item in variant["output"] if "progress" in item][-1] == 40_000
