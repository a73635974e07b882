"""The filter line above the fixture tree."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Input


class TreeFilter(Input):
    """An input that filters the tree as it is typed; ``escape`` hands the keys back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Leave the filter (its text stays): the screen's keys ([ ] p t …) work again.
        Binding("escape", "leave", "Back to tree", show=True),
    ]

    class Left(Message):
        """The user left the filter with ``escape``; handled by ``on_tree_filter_left``."""

        def __init__(self, control: TreeFilter) -> None:
            super().__init__()
            self._control = control

        @property
        def control(self) -> TreeFilter:
            return self._control

    def action_leave(self) -> None:
        self.post_message(self.Left(self))
