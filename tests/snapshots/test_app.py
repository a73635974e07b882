"""Snapshots of the whole app at two sizes: what a person sees first, and at an approval.

Each case's text file starts with one line saying what a reviewer should see; the SVG beside
it is the same screen in colour. ``pytest tests/snapshots --snapshot-update`` rewrites them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.snapshots.app_snapshot import AppSVG, AppText, SnapshotApp
from workbench.app.app import DARK_THEME, LIGHT_THEME
from workbench.app.widgets.tool_tree import ToolTree
from workbench.fixtures.catalog import VariantRef
from workbench.project import open_project
from workbench.rendering.screen import screen_text, settle

REPO = Path(__file__).resolve().parents[2]


CASES = [
    (
        "first-screen",
        (80, 24),
        DARK_THEME,
        None,
        (),
        "the first tool and variant at the top of the tree, the card's frame whole, the "
        "details folded away, a footer that ends in quit and keys",
    ),
    (
        "first-screen",
        (120, 40),
        LIGHT_THEME,
        None,
        (),
        "the whole card at the pane's width, the details tabs under it, no clipped border",
    ),
    (
        "approval",
        (120, 40),
        DARK_THEME,
        "outside-workspace",
        ("left_square_bracket",),
        "the stepper at awaiting-approval with skipped after it, the approval under the card, "
        "and the footer naming y / n / esc",
    ),
    (
        "first-screen",
        (60, 24),
        LIGHT_THEME,
        None,
        (),
        "at 60 columns the tree folds away (the footer leads with ^b Show tree) and the "
        "card has the screen's width: title and lines whole",
    ),
    (
        "approval",
        (60, 24),
        LIGHT_THEME,
        "outside-workspace",
        ("left_square_bracket",),
        "at 60 columns, the tree folded away, the approval's buttons keep their key hints; "
        "the footer names y / n / esc",
    ),
    (
        "approval",
        (80, 24),
        DARK_THEME,
        "new-notes",
        ("left_square_bracket",) * 3,
        "at 80x24 a writeFile approval keeps the card's header and its reason (Approval needed) "
        "above the answer bar pinned under it; the footer leads with y / n / esc",
    ),
    (
        "tree-hidden",
        (80, 24),
        LIGHT_THEME,
        None,
        ("ctrl+b", "w"),
        "ctrl+b hid the tree: the card framed at 60 columns, whole, and the footer says "
        "^b Show tree",
    ),
    (
        "portal",
        (80, 24),
        LIGHT_THEME,
        None,
        ("o",),
        "the Portal over the card (no room beside it), the tree still there",
    ),
]


def _nodes(node: Any) -> Any:
    yield node
    for child in node.children:
        yield from _nodes(child)


@pytest.mark.parametrize(
    ("name", "size", "theme", "variant", "keys", "description"),
    CASES,
    ids=[f"{case[0]}-{case[1][0]}x{case[1][1]}" for case in CASES],
)
async def test_app_snapshot(
    name: str,
    size: tuple[int, int],
    theme: str,
    variant: str | None,
    keys: tuple[str, ...],
    description: str,
    snapshot: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The whole app looks as approved (text for the diff, SVG for the eye)."""
    del name
    monkeypatch.chdir(REPO)
    app = SnapshotApp(open_project, animate=False)
    async with app.run_test(size=size) as pilot:
        await app.workers.wait_for_complete()
        await settle(pilot)
        app.theme = theme
        if variant is not None:
            tree = app.screen.query_one(ToolTree)
            node = next(
                node
                for node in _nodes(tree.root)
                if isinstance(node.data, VariantRef) and node.data.variant.id == variant
            )
            tree.move_cursor(node)
            await settle(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
        await settle(pilot)
        text = f"# {description}\n{screen_text(app)}"
        svg = app.export_screenshot(title="Workbench")
    svg_matches = svg == snapshot(extension_class=AppSVG)
    assert text == snapshot(extension_class=AppText)
    assert svg_matches, "the SVG changed although the text did not (colours or styles)"
