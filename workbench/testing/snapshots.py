"""The snapshot test, generated for every fixture variant x phase x width x theme.

Import it into a test module to run it::

    from workbench.testing.snapshots import test_tool_ui_snapshot  # noqa: F401
"""

from __future__ import annotations

from typing import Any

from workbench.testing.matrix import SnapshotCase
from workbench.testing.renderer import SnapshotRenderer


def snapshot_text_of(case: SnapshotCase, text: str) -> str:
    """The text snapshot: one line saying what a reviewer should see, then the card."""
    return f"# {case.description}\n{text}"


def test_tool_ui_snapshot(
    workbench_case: SnapshotCase,
    workbench_renderer: SnapshotRenderer,
    snapshot_text: Any,
    snapshot_svg: Any,
) -> None:
    """Each tool surface looks as approved: text (for the diff) and SVG (for the eye)."""
    rendered = workbench_renderer.render(workbench_case)
    # Compare the SVG first without asserting, so both snapshots are recorded on --snapshot-update
    # and the readable text diff is what a failure shows.
    svg_matches = rendered.svg == snapshot_svg
    assert snapshot_text_of(workbench_case, rendered.text) == snapshot_text
    assert svg_matches, (
        f"the SVG of {workbench_case.test_id} changed although its text did not (colours or styles)"
    )
