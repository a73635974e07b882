"""Pilot tests: drive the workbench as a user would."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from workbench.app.app import WorkbenchApp
from workbench.app.screens.fixture_screen import FixtureScreen
from workbench.app.widgets.intervention_bar import InterventionBar
from workbench.app.widgets.portal_panel import PortalPanel
from workbench.app.widgets.problems_panel import ProblemsPanel
from workbench.app.widgets.tool_card import ToolCard
from workbench.app.widgets.tool_tree import ToolTree
from workbench.config import load_config
from workbench.core.call_state import Phase
from workbench.fixtures.catalog import VariantRef
from workbench.project import open_project
from workbench.rendering.screen import screen_text, settle
from workbench.surfaces.registry import SurfaceKind

SIZE = (150, 48)


async def ready(pilot: Pilot) -> FixtureScreen:
    await pilot.app.workers.wait_for_complete()
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, FixtureScreen)
    return screen


def variant_ids(tree: ToolTree) -> list[str]:
    found: list[str] = []

    def walk(node) -> None:
        if isinstance(node.data, VariantRef):
            found.append(node.data.variant.id)
        for child in node.children:
            walk(child)

    walk(tree.root)
    return found


async def select(pilot: Pilot, screen: FixtureScreen, variant_id: str) -> None:
    tree = screen.query_one(ToolTree)
    node = next(
        node
        for node in _nodes(tree.root)
        if isinstance(node.data, VariantRef) and node.data.variant.id == variant_id
    )
    tree.move_cursor(node)
    await settle(pilot)


def _nodes(node):
    yield node
    for child in node.children:
        yield from _nodes(child)


async def test_opens_on_the_bundled_fixtures_with_the_first_variant_shown(
    make_app: Callable[..., WorkbenchApp],
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        tree = screen.query_one(ToolTree)
        assert {"arithmetic", "division-by-zero", "syntax-error", "huge-factorial"} <= set(
            variant_ids(tree)
        )
        card = screen.query_one(ToolCard)
        assert card.call_state is not None and card.call_state.phase.is_terminal
        text = screen_text(app)
        assert "Calculator" in text and "calculate" in text


async def test_step_phases_back_and_forward(make_app: Callable[..., WorkbenchApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await select(pilot, screen, "arithmetic")
        card = screen.query_one(ToolCard)
        seen = [card.call_state.phase]
        for _ in range(3):
            await pilot.press("left_square_bracket")
            seen.append(card.call_state.phase)
        assert seen == [Phase.DONE, Phase.EXECUTING, Phase.ARGS_STREAMING, Phase.ARGS_STREAMING]
        await settle(pilot)
        assert "receiving arguments" in screen_text(app)
        await pilot.press("right_square_bracket")
        assert (
            card.call_state.phase is Phase.EXECUTING and card.body_kind is SurfaceKind.PLACEHOLDER
        )


async def test_replay_plays_to_the_end_instantly(make_app: Callable[..., WorkbenchApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await select(pilot, screen, "division-by-zero")
        for _ in range(3):  # x1 -> x2 -> x5 -> instant
            await pilot.press("s")
        await pilot.press("p")
        await app.workers.wait_for_complete()
        await settle(pilot)
        card = screen.query_one(ToolCard)
        assert card.call_state.phase is Phase.FAILED
        assert "DivisionByZero" in screen_text(app)


async def test_portal_width_and_theme_toggles(make_app: Callable[..., WorkbenchApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        portal = screen.query_one(PortalPanel)
        assert not portal.is_open
        await pilot.press("o")
        await settle(pilot)
        assert portal.is_open and "arguments" in screen_text(app)
        await pilot.press("o")
        await settle(pilot)
        card = screen.query_one(ToolCard)
        fit = card.card_width
        widths = []
        for _ in range(4):
            await pilot.press("w")
            await settle(pilot)
            widths.append(card.card_width)
        assert widths == [60, 80, min(120, fit), fit]
        assert card.size.width == fit
        await pilot.press("o")
        assert app.theme == "textual-dark"
        await pilot.press("t")
        assert app.theme == "textual-light"
        await pilot.press("o")
        assert not portal.is_open


async def test_filter_narrows_the_tree(make_app: Callable[..., WorkbenchApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("slash")
        await pilot.press(*"zero")
        await settle(pilot)
        assert variant_ids(screen.query_one(ToolTree)) == ["division-by-zero"]
        await pilot.press("enter")
        await settle(pilot)
        assert screen.ref is not None and screen.ref.variant.id == "division-by-zero"


BROKEN = "tool: calculator\napi: calculate\nvariants:\n  - id: x\n    label: [unclosed\n"
GOOD = textwrap.dedent(
    """\
    tool: calculator
    api: calculate
    variants:
      - id: still-works
        label: Loads beside a broken file
        kind: typical
        args: {expression: "1 + 1"}
        result: {success: true, content: "1 + 1 = 2", state: {value: "2", type: integer, digits: 1}}
    """
)


async def test_broken_file_shows_in_the_problems_panel_and_the_rest_works(
    make_app: Callable[..., WorkbenchApp], tmp_path: Path
) -> None:
    (tmp_path / "broken.yaml").write_text(BROKEN)
    (tmp_path / "good.yaml").write_text(GOOD)
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        panel = screen.query_one(ProblemsPanel)
        assert panel.display and len(panel.problems) == 1
        assert "broken.yaml:6: not valid YAML" in panel.problems[0].format()
        assert "1 problem in 1 file" in screen_text(app)
        await select(pilot, screen, "still-works")
        assert "Calculated: 1 + 1 = 2" in screen_text(app)


async def test_a_broken_tool_workbench_table_shows_as_located_problems(
    make_app: Callable[..., WorkbenchApp], tmp_path: Path
) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[tool.workbench]\nfixtures = ["fx"]\nsnapshots = false\n')
    app = make_app(loader=lambda: open_project(config=load_config(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        panel = screen.query_one(ProblemsPanel)
        assert [problem.format() for problem in panel.problems] == [
            f"{pyproject}:3: tool.workbench.snapshots: Input should be a valid string"
        ]


HOSTILE = textwrap.dedent(
    """\
    tool: calculator
    api: calculate
    variants:
      - id: hostile
        label: Markup and escapes from a tool stay inert
        kind: error
        args: {expression: "[bold]x[/]"}
        result:
          success: false
          content: "[@click=app.quit]q[/] [/bold] \\e]52;c;aGk=\\a \\e]0;pwned\\a"
          error: {type: "[@click=app.quit]Boom[/]",
                  message: "[@click=app.quit]quit[/] [/bold] \\e[2J"}
    """
)


async def test_hostile_text_is_shown_literally_and_runs_nothing(
    make_app: Callable[..., WorkbenchApp], tmp_path: Path
) -> None:
    (tmp_path / "hostile.yaml").write_text(HOSTILE)
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await select(pilot, screen, "hostile")
        text = screen_text(app)
        assert "[bold]x[/]" in text
        assert "[@click=app.quit]quit[/] [/bold]" in text
        assert "\x1b" not in text and "\x07" not in text
        card = screen.query_one(ToolCard)
        for y in range(card.region.height):
            await pilot.click(ToolCard, offset=(6, y))
        await pilot.press("right_square_bracket")
        assert app.is_running
        await pilot.press("o")
        await settle(pilot)
        assert app.is_running and "\x1b" not in screen_text(app)


async def test_a_crashing_surface_shows_an_error_box_not_a_dead_app(
    make_app: Callable[..., WorkbenchApp],
) -> None:
    def loader():
        project = open_project()

        def broken(ctx):
            raise RuntimeError("render bug")

        project.registry.register("calculator", "calculate", SurfaceKind.RENDER, broken)
        return project

    app = make_app(loader=loader)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        text = screen_text(app)
        assert "render surface of calculator/calculate crashed" in text
        assert "RuntimeError: render bug" in text
        assert app.is_running


async def test_every_action_is_in_the_command_palette(
    make_app: Callable[..., WorkbenchApp],
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        titles = [command.title for command in app.get_system_commands(screen)]
        for binding in FixtureScreen.BINDINGS:
            assert binding.description in titles
        # Each action once (Theme and Quit were listed two and three times), described.
        assert titles.count("Theme") == 1 and titles.count("Quit") == 1
        # Every entry has a title of its own (two were called "Phase").
        assert len(titles) == len(set(titles))
        assert "Previous phase" in titles and "Next phase" in titles
        helps = {command.title: command.help for command in app.get_system_commands(screen)}
        assert helps["Portal"] == "Open or close the tool's Portal (key: o / f6)"
        assert "Screenshot" in titles and "Keys" in titles
        command = next(
            command for command in app.get_system_commands(screen) if command.title == "Portal"
        )
        command.callback()
        await settle(pilot)
        assert screen.query_one(PortalPanel).is_open


APPROVAL_MANIFEST = textwrap.dedent(
    """\
    identifier: deployer
    meta: {title: Deployer, emoji: "🚀"}
    api:
      - name: deploy
        description: Deploy a service.
        humanIntervention: required
        parameters:
          type: object
          required: [service]
          properties: {service: {type: string}}
    """
)
APPROVAL_FIXTURE = textwrap.dedent(
    """\
    tool: deployer
    api: deploy
    variants:
      - id: deploy-api
        label: Deploys the API
        kind: typical
        args: {service: api}
        result: {success: true, content: deployed}
    """
)


@pytest.fixture
def approval_app(make_app: Callable[..., WorkbenchApp], tmp_path: Path) -> WorkbenchApp:
    """An app on one fixture whose API always asks for approval."""
    (tmp_path / "manifest.yaml").write_text(APPROVAL_MANIFEST)
    (tmp_path / "deploy.yaml").write_text(APPROVAL_FIXTURE)
    return make_app(tmp_path)


async def at_approval_step(pilot: Pilot, *, instant: bool = False) -> FixtureScreen:
    """The screen stepped back to the deploy variant's approval step; ``instant`` replays at full
    speed."""
    screen = await ready(pilot)
    await select(pilot, screen, "deploy-api")
    if instant:
        for _ in range(3):  # x1 -> x2 -> x5 -> instant
            await pilot.press("s")
    await pilot.press("left_square_bracket", "left_square_bracket")
    return screen


async def test_intervention_skip_with_reason(approval_app: WorkbenchApp) -> None:
    app = approval_app
    async with app.run_test(size=SIZE) as pilot:
        screen = await at_approval_step(pilot)
        card = screen.query_one(ToolCard)
        assert (
            card.call_state.phase is Phase.AWAITING_APPROVAL
            and card.body_kind is SurfaceKind.INTERVENTION
        )
        await settle(pilot)
        bar = screen.call_view.intervention
        assert isinstance(bar, InterventionBar)
        # The approval has the focus: one key away, and the footer says which.
        assert screen.focused is bar.query_one("#approve")
        footer = screen_text(app).splitlines()[-1]
        assert "y Approve" in footer and "n Skip…" in footer and "esc Cancel" in footer
        await pilot.press("n")
        assert screen.focused is bar.query_one("#reason")
        await pilot.press(*"not today", "enter")
        await settle(pilot)
        assert card.call_state.phase is Phase.SKIPPED
        assert "not today" in card.call_state.result.content
        assert screen.call_view.intervention is None
        # The focus goes back to the tree it came from.
        assert screen.focused is screen.query_one(ToolTree)


async def test_intervention_approve_with_edited_args_runs_on(approval_app: WorkbenchApp) -> None:
    app = approval_app
    async with app.run_test(size=SIZE) as pilot:
        screen = await at_approval_step(pilot, instant=True)
        await settle(pilot)
        bar = screen.call_view.intervention
        assert isinstance(bar, InterventionBar)
        editor = bar.query_one(".-field-json")
        editor.text = '{"service": "worker"}'
        await settle(pilot)
        await pilot.click("#approve")
        await app.workers.wait_for_complete()
        await settle(pilot)
        card = screen.query_one(ToolCard)
        assert card.call_state.phase is Phase.DONE
        assert card.call_state.args == {"service": "worker"}


async def test_reload_picks_up_edited_fixture_files(
    make_app: Callable[..., WorkbenchApp], tmp_path: Path
) -> None:
    fixture = tmp_path / "good.yaml"
    fixture.write_text(GOOD)
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await select(pilot, screen, "still-works")
        fixture.write_text(GOOD.replace('"1 + 1 = 2"', '"1 + 1 = 2 (edited)"'))
        await pilot.press("ctrl+r")
        await app.workers.wait_for_complete()
        await settle(pilot)
        assert screen.ref is not None and screen.ref.variant.id == "still-works"
        assert screen.state is not None and screen.state.result.content == "1 + 1 = 2 (edited)"


async def test_play_from_the_approval_step_waits_for_the_decision(
    approval_app: WorkbenchApp,
) -> None:
    app = approval_app
    async with app.run_test(size=SIZE) as pilot:
        screen = await at_approval_step(pilot, instant=True)
        card = screen.query_one(ToolCard)
        assert card.call_state.phase is Phase.AWAITING_APPROVAL
        await pilot.press("p")
        await settle(pilot)
        assert card.call_state.phase is Phase.AWAITING_APPROVAL
        assert isinstance(screen.call_view.intervention, InterventionBar)
        await pilot.press("y")
        await app.workers.wait_for_complete()
        await settle(pilot)
        state = card.call_state
        assert state.phase is Phase.DONE and state.approval.decision == "approved"
        assert state.timings.started_ms is not None and state.ignored_events == 0


async def test_a_quick_load_opens_on_the_card_and_a_slow_one_on_a_loading_tree() -> None:
    """The start waits a moment for the project, so a warm start's first frame is the card;
    a load that takes longer shows the screen with a loading tree, then the project, loaded
    once either way."""
    import threading

    loads: list[threading.Event] = []

    def load(gate: threading.Event) -> object:
        loads.append(gate)
        gate.wait(10)
        return open_project()

    quick = threading.Event()
    quick.set()
    app = WorkbenchApp(lambda: load(quick), animate=False)  # type: ignore[arg-type, return-value]
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        assert screen.catalog is not None and not screen.query_one(ToolTree).loading
        assert screen.query_one(ToolCard).call_state is not None
        assert len(loads) == 1

    slow = threading.Event()
    loads.clear()
    app = WorkbenchApp(lambda: load(slow), animate=False)  # type: ignore[arg-type, return-value]
    async with app.run_test(size=SIZE) as pilot:
        while not isinstance(app.screen, FixtureScreen):  # Shown once the wait is over.
            await pilot.pause(0.05)
        screen = app.screen
        await pilot.pause()
        assert screen.catalog is None and screen.query_one(ToolTree).loading
        slow.set()
        screen = await ready(pilot)
        assert screen.catalog is not None and not screen.query_one(ToolTree).loading
        assert screen.query_one(ToolCard).call_state is not None
        assert len(loads) == 1


async def test_a_details_tab_added_before_the_tabs_are_mounted_is_there() -> None:
    """The details tabs are mounted after the first frame; a tab added before is kept."""
    from rich.text import Text

    from workbench.app.widgets.call_view import CallView

    app = WorkbenchApp(animate=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        view = CallView(screen.call_view.registry, id="extra")
        await screen.mount(view)
        assert not view.details.query("TabbedContent")  # Not yet: after the next frame.
        view.add_details_tab("mine", "Mine", lambda state, manifest: Text("drawn by mine"))
        await settle(pilot)
        view.details.query_one("#details-mine")
        tabs = view.details.query_one("TabbedContent")
        tabs.active = "details-mine"  # type: ignore[attr-defined]
        await settle(pilot)
        assert "drawn by mine" in str(view.details.query_one("#details-mine-body").render())
