"""Snapshots and the render audit of every glossary fixture, in every phase."""

from workbench.api import test_tool_ui_snapshot  # noqa: F401
