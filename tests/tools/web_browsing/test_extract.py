"""extract_readable: title and readable text from real-world, malformed and hostile HTML."""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.tools.web_browsing.extract import extract_readable


def text_of(html: str) -> str:
    return extract_readable(html)[1]


def test_title_is_whitespace_collapsed_and_unescaped() -> None:
    assert extract_readable("<title>\n  Fish &amp; Chips\t&#8212; menu  </title><p>x</p>") == (
        "Fish & Chips — menu",
        "x",
    )


def test_no_title_is_empty() -> None:
    assert extract_readable("<p>just text</p>") == ("", "just text")


def test_empty_input() -> None:
    assert extract_readable("") == ("", "")


@pytest.mark.parametrize(
    "tag",
    [
        "script",
        "style",
        "noscript",
        "svg",
        "nav",
        "header",
        "footer",
        "template",
        "iframe",
        "form",
        "button",
    ],
)
def test_page_chrome_and_code_are_dropped(tag: str) -> None:
    assert (
        text_of(f"<p>before</p><{tag}>hidden <b>inner</b> text</{tag}><p>after</p>")
        == "before\n\nafter"
    )


def test_nested_skipped_tags_resume_after_the_outermost_closes() -> None:
    html = (
        "<header><nav><ul><li>Home</li></ul></nav><h1>Brand</h1></header><main><p>Story</p></main>"
    )
    assert text_of(html) == "Story"


def test_a_stray_closing_tag_does_not_hide_the_rest() -> None:
    assert text_of("</nav></script><p>still here</p>") == "still here"


def test_an_unclosed_script_swallows_what_follows() -> None:
    assert text_of("<p>visible</p><script>var x = '<p>not text</p>';") == "visible"


def test_headings_are_marked_to_level_three() -> None:
    html = "<h1>One</h1><h2>Two</h2><h3>Three</h3><h4>Four</h4><p>Body</p>"
    assert text_of(html) == "# One\n\n## Two\n\n### Three\n\nFour\n\nBody"


def test_blocks_become_paragraphs_and_inline_tags_do_not() -> None:
    html = (
        "<div>one <span>two</span> "
        "<em>three</em></div><div>four<br>five</div><table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>"
    )
    assert text_of(html) == "one two three\n\nfour\n\nfive\n\nab\n\nc"


def test_source_line_breaks_inside_a_paragraph_are_spaces() -> None:
    assert (
        text_of("<p>a sentence\nwrapped   over\r\n  three lines</p><p>next</p>")
        == "a sentence wrapped over three lines\n\nnext"
    )


def test_preformatted_text_keeps_its_lines() -> None:
    assert text_of("<pre>line one\nline two</pre>") == "line one\n\nline two"


def test_list_items_are_bulleted() -> None:
    html = (
        "<ul><li>one</li><li><p>two</p></li><li></li><li>  <a href='#'>three</a> "
        "more</li></ul><p>after</p>"
    )
    assert text_of(html) == "- one\n\n- two\n\n- three more\n\nafter"


def test_list_items_in_skipped_chrome_leave_no_bullets() -> None:
    assert text_of("<nav><ul><li>Home</li><li>About</li></ul></nav><p>Body</p>") == "Body"


def test_unclosed_list_items() -> None:
    assert text_of("<ol><li>first<li>second</ol>") == "- first\n\n- second"


@pytest.mark.parametrize(
    ("html", "text"),
    [
        ("<p>&amp; &lt;b&gt; &quot;q&quot; &#39;s&#39;</p>", "& <b> \"q\" 's'"),
        ("<p>caf&eacute; &#233; &#xE9; &euro;</p>", "café é é €"),
        ("<p>AT&T &bogus; 5 &lt 6</p>", "AT&T &bogus; 5 < 6"),
        ("<p>&notit;</p>", "\xacit;"),
        ("<p>a&nbsp;b</p>", "a\xa0b"),
        ("<p>&#27;[2J&#7;bell</p>", "[2Jbell"),
    ],
)
def test_entities(html: str, text: str) -> None:
    assert text_of(html) == text


@pytest.mark.parametrize(
    ("html", "text"),
    [
        ("<p>unclosed <b>bold <i>italic", "unclosed bold italic"),
        ("<p>one<p>two<div>three", "one\n\ntwo\n\nthree"),
        ("<<>> 1 < 2 > 0", "<<>> 1 < 2 > 0"),
        ("<!-- a comment --><p>kept</p>", "kept"),
        ("<!DOCTYPE html><![CDATA[ raw ]]><p>kept</p>", "kept"),
        ("<p class='x' id=\"y\" data-z>attrs</p>", "attrs"),
        ("<P>Upper</P><SCRIPT>hidden()</SCRIPT>", "Upper"),
        ("<?xml version='1.0'?><p>xml</p>", "xml"),
        ("<p>trailing <", "trailing <"),
    ],
)
def test_malformed_html_yields_what_can_be_read(html: str, text: str) -> None:
    assert text_of(html) == text


@pytest.mark.parametrize(
    "tail",
    ["<!-- unterminated comment", "<a href='unterminated>link</p>", "<script>", "<title>", "<"],
)
def test_a_broken_tail_keeps_the_text_before_it(tail: str) -> None:
    assert text_of(f"<p>kept</p>{tail}").startswith("kept")


def test_control_characters_pass_through_to_be_sanitised_later() -> None:
    title, text = extract_readable("<title>[bold]x[/] \x1b]52;c;aGk=\x07</title><p>\x1b[31mred</p>")
    assert title == "[bold]x[/] \x1b]52;c;aGk=\x07"
    assert text == "\x1b[31mred"


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_never_raises_and_paragraphs_are_tidy(html: str) -> None:
    title, text = extract_readable(html)
    assert title == title.strip()
    if text:
        paragraphs = text.split("\n\n")
        assert all(paragraph and paragraph == paragraph.strip() for paragraph in paragraphs)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "<p>",
                "</p>",
                "<div>",
                "<li>",
                "<nav>",
                "</nav>",
                "<script>",
                "</script>",
                "<title>",
                "</title>",
                "<pre>",
                "</pre>",
                "&amp;",
                "&",
                "<",
                ">",
                "<!--",
                "-->",
                "word",
                " ",
                "\n",
                "<br/>",
                "<h2>",
                "<b>",
            ]
        )
    )
)
def test_never_raises_on_tag_soup(parts: list[str]) -> None:
    title, text = extract_readable("".join(parts))
    assert isinstance(title, str) and isinstance(text, str)
    assert "\n\n\n" not in text


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=string.ascii_letters + string.digits + " \t\n.,;:!?'\"()-"))
def test_plain_text_is_whitespace_normalised(plain: str) -> None:
    assert text_of(plain) == " ".join(plain.split())
