"""The snapshot check, run for every fixture variant x phase x width x theme, and the render
audit of every variant.

A project runs both with a test that asks for the plugin's ``tool_ui_snapshot`` fixture::

    def test_tool_ui(tool_ui_snapshot):
        tool_ui_snapshot()

Importing :func:`test_tool_ui_snapshot` into a test module does the same (the way before
API 1.3; ``from workbench.api import test_tool_ui_snapshot`` is deprecated).
"""

from __future__ import annotations

from typing import Any

import pytest

from workbench.rendering.matrix import AuditCase, SnapshotCase, snapshot_text_of
from workbench.rendering.renderer import SnapshotRenderer
from workbench.review.store import StoredSnapshot
from workbench.testing.extension import UNCHANGED, SnapshotRoot

__all__ = ["check_case", "snapshot_text_of", "test_tool_ui_snapshot"]


def test_tool_ui_snapshot(
    workbench_case: SnapshotCase | AuditCase,
    workbench_renderer: SnapshotRenderer,
    snapshot_text: Any,
    snapshot_svg: Any,
    request: pytest.FixtureRequest,
) -> None:
    """Each tool surface looks as approved (text for the diff, SVG for the eye), and each
    variant passes the render audit."""
    check_case(workbench_case, workbench_renderer, snapshot_text, snapshot_svg, request)


def check_case(
    workbench_case: SnapshotCase | AuditCase,
    workbench_renderer: SnapshotRenderer,
    snapshot_text: Any,
    snapshot_svg: Any,
    request: pytest.FixtureRequest,
) -> None:
    """One case of the matrix: a snapshot compared with the approved one, or a variant's
    render audit."""
    if isinstance(workbench_case, AuditCase):
        _assert_audit_passes(workbench_case, request.getfixturevalue("workbench_auditor"))
        return
    files = None
    if workbench_renderer.cache is not None:
        matched = request.getfixturevalue("workbench_matched_snapshots")
        files = matched.stamp(workbench_case, SnapshotRoot.store())
    if files is not None and files.unchanged() is not None:
        # Neither the case nor its files changed since they matched: compare nothing, but
        # assert each file, so syrupy counts it as used.
        SnapshotRoot.vouch_for(workbench_case)
        assert snapshot_text == UNCHANGED
        assert snapshot_svg == UNCHANGED
        return
    rendered = workbench_renderer.render(workbench_case)
    # Compare the SVG first without asserting, so both snapshots are recorded on --snapshot-update
    # and the readable text diff is what a failure shows.
    svg_matches = rendered.svg == snapshot_svg
    text = snapshot_text_of(workbench_case, rendered.text)
    assert text == snapshot_text
    assert svg_matches, (
        f"the SVG of {workbench_case.test_id} changed although its text did not (colours or styles)"
    )
    if files is not None and not request.config.getoption("update_snapshots", False):
        # Both asserts passed: the files hold exactly this drawing.
        files.matched(rendered.picture, StoredSnapshot(text, rendered.svg))


def _assert_audit_passes(case: AuditCase, auditor: Any) -> None:
    from workbench.audit.report import format_text
    from workbench.audit.runner import AuditReport

    findings, renders = auditor.check(case.ref)
    report = AuditReport(findings=findings, subjects=[(case.ref, findings)], renders=renders)
    lines = format_text(report)
    assert not lines, (
        f"{case.description}: {len(lines)} finding(s) (`workbench audit` prints the same):\n"
        + "\n".join(lines)
    )
