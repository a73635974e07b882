"""The review TUI, driven as a reviewer would: the queue's order, the live case beside its
committed picture and diff, accepting, rejecting with a note, switching phase, width and
theme in place, the filter, help and the palette."""

from __future__ import annotations

import io
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pyte
import pytest
from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual.content import Content
from textual.pilot import Pilot
from textual.style import Style as TextualStyle
from textual.widgets import Input, Static

from workbench.acceptance.build import build_board
from workbench.app.app import WorkbenchApp
from workbench.app.palette import palette_for
from workbench.app.screens.note_screen import NoteScreen
from workbench.app.screens.review_help_screen import ReviewHelpScreen
from workbench.app.screens.review_screen import LoadedReview, ReviewScreen
from workbench.app.widgets.case_card import CaseCard
from workbench.app.widgets.review_queue import ReviewQueue
from workbench.app.widgets.snapshot_picture import SnapshotPicture
from workbench.config import load_config
from workbench.project import open_project
from workbench.review.decisions import read_review_file

DONE_60_DARK = "calculator/calculate/add/done-60-dark"


def make_app() -> WorkbenchApp:
    def load(progress: object) -> LoadedReview:
        config = load_config()
        project = open_project(config=config)
        board = build_board(project, on_progress=lambda done, total, case_id: progress(done, total))  # type: ignore[operator]
        return LoadedReview(project, board, "Cy Reviewer")

    return WorkbenchApp(review=load, animate=False)


async def loaded(pilot: Pilot[None]) -> ReviewScreen:
    for _ in range(300):
        await pilot.pause(0.05)
        screen = pilot.app.screen
        if isinstance(screen, ReviewScreen) and not screen.has_class("-loading"):
            await pilot.pause(0.1)
            return screen
    raise AssertionError("the review never finished drawing")


def stage_text(screen: ReviewScreen) -> str:
    return str(screen.query_one("#case-summary", Static).render())


async def test_the_queue_puts_what_needs_a_person_first(reviewed_project: Path) -> None:
    async with make_app().run_test(size=(160, 48)) as pilot:
        screen = await loaded(pilot)
        queue = screen.query_one("#queue", ReviewQueue)
        order = [(item.group, item.id) for item in queue.ordered]
        assert [group for group, _ in order] == sorted(group for group, _ in order)
        assert order[:4] == [
            (0, "calculator/calculate/add/done-60-dark"),
            (0, "calculator/calculate/add/done-60-light"),
            (0, "calculator/calculate/add/done-100-dark"),
            (0, "calculator/calculate/add/done-100-light"),
        ]
        assert order[4] == (2, "calculator/calculate/hostile/failed-60-light")
        sections = [str(node.label) for node in queue.root.children]
        assert sections == ["To review 4", "Rejected 1", "Accepted 15"]
        # The first case to review is on the stage: live, committed in colour, and the diff.
        assert screen.item is not None and screen.item.id == DONE_60_DARK
        assert "calculator › calculate › add · done · 60 columns · dark" in stage_text(screen)
        assert "changed · accepted an earlier picture of it by Ann <Lee>" in stage_text(screen)
        card = screen.query_one("#now", CaseCard)
        assert (card.card_width, card.case_theme, card.surface) == (60, "dark", "card")
        console = Console(width=200, record=True, file=io.StringIO())
        console.print(screen.query_one("#committed", SnapshotPicture).render())
        committed = console.export_text()
        assert "Calculated: 1 + 1 = 2" in committed  # the committed picture, before the change
        diff = str(screen.query_one("#diff").render())
        assert "-│ Calculated: 1 + 1 = 2" in diff and "+│ Calculated: 1 + 1 = 3" in diff
        # Beside the queue, 160 columns cannot hold two 60-column cards: the committed one
        # is a key away; 200 columns hold both.
        assert screen.view == "now" and not screen.query_one("#committed-pane").display
        await pilot.resize_terminal(200, 48)
        await pilot.pause(0.2)
        assert screen.view == "side" and screen.query_one("#committed-pane").display


async def test_accepting_records_the_picture_writes_the_snapshot_and_moves_on(
    reviewed_project: Path,
) -> None:
    snapshot = reviewed_project / "snaps/calculator/calculate/add/done-60-dark.txt"
    assert "1 + 1 = 2" in snapshot.read_text()
    async with make_app().run_test(size=(160, 48)) as pilot:
        screen = await loaded(pilot)
        hash_now = screen.item.fresh.hash  # type: ignore[union-attr]
        await pilot.press("a")
        await pilot.pause(0.3)
        decision = read_review_file(reviewed_project / "snaps/reviews.yaml").decision_for(
            DONE_60_DARK
        )
        assert decision is not None
        assert (decision.status, decision.hash, decision.reviewer) == (
            "accepted",
            hash_now,
            "Cy Reviewer",
        )
        assert "1 + 1 = 3" in snapshot.read_text()
        # On to the next case still to decide; the accepted one left the "To review" section.
        assert (
            screen.item is not None and screen.item.id == "calculator/calculate/add/done-60-light"
        )
        queue = screen.query_one("#queue", ReviewQueue)
        assert str(queue.root.children[0].label) == "To review 3"


async def test_rejecting_asks_for_a_note_and_records_it(reviewed_project: Path) -> None:
    async with make_app().run_test(size=(160, 48)) as pilot:
        screen = await loaded(pilot)
        await pilot.press("r")
        await pilot.pause(0.1)
        assert isinstance(pilot.app.screen, NoteScreen)
        await pilot.press("enter")  # no note: refused
        await pilot.pause(0.1)
        assert isinstance(pilot.app.screen, NoteScreen)
        assert "needs a note" in str(pilot.app.screen.query_one("#note-error", Static).render())
        await pilot.press(*"three is wrong")
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert pilot.app.screen is screen
        decision = read_review_file(reviewed_project / "snaps/reviews.yaml").decision_for(
            DONE_60_DARK
        )
        assert decision is not None and (decision.status, decision.note) == (
            "rejected",
            "three is wrong",
        )
        # The committed snapshot is left alone: the change was not accepted.
        text = (reviewed_project / "snaps/calculator/calculate/add/done-60-dark.txt").read_text()
        assert "1 + 1 = 2" in text
        # A note on the rejected case keeps the rejection and replaces the note.
        queue = screen.query_one("#queue", ReviewQueue)
        assert queue.select_case(DONE_60_DARK)
        await pilot.pause(0.1)
        await pilot.press("n")
        await pilot.pause(0.1)
        note = pilot.app.screen
        assert isinstance(note, NoteScreen) and note.query_one(Input).value == "three is wrong"
        note.query_one(Input).value = "3 is right after all? no: 2"
        await pilot.press("enter")
        await pilot.pause(0.3)
        decision = read_review_file(reviewed_project / "snaps/reviews.yaml").decision_for(
            DONE_60_DARK
        )
        assert decision is not None and (decision.status, decision.note) == (
            "rejected",
            "3 is right after all? no: 2",
        )


async def test_phase_width_and_theme_switch_in_place(reviewed_project: Path) -> None:
    async with make_app().run_test(size=(160, 48)) as pilot:
        screen = await loaded(pilot)
        assert screen.item is not None and screen.item.id == DONE_60_DARK
        steps = {
            "left_square_bracket": "calculator/calculate/add/executing-60-dark",
            "w": "calculator/calculate/add/executing-100-dark",
            "t": "calculator/calculate/add/executing-60-light",  # light has no 100 here
            "right_square_bracket": "calculator/calculate/add/done-60-light",
        }
        for key, expected in steps.items():
            await pilot.press(key)
            await pilot.pause(0.1)
            assert screen.item is not None and screen.item.id == expected, key
        card = screen.query_one("#now", CaseCard)
        assert (card.card_width, card.case_theme) == (60, "light")
        # The app keeps its own theme; only the case is light.
        assert pilot.app.theme == "textual-dark"


async def test_the_filter_narrows_the_queue_by_status_tool_and_phase(
    reviewed_project: Path,
) -> None:
    async with make_app().run_test(size=(160, 48)) as pilot:
        screen = await loaded(pilot)
        await pilot.press("slash")
        await pilot.press(*"status:rejected")
        await pilot.pause(0.2)
        queue = screen.query_one("#queue", ReviewQueue)
        assert [item.id for item in queue.ordered] == [
            "calculator/calculate/hostile/failed-60-light"
        ]
        filter_input = screen.query_one("#filter", Input)
        filter_input.value = "phase:executing theme:light"
        await pilot.pause(0.2)
        assert sorted(item.id for item in queue.ordered) == [
            "calculator/calculate/add/executing-60-light",
            "calculator/calculate/hostile/executing-60-light",
        ]
        filter_input.value = "colour:red"
        await pilot.pause(0.2)
        counts = str(screen.query_one("#review-counts", Static).render())
        assert "no field 'colour'" in counts


async def test_every_key_is_in_the_help_and_the_palette(reviewed_project: Path) -> None:
    async with make_app().run_test(size=(160, 48)) as pilot:
        screen = await loaded(pilot)
        await pilot.press("question_mark")
        await pilot.pause(0.1)
        help_screen = pilot.app.screen
        assert isinstance(help_screen, ReviewHelpScreen)
        described = {binding.description for binding in help_screen.bindings}
        assert {"Accept", "Reject…", "Note…", "Next to decide", "Filter", "Width"} <= described
        assert help_screen.review_file == "snaps/reviews.yaml"  # this project's, not a default
        await pilot.press("escape")
        await pilot.pause(0.1)
        commands = {command.title for command in pilot.app.get_system_commands(screen)}
        assert {"Accept", "Reject…", "Next phase", "Case theme", "Flip now / committed"} <= commands


async def test_the_app_theme_redraws_the_queue_and_summary_in_its_palette(
    reviewed_project: Path,
) -> None:
    """textual-light's orange is 1.5:1 on its background: after ctrl+t the 'changed' marks
    must be in the light palette's darkened warning colour, not the dark one's."""
    async with make_app().run_test(size=(160, 48)) as pilot:
        screen = await loaded(pilot)

        def colours() -> tuple[set[str], set[str]]:
            """The foreground colours (#rrggbb) in the case summary and the queue's cursor."""
            summary = screen.query_one("#case-summary", Static).render()
            leaf = screen.query_one("#queue", ReviewQueue).cursor_node
            assert isinstance(summary, Content) and leaf is not None
            assert isinstance(leaf.label, Text)
            return (
                {
                    span.style.foreground.hex.lower()
                    for span in summary.spans
                    if isinstance(span.style, TextualStyle) and span.style.foreground is not None
                },
                {
                    style.color.triplet.hex
                    for span in leaf.label.spans
                    for style in [
                        Style.parse(span.style) if isinstance(span.style, str) else span.style
                    ]
                    if style.color is not None and style.color.triplet is not None
                },
            )

        dark = palette_for(pilot.app.current_theme)
        summary, label = colours()
        assert dark.warning in summary and dark.warning in label
        await pilot.press("ctrl+t")
        await pilot.pause(0.2)
        light = palette_for(pilot.app.current_theme)
        assert light.warning != dark.warning
        summary, label = colours()
        assert light.warning in summary and dark.warning not in summary
        assert light.warning in label and dark.warning not in label
        assert screen.item is not None and screen.item.id == DONE_60_DARK


async def test_a_narrow_terminal_starts_with_the_queue_hidden_and_keys_still_walk_it(
    reviewed_project: Path,
) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        screen = await loaded(pilot)
        assert screen.has_class("-queue-hidden") and screen.view == "now"
        await pilot.press("j")
        await pilot.pause(0.1)
        assert (
            screen.item is not None and screen.item.id == "calculator/calculate/add/done-60-light"
        )
        await pilot.press("f")
        await pilot.pause(0.1)
        assert screen.view == "committed" and not screen.query_one("#now-pane").display
        await pilot.press("s")
        await pilot.pause(0.1)
        assert not screen.has_class("-queue-hidden")


@pytest.mark.slow
def test_python_m_workbench_review_runs_in_a_terminal(reviewed_project: Path) -> None:
    """What `workbench serve --review` launches: the module, in a pseudo-terminal."""
    import fcntl
    import pty
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 140, 0, 0))
    process = subprocess.Popen(
        [sys.executable, "-m", "workbench", "review"],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        # Textual prefers COLUMNS/LINES to the terminal's size; a full run may have them set.
        env={
            **{k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")},
            "TERM": "xterm-256color",
        },
        cwd=reviewed_project,
    )
    os.close(follower)
    screen = pyte.Screen(140, 40)
    stream = pyte.ByteStream(screen)
    # Generous: a cold interpreter drawing every case on a busy 2-core CI box took over 60 s.
    deadline = time.monotonic() + 100
    shown = ""
    try:
        while time.monotonic() < deadline and "To review 4" not in shown:
            ready, _, _ = select.select([leader], [], [], 0.2)
            if ready:
                stream.feed(os.read(leader, 65536))
                shown = "\n".join(screen.display)
        assert "To review 4" in shown, shown
        assert "calculator › calculate › add · done · 60 columns · dark" in shown
        os.write(leader, b"q")
        # Keep reading: an app that quits still writes (the screen it restores).
        while process.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 0.2)
            if ready:
                try:
                    os.read(leader, 65536)
                except OSError:
                    break
        assert process.wait(timeout=10) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(leader)


async def test_the_summary_counts_the_never_reviewed_as_the_queue_does(
    reviewed_project: Path,
) -> None:
    """With no decisions at all, the 4 changed cases are to review and the other 16 never
    reviewed: the summary line must not count the 4 twice (it said "20 never reviewed")."""
    (reviewed_project / "snaps" / "reviews.yaml").unlink()
    async with make_app().run_test(size=(160, 48)) as pilot:
        screen = await loaded(pilot)
        queue = screen.query_one("#queue", ReviewQueue)
        sections = [str(node.label) for node in queue.root.children]
        assert sections == ["To review 4", "Never reviewed 16"]
        counts = str(screen.query_one("#review-counts", Static).render())
        assert "4 to review" in counts and "16 never reviewed" in counts, counts
