"""Readable text from HTML: title and body text, without scripts, styles and page chrome."""

from __future__ import annotations

import re
from html.parser import HTMLParser

SKIPPED = frozenset(
    {
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
    }
)
BLOCKS = frozenset(
    {
        "p",
        "div",
        "section",
        "article",
        "br",
        "li",
        "ul",
        "ol",
        "tr",
        "table",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "pre",
        "blockquote",
        "hr",
        "main",
    }
)
HEADINGS = {"h1": "# ", "h2": "## ", "h3": "### "}
_HTML_SPACE = re.compile(r"[ \t\r\n\f]+")


class _ReadableParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title = ""
        self.parts: list[str] = []
        self._skip = 0
        self._in_title = False
        self._bullet = False
        self._pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED:
            self._skip += 1
        elif tag == "title":
            self._in_title = True
        elif tag == "li":
            # The bullet waits for the item's first text, so "<li><p>x" reads "- x".
            self.parts.append("\n")
            self._bullet = not self._skip
        elif tag in BLOCKS:
            self.parts.append("\n")
            if tag == "pre":
                self._pre += 1
            if tag in HEADINGS and not self._skip:
                self.parts.append(HEADINGS[tag])

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED:
            self._skip = max(0, self._skip - 1)
        elif tag == "title":
            self._in_title = False
        elif tag in BLOCKS:
            if tag == "li":
                self._bullet = False
            elif tag == "pre":
                self._pre = max(0, self._pre - 1)
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        elif not self._skip:
            if not self._pre:
                data = _HTML_SPACE.sub(
                    " ", data
                )  # a line break in the source is not a paragraph break
            if self._bullet and data.strip():
                self.parts.append("- ")
                self._bullet = False
            self.parts.append(data)


def extract_readable(html: str) -> tuple[str, str]:
    """``(title, text)`` of an HTML page; text blocks are separated by blank lines."""
    parser = _ReadableParser()
    try:
        parser.feed(html)
        parser.close()
    except Exception:  # noqa: BLE001 - malformed HTML still yields what was parsed
        pass
    text = "".join(parser.parts)
    lines = [re.sub(r"[ \t\r\f\v]+", " ", line).strip() for line in text.split("\n")]
    paragraphs: list[str] = []
    for line in lines:
        if line:
            paragraphs.append(line)
    return re.sub(r"\s+", " ", parser.title).strip(), "\n\n".join(paragraphs)
