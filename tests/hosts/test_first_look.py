"""A drawn card folded the way a host first shows it: header kept, body cut, elision framed."""

from __future__ import annotations

from workbench.hosts import bundled_hosts, first_look

CARD = [
    "╭─ Tool ───────────╮",
    "│ Read: big.csv    │",
    "│ ──────────────── │",
    *[f"│ row {n:<12} │" for n in range(1, 21)],
    "╰──────── done ───╯",
]


def fold(name: str) -> list[str]:
    look = first_look(
        CARD,
        bundled_hosts().get(name),
        text_of=lambda line: line,
        elision_line=lambda text, like: f"│ {text} │",
    )
    return look.lines


def test_codex_keeps_five_lines_each_end_and_counts_the_rest() -> None:
    lines = fold("codex")
    assert lines[:3] == CARD[:3] and lines[-1] == CARD[-1]
    assert [line for line in lines if "row" in line] == [*CARD[3:8], *CARD[18:23]]
    assert "│ … +10 lines │" in lines


def test_gemini_keeps_the_end_with_its_elision_line_on_top() -> None:
    lines = fold("gemini-cli")
    assert lines[3] == "│ ... first 5 lines hidden (ctrl+o to show) ... │"
    assert lines[4:-1] == CARD[8:-1]


def test_claude_code_keeps_the_start() -> None:
    lines = fold("claude-code")
    assert lines[3:6] == CARD[3:6] and lines[6] == "│ … +17 lines (ctrl+o to expand) │"


def test_a_short_card_and_a_host_without_a_fold_show_it_whole() -> None:
    assert fold("none") == CARD and fold("opencode") == CARD
    short = CARD[:5] + CARD[-1:]
    look = first_look(
        short,
        bundled_hosts().get("codex"),
        text_of=lambda line: line,
        elision_line=lambda text, like: text,
    )
    assert look.lines == short and look.hidden == 0
