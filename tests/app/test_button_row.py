"""A row of buttons drops their key hints on a narrow pane rather than be cut."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Button

from workbench.app.widgets.button_row import ButtonRow, without_key_hint


@pytest.mark.parametrize(
    ("label", "short"),
    [("Accept (y)", "Accept"), ("Cancel (esc)", "Cancel"), ("Call", "Call"), ("(y)", "(y)")],
)
def test_a_key_hint_is_the_trailing_parenthesis(label: str, short: str) -> None:
    assert without_key_hint(label) == short


class Row(App[None]):
    def compose(self) -> ComposeResult:
        yield ButtonRow(
            Button("Accept (y)", compact=True),
            Button("Decline (n)", compact=True),
            Button("Cancel (esc)", compact=True),
        )


@pytest.mark.parametrize(
    ("width", "labels"),
    [
        (60, ["Accept (y)", "Decline (n)", "Cancel (esc)"]),
        (30, ["Accept", "Decline", "Cancel"]),
    ],
)
async def test_labels_fit_the_row(width: int, labels: list[str]) -> None:
    app = Row()
    async with app.run_test(size=(width, 5)) as pilot:
        await pilot.pause()
        buttons = list(app.query(Button))
        assert [str(button.label) for button in buttons] == labels
        # Every button is whole on screen, the last one included.
        assert all(button.region.right <= width for button in buttons)
        assert all(button.region.width >= len(str(button.label)) for button in buttons)


async def test_the_full_labels_come_back_when_the_row_widens() -> None:
    app = Row()
    async with app.run_test(size=(30, 5)) as pilot:
        await pilot.pause()
        await pilot.resize_terminal(60, 5)
        await pilot.pause()
        assert [str(button.label) for button in app.query(Button)] == [
            "Accept (y)",
            "Decline (n)",
            "Cancel (esc)",
        ]
