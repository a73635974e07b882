"""The sanitizer: markup stays literal, escape sequences and controls never survive."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from rich.style import Style

from workbench.core.sanitize import ansi_text, clean, plain, safe_json

FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("[bold]x[/]", "[bold]x[/]"),
        ("[@click=app.quit]q[/]", "[@click=app.quit]q[/]"),
        ("[/bold]", "[/bold]"),
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
    ],
)
def test_clean(raw: str, expected: str) -> None:
    assert clean(raw) == expected


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


@given(st.text())
def test_clean_never_leaves_controls(raw: str) -> None:
    cleaned = clean(raw)
    assert "\x1b" not in cleaned
    assert not FORBIDDEN.search(cleaned)


@given(st.text())
def test_ansi_text_never_leaves_controls(raw: str) -> None:
    text = ansi_text(raw)
    assert not FORBIDDEN.search(text.plain)
    assert all(getattr(span.style, "link", None) is None for span in text.spans)


BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


@given(
    st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs"), blacklist_characters=BIDI))
)
def test_clean_keeps_ordinary_text(raw: str) -> None:
    assert clean(raw) == raw


def test_bidi_overrides_are_removed() -> None:
    """An RTL override can make a shown command differ from the one that runs."""
    assert clean("rm -rf \u202eexe.gnp") == "rm -rf exe.gnp"
    assert clean("a\u2066b\u2069c") == "abc"


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
    text.encode("utf-8")  # lone surrogates are escaped, so any stream can take it


def test_safe_json_keeps_wide_text_readable() -> None:
    assert safe_json({"title": "検索 🔎 \x9b"}) == '{"title": "検索 🔎 \\u009b"}'
