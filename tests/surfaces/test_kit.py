"""The surface kit's helpers: counts that agree, cuts that keep the status, colours that read."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from rich.console import Console

from workbench.core.call_state import CallState, Phase
from workbench.core.result import ToolError, ToolResult
from workbench.surfaces import kit
from workbench.surfaces.colors import TEXT_CONTRAST, contrast
from workbench.surfaces.context import DARK_PALETTE, LIGHT_PALETTE, SurfaceContext


@pytest.mark.parametrize(
    ("count", "noun", "expected"),
    [
        (0, "file", "0 files"),
        (1, "file", "1 file"),
        (2, "file", "2 files"),
        (1_204, "file", "1,204 files"),
        (1, "entry", "1 entry"),
        (3, "entry", "3 entries"),
        (2, "match", "2 matches"),
        (2, "day", "2 days"),
        (2, "replacement", "2 replacements"),
    ],
)
def test_plural_agrees(count: int, noun: str, expected: str) -> None:
    assert kit.plural(count, noun) == expected


def test_plural_takes_an_irregular_form() -> None:
    assert kit.plural(2, "person", "people") == "2 people"
    assert kit.plural(1, "person", "people") == "1 person"


def test_notes_pluralise_their_unit() -> None:
    assert kit.showing(1, 1, "page", DARK_PALETTE).plain == "showing 1 of 1 page"
    assert kit.more_note(7, 3, 10, "match", DARK_PALETTE).plain == (
        "+7 more · showing 3 of 10 matches"
    )


def test_returned_note_names_both_cuts_with_the_tools_numbers() -> None:
    note = kit.returned_note(12, 50, 120, "task", DARK_PALETTE, more_hint="raise limit")
    assert note.plain == "showing 12 of 50 tasks returned · 120 in all · raise limit"
    assert kit.returned_note(12, 50, 50, "task", DARK_PALETTE).plain == (
        "+38 more · showing 12 of 50 tasks"
    )
    assert kit.returned_note(3, 3, 3, "task", DARK_PALETTE).plain == ""


@pytest.mark.parametrize("where", ["end", "middle"])
def test_shorten_counts_wide_characters_as_two_cells(where: str) -> None:
    text = "发布说明 🚀 release notes for the asyncio 教程 page"
    short = kit.shorten(text, 20, where=where)
    assert cell_len(short) <= 20 and "…" in short
    if where == "middle":
        assert short.endswith("page")


def test_shorten_never_walks_a_huge_value() -> None:
    assert kit.shorten("x" * 5_000_000, 10) == "x" * 9 + "…"


def _ctx(width: int, phase: Phase, error: ToolError | None = None) -> SurfaceContext:
    result = ToolResult(success=error is None, content="c", state={}, error=error)
    state = CallState(
        tool="demo", api="lookup", phase=phase, args={"query": "q" * 200}, result=result
    )
    return SurfaceContext(state=state, width=width, palette=LIGHT_PALETTE)


def _line(ctx: SurfaceContext, suffix: str | None = "(12 results)") -> str:
    line = kit.status_line(
        ctx,
        "Searching",
        "Searched",
        kit.text(ctx.args["query"]),
        kit.text(suffix) if suffix else None,
        verb_failed="Search failed",
    )
    console = Console(width=ctx.inner_width, file=None, color_system=None)
    with console.capture() as capture:
        console.print(line, end="")
    return capture.get()


def test_status_line_cuts_the_subject_and_keeps_the_status() -> None:
    shown = _line(_ctx(60, Phase.DONE))
    assert shown.startswith("Searched: qqq") and shown.endswith("… (12 results)")
    assert cell_len(shown) <= 56
    failed = _line(_ctx(60, Phase.FAILED, ToolError(type="Unavailable", message="down")), None)
    assert failed.endswith("… ✗ Unavailable")


@pytest.mark.parametrize(
    ("phase", "start"),
    [
        (Phase.SKIPPED, "↷ Skipped: "),
        (Phase.CANCELLED, "⊘ Cancelled: "),
        (Phase.BLOCKED, "⛔ Blocked: "),
        (Phase.TIMED_OUT, "✗ Timed out: "),
        (Phase.AWAITING_APPROVAL, "◆ Awaiting approval: "),
    ],
)
def test_status_line_words_every_ending(phase: Phase, start: str) -> None:
    error = None if phase is Phase.AWAITING_APPROVAL else ToolError(type="X", message="m")
    assert _line(_ctx(100, phase, error), None).startswith(start)


def _plain(renderable: object, width: int = 100) -> str:
    console = Console(width=width, file=None, color_system=None)
    with console.capture() as capture:
        console.print(renderable, end="")
    return capture.get()


@pytest.mark.parametrize("phase", [Phase.SKIPPED, Phase.CANCELLED, Phase.BLOCKED, Phase.TIMED_OUT])
def test_a_cards_ending_notice_does_not_name_the_ending_its_inspector_named(phase: Phase) -> None:
    ctx = _ctx(100, phase, ToolError(type="X", message="m"))
    inspector = _line(ctx, None)
    card = _plain(kit.ending_notice(ctx, what="the search"))
    portal = _plain(kit.portal_ending(ctx, what="the search"))
    mark_and_verb = f"{kit.ENDING_MARKS[phase]} {kit.ENDING_VERBS[phase]}"
    assert inspector.startswith(mark_and_verb)
    assert mark_and_verb not in card and kit.ENDING_VERBS[phase] not in card
    assert card.startswith("The search ")
    assert portal.startswith(f"{mark_and_verb}: the search ")


def test_every_ending_has_its_own_mark_and_live_history_uses_the_same() -> None:
    from workbench.app.widgets.history_panel import PHASE_MARKS

    assert len(set(kit.ENDING_MARKS.values())) == len(kit.ENDING_MARKS)
    for phase, mark in kit.ENDING_MARKS.items():
        assert PHASE_MARKS[phase][0] == mark, phase


def test_output_colours_are_made_to_read_on_the_theme() -> None:
    for palette in (DARK_PALETTE, LIGHT_PALETTE):
        line = kit.output_text("\x1b[36m==>\x1b[0m build \x1b[34mok\x1b[0m", palette)
        assert line.plain == "==> build ok"
        for span in line.spans:
            colour = span.style.color.triplet.hex  # type: ignore[union-attr]
            assert contrast(colour, palette.background) >= TEXT_CONTRAST
