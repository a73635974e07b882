"""The start's first screen: the last start's first frame, while this one loads."""

from __future__ import annotations

from typing import Unpack

from textual.app import ComposeResult
from textual.screen import Screen

from workbench.app.first_screen import KeptFrame
from workbench.app.widgets.frame_picture import FramePicture
from workbench.app.widgets.options import ScreenOptions


class StartScreen(Screen[None]):
    """Shows ``picture`` until the app swaps the fixture screen in; keys typed meanwhile are
    held by the app (:meth:`WorkbenchApp.on_event`) and replayed on the real screen."""

    def __init__(self, picture: KeptFrame, **options: Unpack[ScreenOptions]) -> None:
        super().__init__(**options)
        self.picture = picture

    def compose(self) -> ComposeResult:
        yield FramePicture(self.picture)
