"""Snapshots of every bundled fixture variant, phase, width and theme (generated from fixtures/)."""

from workbench.testing.snapshots import test_tool_ui_snapshot  # noqa: F401
