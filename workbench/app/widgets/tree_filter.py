"""The filter line above the fixture tree."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Input

from workbench.app.widgets.messages import WidgetMessage


class TreeFilter(Input):
    """An input that filters the tree as it is typed; ``escape`` hands the keys back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Leave the filter (its text stays): the screen's keys ([ ] p t …) work again.
        Binding("escape", "leave", "Back to tree", show=True),
    ]

    @dataclass
    class Left(WidgetMessage["TreeFilter"]):
        """The user left the filter with ``escape``; handled by ``on_tree_filter_left``."""

    def action_leave(self) -> None:
        self.post_message(self.Left(self))
