"""Snapshots and the render audit of every glossary fixture, in every phase."""

from collections.abc import Callable


def test_tool_ui(tool_ui_snapshot: Callable[[], None]) -> None:
    """Every surface looks as approved; every fixture variant passes the render audit."""
    tool_ui_snapshot()
