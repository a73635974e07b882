"""The base of the messages a widget posts about itself."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from textual.dom import DOMNode
from textual.message import Message

WidgetT = TypeVar("WidgetT", bound=DOMNode)


@dataclass
class WidgetMessage(Message, Generic[WidgetT]):
    """A message whose first field is the widget that posted it.

    Handlers read that widget as ``control``, as with Textual's own messages, so
    ``@on(Message, "#selector")`` matches the posting widget.
    """

    widget: WidgetT
    """The widget the message is about."""

    @property
    def control(self) -> WidgetT:
        return self.widget
