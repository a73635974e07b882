"""The scrolling stage of a ``CallView``: the tool card, and under it the Intervention slot."""

from __future__ import annotations

from dataclasses import dataclass

from textual import events
from textual.containers import ScrollableContainer

from workbench.app.widgets.messages import WidgetMessage


class CallStage(ScrollableContainer):
    """Scrolls a card taller than the pane; says when its width changes, so the card can fit."""

    DEFAULT_CSS = """
    CallStage {
        height: 2fr;
        padding: 1 1 0 2;
        background: $background;
        scrollbar-gutter: stable;
        scrollbar-size-vertical: 1;
    }
    """

    @dataclass
    class Resized(WidgetMessage["CallStage"]):
        """The room for the card changed; handled by ``on_call_stage_resized``."""

        width: int

    def on_resize(self, event: events.Resize) -> None:
        del event
        self.post_message(self.Resized(self, self.room))

    @property
    def room(self) -> int:
        """Columns a card can take without being clipped."""
        return self.scrollable_content_region.width
