"""A committed SVG read back into terminal cells is the picture that was drawn: same text, same
colours, cell for cell (the review TUI shows it beside the live case)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from workbench.project import open_project
from workbench.rendering.fingerprint import picture_hash
from workbench.rendering.matrix import snapshot_cases
from workbench.rendering.renderer import SnapshotRenderer
from workbench.review.svg_picture import read_svg_picture


@pytest.fixture(scope="module")
def drawn() -> list[tuple[str, str, str, str]]:
    """(id, text, svg, hash) of every 9th bundled case and a few Portals, drawn now."""
    project = open_project()
    cases = snapshot_cases(project.catalog, project.registry)
    sample = cases[::9] + [case for case in cases if case.surface == "portal"][:4]
    with SnapshotRenderer(project.catalog, project.registry) as renderer:
        return [
            (case.test_id, rendered.text, rendered.svg, rendered.picture)
            for case in sample
            for rendered in [renderer.render(case)]
        ]


def test_an_svg_reads_back_as_the_picture_it_was_drawn_from(
    drawn: list[tuple[str, str, str, str]],
) -> None:
    console = Console(width=300, file=io.StringIO())
    assert len(drawn) > 100
    for case_id, text, svg, picture in drawn:
        lines = read_svg_picture(svg)
        assert lines is not None, case_id
        assert "\n".join(line.plain.rstrip() for line in lines) + "\n" == text, case_id
        # Every cell's colours too: the hash reviewers' decisions name is the same.
        segments = [[s for s in line.render(console) if s.text != "\n"] for line in lines]
        assert picture_hash(segments) == picture, case_id


def test_what_is_not_a_snapshot_svg_reads_as_nothing() -> None:
    assert read_svg_picture("") is None
    assert read_svg_picture("<svg><text>hi</text></svg>") is None
    assert read_svg_picture("not xml at all <<<") is None
