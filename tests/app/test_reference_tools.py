"""Pilot tests: open each reference tool's variants in the TUI and check what the surfaces show.

The cases share one app (module scope): what they test is what a variant shows once opened,
not a fresh app, and booting one per case cost most of their time. Each case opens its
variant afresh (:func:`open_variant`), whatever the case before it left on screen.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from textual.geometry import Region
from textual.pilot import Pilot

from workbench.app.app import WorkbenchApp
from workbench.app.screens.fixture_screen import FixtureScreen
from workbench.app.widgets.tool_card import ToolCard
from workbench.app.widgets.tool_tree import ToolTree
from workbench.core.call_state import Phase
from workbench.fixtures.catalog import VariantRef
from workbench.project import open_project
from workbench.rendering.screen import screen_text, settle
from workbench.surfaces.registry import SurfaceKind

pytestmark = pytest.mark.asyncio(loop_scope="module")

REPO = Path(__file__).resolve().parents[2]
SIZE = (190, 70)


async def select(pilot: Pilot, ref: VariantRef) -> None:
    """Open ``ref`` from the tree, as a click would, and wait until the screen shows it."""
    screen = pilot.app.screen
    assert isinstance(screen, FixtureScreen)
    tree = screen.query_one(ToolTree)
    tree.move_cursor(next(node for node in tree.nodes() if node.data is ref))
    for _ in range(500):
        if screen.ref is not None and screen.ref.key == ref.key:
            return
        # Let the tree's messages reach the screen, without redrawing the screen each time.
        await asyncio.sleep(0)
    raise AssertionError(f"{ref.key} never opened")


def variant_refs(pilot: Pilot) -> list[VariantRef]:
    tree = pilot.app.screen.query_one(ToolTree)
    return [
        node.data
        for node in tree.nodes()
        if isinstance(node.data, VariantRef) and not node.data.generated
    ]


async def open_variant(
    pilot: Pilot, tool: str, api: str, variant: str, phase: Phase | None = None
) -> str:
    screen = pilot.app.screen
    assert isinstance(screen, FixtureScreen)
    refs = variant_refs(pilot)
    ref = next(ref for ref in refs if (ref.tool, ref.api, ref.variant.id) == (tool, api, variant))
    if screen.ref is not None and screen.ref.key == ref.key:
        # Already open (an earlier case): open another first, so this one opens afresh, on
        # its ending, as it would in a new app.
        await select(pilot, next(other for other in refs if other.key != ref.key))
    await select(pilot, ref)
    assert screen.script is not None
    if phase is not None:
        screen._show_phase_index(screen.script.phases.index(phase))
    card = screen.query_one(ToolCard)
    assert card.call_state is not None
    assert card.call_state.phase is (phase or screen.script.phases[-1])
    # Messages handled, the screen laid out and drawn once: what a person sees next.
    await pilot.pause()
    if card.folded:
        # A collapsed API's done card first shows one line: what follows is the open Render.
        await pilot.press("e")
        await pilot.pause()
        assert not card.folded
    # The whole card, even the part scrolled out of the stage, plus what else is on screen.
    size = card.outer_size
    card_lines = "\n".join(
        strip.text for strip in card.render_lines(Region(0, 0, size.width, size.height))
    )
    return card_lines + "\n" + screen_text(pilot.app)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def pilot() -> AsyncIterator[Pilot]:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(REPO)
        app = WorkbenchApp(lambda: open_project([]), animate=False)
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await settle(pilot)
            yield pilot


# (tool, api, variant, phase or None for the ending, texts that must show)
EXPECTATIONS = [
    (
        "web-browsing",
        "search",
        "asyncio-tutorials",
        None,
        ["Searched: asyncio tutorial (5 results)", "An asyncio tutorial: first steps"],
    ),
    (
        "web-browsing",
        "search",
        "no-results",
        None,
        ["(no results)", "∅ no results for quantum zebra migration"],
    ),
    (
        "web-browsing",
        "search",
        "settings-invalid",
        None,
        ["⚙ search settings needed", "WORKBENCH_SEARXNG_URL"],
    ),
    (
        "web-browsing",
        "search",
        "hundreds-of-results",
        None,
        [
            "Searched: asyncio archive (320 results)",
            "showing 6 of 300 results returned · 320 in all",
        ],
    ),
    (
        "web-browsing",
        "search",
        "markup-in-titles",
        None,
        ["[bold red]FREE[/] prizes — [@click=app.quit]claim now[/]"],
    ),
    (
        "web-browsing",
        "search",
        "asyncio-tutorials",
        Phase.EXECUTING,
        ["searching for asyncio tutorial", "░░░"],
    ),
    (
        "web-browsing",
        "crawlSinglePage",
        "metadata-address",
        None,
        ["RequestRefused", "cloud metadata address"],
    ),
    (
        "web-browsing",
        "crawlSinglePage",
        "very-long-page",
        None,
        ["page capped: the model received 25,000 of"],
    ),
    (
        "web-browsing",
        "crawlMultiPages",
        "three-docs",
        Phase.STREAMING_OUTPUT,
        ["3 of 3 pages read", "✓ mcp.example.dev/spec/tools.html", "428 characters"],
    ),
    (
        "web-browsing",
        "crawlMultiPages",
        "one-failed",
        None,
        ["2 of 3 pages read · 1 failed", "PageNotFound"],
    ),
    ("local-system", "listFiles", "whole-tree", None, ["showing 12 of 500 entries returned"]),
    (
        "local-system",
        "listFiles",
        "outside-workspace",
        Phase.AWAITING_APPROVAL,
        ["listFiles will read outside the workspace:", "/etc"],
    ),
    ("local-system", "listFiles", "outside-workspace", None, ["skipped", "not now"]),
    (
        "local-system",
        "readFile",
        "python-source",
        None,
        ["src/app.py · lines 1-", "def greet(name: str) -> str:"],
    ),
    (
        "local-system",
        "readFile",
        "large-csv",
        None,
        ["showing 20 of 2,000 lines", "the tool returned lines 1-2,000; the file has 3,201"],
    ),
    (
        "local-system",
        "readFile",
        "binary-file",
        None,
        ["BinaryFile", "hint: Binary files cannot be shown as text."],
    ),
    (
        "local-system",
        "writeFile",
        "new-notes",
        Phase.AWAITING_APPROVAL,
        ["write notes/todo.md", "# TODO"],
    ),
    (
        "local-system",
        "writeFile",
        "large-file",
        Phase.STREAMING_OUTPUT,
        ["writing data/generated.csv", "100%"],
    ),
    (
        "local-system",
        "editFile",
        "rename-greeting",
        None,
        ['-    return f"Hello, {name}!"', '+    return f"Hi, {name}!"'],
    ),
    ("local-system", "editFile", "replace-all", None, ["showing 24 of"]),
    ("local-system", "grepContent", "todos", None, ["matches in", "TODO"]),
    (
        "local-system",
        "runCommand",
        "run-steps",
        Phase.STREAMING_OUTPUT,
        ["==> install", "running · 4 lines so far"],
    ),
    (
        "local-system",
        "runCommand",
        "twenty-thousand-lines",
        Phase.STREAMING_OUTPUT,
        ["lines hidden · showing the last 15 of 20,000", "line 20000 of the long output"],
    ),
    ("local-system", "runCommand", "failing", None, ["✗ exit 2", "ls build-output"]),
    ("local-system", "runCommand", "killed-on-timeout", None, ["killed after", "timeout"]),
    (
        "local-system",
        "runCommand",
        "escape-sequences",
        None,
        [
            "PASS tests/test_app.py",
            "title and clipboard gone",
            "[bold]not markup[/] [@click=app.quit]quit[/]",
        ],
    ),
    (
        "calculator",
        "calculate",
        "huge-factorial",
        None,
        ["of 1,135 digits", "integer · 1,135 digits"],
    ),
    (
        "task",
        "listTasks",
        "hundred-twenty",
        None,
        ["120 tasks", "showing 12 of 50 tasks returned · 120 in all"],
    ),
    (
        "task",
        "createTasks",
        "one-fails",
        None,
        ["✓ 2 created", "✗ 1 failed", "there is no TASK-77"],
    ),
    (
        "task",
        "updateTaskStatus",
        "mark-completed",
        Phase.AWAITING_APPROVAL,
        ["This only records the status; nothing is executed."],
    ),
    ("task", "runTask", "dependency-open", None, ["DependenciesNotMet", "blocked by TASK-1"]),
    ("task", "runTask", "build-site", Phase.STREAMING_OUTPUT, ["[build] fetch"]),
    (
        "skills",
        "activateSkill",
        "unknown-skill",
        None,
        ["SkillNotFound", "available skills:", "release-notes"],
    ),
    (
        "skills",
        "activateSkill",
        "huge-style-guide",
        None,
        ["the model got only the first 344 of 602 lines"],
    ),
    (
        "skills",
        "readReference",
        "path-escape",
        None,
        ["InvalidReferencePath", "references/template.md"],
    ),
]


@pytest.mark.parametrize(
    ("tool", "api", "variant", "phase", "expected"),
    EXPECTATIONS,
    ids=[f"{row[0]}-{row[1]}-{row[2]}-{row[3].value if row[3] else 'end'}" for row in EXPECTATIONS],
)
async def test_variant_shows(
    pilot: Pilot, tool: str, api: str, variant: str, phase: Phase | None, expected: list[str]
) -> None:
    text = await open_variant(pilot, tool, api, variant, phase)
    for snippet in expected:
        assert snippet in text, f"{snippet!r} not on screen for {tool}/{api}#{variant}"
    assert "\x1b" not in text and "crashed" not in text


async def test_every_variant_opens_in_every_phase_without_crashing(pilot: Pilot) -> None:
    """The screen opens every variant of the tree and steps it through every phase; the card
    draws each without a surface crashing, and the app draws on afterwards.

    Variants are opened as the tree's selection does (``_select``), back to back: letting the
    screen lay out each one cost most of this test's time. Opening from the tree is what
    :func:`test_variant_shows` does; how every phase looks at each width and theme is the
    snapshot matrix's and the render audit's (which flags a crashed surface)."""
    screen = pilot.app.screen
    assert isinstance(screen, FixtureScreen)
    refs = variant_refs(pilot)
    assert len(refs) >= 80
    card = screen.query_one(ToolCard)
    console = pilot.app.console
    for number, ref in enumerate(refs, 1):
        if number % 20 == 0:
            # Let the screen drain what it was asked so far: one queue of every variant's
            # updates outlasted the pilot's wait on a loaded machine.
            await pilot.pause()
        screen._select(ref)
        assert screen.script is not None and screen.ref is ref
        for index, phase in enumerate(screen.script.phases):
            screen._show_phase_index(index)
            assert card.call_state is not None and card.call_state.phase is phase
            # What the card draws for this phase, at its width on this screen.
            lines = console.render_lines(
                card.render(), console.options.update_width(card.size.width)
            )
            text = "\n".join("".join(segment.text for segment in line) for line in lines)
            assert "surface of" not in text, f"a surface crashed for {ref.key} at {phase.value}"
    # Everything the screen was asked to update on the way, handled and drawn.
    await settle(pilot)
    assert "surface of" not in screen_text(pilot.app)
    assert pilot.app.is_running


async def test_streaming_hands_over_to_render_without_a_jump(pilot: Pilot) -> None:
    """runCommand's Streaming and Render share a layout: the card keeps its height."""
    await open_variant(pilot, "local-system", "runCommand", "run-steps", Phase.STREAMING_OUTPUT)
    card = pilot.app.screen.query_one(ToolCard)
    assert card.body_kind is SurfaceKind.STREAMING
    streaming_height = card.size.height
    await open_variant(pilot, "local-system", "runCommand", "run-steps", Phase.DONE)
    assert card.body_kind is SurfaceKind.RENDER
    assert card.size.height == streaming_height
