"""Snapshots of the conversation view (`workbench open TRANSCRIPT`) at 80x24 and 120x40.

The session (``sessions/calculator.json``, Anthropic Messages) calls the bundled calculator,
so its cards are drawn by the calculator's own surfaces. Each case's text file starts with one
line saying what a reviewer should see; ``pytest tests/snapshots --snapshot-update`` rewrites.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.snapshots.app_snapshot import AppSVG, AppText, SnapshotApp
from workbench.app.app import DARK_THEME, LIGHT_THEME
from workbench.app.screens.conversation_screen import ConversationScreen
from workbench.project import open_project
from workbench.rendering.screen import screen_text, settle

REPO = Path(__file__).resolve().parents[2]
SESSION = Path(__file__).resolve().parent / "sessions" / "calculator.json"


CASES = [
    (
        "first-call",
        (80, 24),
        DARK_THEME,
        (),
        "the turns and calls on the left (thinking folded, each call as its Inspector line), "
        "the first call "
        "selected and drawn as the calculator's card at its ending, the footer's keys",
    ),
    (
        "next-error",
        (120, 40),
        LIGHT_THEME,
        ("x",),
        "x selected the failed 1/0 call: its card in the error colour, the stepper ending in "
        "failed, the details tabs under it",
    ),
    (
        "portal",
        (120, 40),
        DARK_THEME,
        ("o",),
        "o opened the calculator's Portal on the selected call, beside its card",
    ),
    (
        "message",
        (80, 24),
        LIGHT_THEME,
        ("up",),
        "the assistant's words drawn as Markdown (bold, a list, code) in place of a card",
    ),
]


@pytest.mark.parametrize(
    ("name", "size", "theme", "keys", "description"),
    CASES,
    ids=[f"{case[0]}-{case[1][0]}x{case[1][1]}" for case in CASES],
)
async def test_conversation_snapshot(
    name: str,
    size: tuple[int, int],
    theme: str,
    keys: tuple[str, ...],
    description: str,
    snapshot: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The conversation view looks as approved (text for the diff, SVG for the eye)."""
    del name
    monkeypatch.chdir(REPO)
    app = SnapshotApp(open_project, animate=False, transcript=SESSION)
    async with app.run_test(size=size) as pilot:
        for _ in range(200):
            screen = app.screen
            if isinstance(screen, ConversationScreen) and screen.row_index is not None:
                break
            await pilot.pause(0.05)
        await app.workers.wait_for_complete()
        await settle(pilot)
        app.theme = theme
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
        await settle(pilot)
        text = f"# {description}\n{screen_text(app)}"
        svg = app.export_screenshot(title="Workbench")
    svg_matches = svg == snapshot(extension_class=AppSVG)
    assert text == snapshot(extension_class=AppText)
    assert svg_matches, "the SVG changed although the text did not (colours or styles)"
