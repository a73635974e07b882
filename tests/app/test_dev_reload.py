"""`workbench dev`: the app redraws a saved surface, manifest or fixture without a restart,
on the same variant, phase, width and theme; a module that stops importing shows its error
in the card, and the app stays alive."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot

from tests.reload.conftest import DevProject, scaffolded
from workbench.app.app import LIGHT_THEME, WorkbenchApp
from workbench.app.screens.fixture_screen import FixtureScreen
from workbench.app.widgets.phase_stepper import PhaseStepper
from workbench.app.widgets.problems_panel import ProblemsPanel
from workbench.app.widgets.tool_card import ToolCard
from workbench.core.call_state import Phase
from workbench.rendering.screen import screen_text, settle

SIZE = (140, 40)


@pytest.fixture
def dev_project(tmp_path: Path) -> Iterator[DevProject]:
    yield from scaffolded(tmp_path)


async def wait_for(pilot: Pilot[None], text: str, timeout: float = 10.0) -> str:
    """The screen once it shows ``text`` (the watcher runs for real: no fixed sleeps)."""
    started = time.perf_counter()
    while text not in (screen := screen_text(pilot.app)):
        assert time.perf_counter() - started < timeout, f"never showed {text!r}:\n{screen}"
        await asyncio.sleep(0.02)
    return screen


def dev_app(project: DevProject) -> WorkbenchApp:
    return WorkbenchApp(project.open, animate=False, watch=True)


async def opened(pilot: Pilot[None]) -> FixtureScreen:
    # Not workers.wait_for_complete(): the watcher is a worker that runs until the app ends.
    await wait_for(pilot, "Looked up")
    await settle(pilot)
    await asyncio.sleep(0.3)  # the watcher is up
    screen = pilot.app.screen
    assert isinstance(screen, FixtureScreen)
    return screen


async def test_a_saved_surface_redraws_on_the_same_phase_width_and_theme(
    dev_project: DevProject,
) -> None:
    app = dev_app(dev_project)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        await pilot.press("left_square_bracket", "w", "t")  # executing, a width preset, light
        await settle(pilot)
        assert screen.query_one(PhaseStepper).current is Phase.EXECUTING
        width = screen.call_view.width_preset
        assert width is not None
        dev_project.edit("surfaces.py", "} looking up", "} searching the samples")
        text = await wait_for(pilot, "searching the samples")
        assert "⠋ Looking up: “tool”" in text  # still the Placeholder of the executing phase
        assert screen.query_one(PhaseStepper).current is Phase.EXECUTING
        assert screen.call_view.width_preset == width
        assert screen.query_one(ToolCard).card_width == width
        assert app.theme == LIGHT_THEME
        assert screen.ref is not None and screen.ref.variant.id == "several-matches"
        assert "↻ surfaces.py " in text  # the status line says what was reloaded


async def test_a_module_that_breaks_shows_its_error_in_the_card_until_fixed(
    dev_project: DevProject,
) -> None:
    app = dev_app(dev_project)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        dev_project.edit("surfaces.py", "def lookup_error(", "def lookup_error(:")
        text = await wait_for(pilot, "✗ Does not load: SyntaxError: invalid syntax at surfaces.py:")
        assert "def lookup_error(:" in text, text  # the line of code, in the card
        assert "Getting started" not in text  # the previous Render is not kept on screen
        problems = screen.query_one(ProblemsPanel)
        assert problems.display  # and the problems panel lists it
        dev_project.edit("surfaces.py", "def lookup_error(:", "def lookup_error(")
        text = await wait_for(pilot, "Getting started")
        assert "Does not load" not in text


async def test_a_saved_fixture_and_manifest_show_without_a_restart(
    dev_project: DevProject,
) -> None:
    app = dev_app(dev_project)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        fixture = dev_project.package / "fixtures" / "lookup.yaml"
        fixture.write_text(fixture.read_text().replace("title: Glossary,", "title: Lexicon,"))
        await wait_for(pilot, "Lexicon")
        title = dev_project.root.name  # any word not on screen yet
        dev_project.edit("manifest.py", '"emoji": "🧰"', '"emoji": "📚"')
        dev_project.edit("manifest.py", '"title": "', f'"title": "{title} ')
        await wait_for(pilot, f"{title} ")


async def test_without_watch_nothing_is_watched(dev_project: DevProject) -> None:
    app = WorkbenchApp(dev_project.open, animate=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.app.workers.wait_for_complete()
        await settle(pilot)
        assert "_watch" not in [worker.name for worker in app.workers]
        assert "reloading on save" not in screen_text(app)


async def test_a_fixture_that_breaks_keeps_its_api_and_comes_back_when_fixed(
    dev_project: DevProject,
) -> None:
    app = dev_app(dev_project)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        fixture = dev_project.package / "fixtures" / "lookup.yaml"
        await pilot.press("down", "down")  # the lookup API's "blank-query" variant
        await settle(pilot)
        assert screen.ref is not None and screen.ref.variant.id == "blank-query"
        good = fixture.read_text()
        fixture.write_text(good.replace("args: {query:", "args: {query", 1) + "\n  - [\n")
        text = await wait_for(pilot, "lookup.yaml: 1 problem")
        assert screen.ref is not None and screen.ref.api == "lookup"  # its API's stand-in
        assert screen.query_one(ProblemsPanel).display
        assert "lookup.yaml:" in text
        fixture.write_text(good.replace("title: Glossary,", "title: Lexicon,"))
        await wait_for(pilot, "↻ lookup.yaml")
        assert screen.ref is not None and screen.ref.variant.id == "blank-query"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_fixture_that_no_longer_parses_shows_its_problem_in_the_card(
    dev_project: DevProject, size: tuple[int, int]
) -> None:
    app = dev_app(dev_project)
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot)
        fixture = dev_project.package / "fixtures" / "lookup.yaml"
        fixture.write_text(fixture.read_text() + "\n  - [\n")
        await wait_for(pilot, "does not load")
        await settle(pilot)
        card = screen.query_one(ToolCard)
        assert card.call_state is None  # no stand-in call: nothing that reads as a result
        text = screen_text(pilot.app)
        assert "example query" not in text and "done ·" not in text, text
        assert "lookup.yaml:" in text and "not valid YAML" in text
        # Said once: in the card (the problems panel lists it, without repeating it below).
        assert text.count("expected node content") <= 1, text
        assert screen.query_one(ProblemsPanel).display
