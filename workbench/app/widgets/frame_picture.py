"""A kept frame of the whole screen, drawn cell for cell (the start's first screen)."""

from __future__ import annotations

from typing import Unpack

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip
from textual.widget import Widget

from workbench.app.first_screen import KeptFrame
from workbench.app.widgets.options import WidgetOptions


class FramePicture(Widget):
    """Draws ``picture`` when the screen has its size; blank otherwise (a frame drawn for
    another size would be a wrong one)."""

    DEFAULT_CSS = """
    FramePicture {
        width: 1fr;
        height: 1fr;
    }
    """

    def __init__(self, picture: KeptFrame, **options: Unpack[WidgetOptions]) -> None:
        super().__init__(**options)
        self.picture = picture
        styles = [Style.parse(style) if style else Style() for style in picture.styles]
        self._strips = [
            Strip([Segment(text, styles[style]) for text, style in line], picture.width)
            for line in picture.lines
        ]

    @property
    def fits(self) -> bool:
        """Whether the picture is drawn (the widget has the picture's size)."""
        return tuple(self.size) == (self.picture.width, self.picture.height)

    def render_line(self, y: int) -> Strip:
        if self.fits and y < len(self._strips):
            return self._strips[y]
        return Strip.blank(self.size.width, self.rich_style)
