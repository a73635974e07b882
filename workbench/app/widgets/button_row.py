"""A row of buttons that drops their key hints rather than be clipped on a narrow pane."""

from __future__ import annotations

import re

from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Button

KEY_HINT = re.compile(r"\s*\([^()]*\)$")
"""A label's trailing key hint, as in "Accept (y)"."""

BUTTON_CHROME = 3
"""Columns of a compact button that are not its label: padding (1 each side) and margin."""


def without_key_hint(label: str) -> str:
    """``label`` without its trailing key hint: "Accept (y)" → "Accept"."""
    return KEY_HINT.sub("", label) or label


class ButtonRow(Horizontal):
    """Buttons side by side. When their labels do not fit the row, they lose their key hints
    ("Accept (y)" becomes "Accept"): the footer still names the keys, and no button is cut."""

    DEFAULT_CSS = """
    ButtonRow {
        height: auto;
        & > Button { margin-right: 1; min-width: 0; }
    }
    """

    def __init__(
        self,
        *children: Widget,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(*children, name=name, id=id, classes=classes)
        self._full: dict[Button, str] = {}
        """Each button's label as given, with its key hint."""

    def on_resize(self) -> None:
        self.fit_labels()

    def fit_labels(self) -> None:
        """Show the full labels if they all fit the row's width, else the short ones."""
        buttons = list(self.query_children(Button))
        full = [self._full.setdefault(button, str(button.label)) for button in buttons]
        needed = sum(len(label) + BUTTON_CHROME for label in full)
        wide = needed <= self.size.width
        for button, label in zip(buttons, full, strict=True):
            shown = label if wide else without_key_hint(label)
            if str(button.label) != shown:
                button.label = shown
                button.refresh(layout=True)  # Its width follows the label once measured again.
