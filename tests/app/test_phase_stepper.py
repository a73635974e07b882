"""The phase stepper always shows the current phase, in order, at any width."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rich.cells import cell_len

from workbench.app.app import WorkbenchApp
from workbench.app.screens.fixture_screen import FixtureScreen
from workbench.app.widgets.phase_stepper import ARROW, GAP, PhaseStepper, visible_window
from workbench.app.widgets.tool_tree import ToolTree
from workbench.core.call_state import Phase
from workbench.fixtures.catalog import VariantRef
from workbench.rendering.screen import settle


@pytest.mark.parametrize("count", range(1, len(Phase) + 1))
def test_the_window_holds_the_current_phase_and_fits_when_it_can(count: int) -> None:
    labels = [phase.value for phase in Phase][:count]
    for current in range(count):
        for width in range(0, 100):
            start, end = visible_window(labels, current, width)
            assert start <= current < end
            shown = sum(cell_len(label) for label in labels[start:end])
            shown += cell_len(ARROW) * (end - start - 1)
            shown += cell_len(GAP + ARROW) * (start > 0)
            shown += cell_len(ARROW + GAP) * (end < len(labels))
            # More than the current phase is shown only when it fits.
            assert end - start == 1 or shown <= width


def nodes(node):
    yield node
    for child in node.children:
        yield from nodes(child)


async def test_at_80_columns_the_current_phase_is_always_on_the_line(
    make_app: Callable[..., WorkbenchApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, FixtureScreen)
        tree = screen.query_one(ToolTree)
        stepper = screen.query_one(PhaseStepper)

        def line() -> str:
            return str(stepper.render())

        for variant_id, end in (("outside-workspace", "skipped"), ("missing-folder", "failed")):
            node = next(
                node
                for node in nodes(tree.root)
                if isinstance(node.data, VariantRef) and node.data.variant.id == variant_id
            )
            tree.move_cursor(node)
            await settle(pilot)
            # The ending is highlighted and last; earlier phases give way to "…".
            assert line().endswith(f" {end} "), line()
            await pilot.press("left_square_bracket")
            await settle(pilot)
            current = stepper.current
            assert current is not None and f" {current.value} " in line()
            assert line().rstrip().endswith(end), line()
        # Playing ("▶") takes no more room than paused: the phases stay where they were.
        paused = line()
        stepper.playing = True
        await settle(pilot)
        assert line().replace("▶", "▷") == paused
