"""What the whole-app snapshot tests share: the syrupy extensions for the screen's text and
SVG, and the app with its colours pinned."""

from __future__ import annotations

from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from workbench.app.app import WorkbenchApp
from workbench.rendering.environment import PinnedColours


class AppText(SingleFileSnapshotExtension):
    file_extension = "txt"
    _write_mode = WriteMode.TEXT


class AppSVG(SingleFileSnapshotExtension):
    file_extension = "svg"
    _write_mode = WriteMode.TEXT


class SnapshotApp(PinnedColours, WorkbenchApp):
    """The app with its colours pinned: the same snapshot whatever NO_COLOR and the like say."""
