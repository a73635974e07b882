"""The committed snapshot of a case, in colour: its SVG read back into terminal cells (the
text file alone has no colours), or its text when the SVG cannot be read."""

from __future__ import annotations

from typing import Unpack

from rich.console import Group, RenderableType
from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from workbench.app.widgets.options import WidgetOptions
from workbench.core.sanitize import plain
from workbench.review.svg_picture import read_svg_picture


class SnapshotPicture(Widget):
    """A committed picture at its own width; says so when there is none."""

    DEFAULT_CSS = """
    SnapshotPicture {
        width: auto;
        height: auto;
        &.-missing { color: $text-muted; padding: 1 2; border: dashed $panel; }
    }
    """

    def __init__(
        self,
        **options: Unpack[WidgetOptions],
    ) -> None:
        super().__init__(**options)
        self._picture: RenderableType = Text("")
        self._picture_size = (0, 0)

    def show(self, svg: str | None, text: str | None, background: str | None) -> None:
        """Show the committed ``svg`` (``text`` if it cannot be read; a note if neither);
        ``background`` fills cells the picture leaves without one (the theme's screen)."""
        lines = read_svg_picture(svg, background=background) if svg is not None else None
        if lines is None and text is not None:
            # A text snapshot's first line says what a reviewer should see: not part of the card.
            body = text.split("\n", 1)[1] if text.startswith("# ") else text
            lines = list(plain(body.rstrip("\n")).split())
        if lines is None:
            lines = [Text("No committed snapshot: the case is new.")]
        self._picture = Group(*lines)
        self._picture_size = (max((line.cell_len for line in lines), default=0), len(lines))
        self.set_class(svg is None and text is None, "-missing")
        self.refresh(layout=True)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self._picture_size[0]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self._picture_size[1]

    def render(self) -> RenderableType:
        return self._picture
