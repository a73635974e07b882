"""Readable text from HTML: title and body text, without scripts, styles and page chrome."""

from __future__ import annotations

import re
from html.parser import HTMLParser

SKIPPED = frozenset({"script", "style", "noscript", "svg", "nav", "header", "footer", "template", "iframe", "form", "button"})
BLOCKS = frozenset({"p", "div", "section", "article", "br", "li", "ul", "ol", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "hr", "main"})
HEADINGS = {"h1": "# ", "h2": "## ", "h3": "### "}


class _ReadableParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title = ""
        self.parts: list[str] = []
        self._skip = 0
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED:
            self._skip += 1
        elif tag == "title":
            self._in_title = True
        elif tag in BLOCKS:
            self.parts.append("\n")
            if tag in HEADINGS and not self._skip:
                self.parts.append(HEADINGS[tag])
        elif tag == "li":
            self.parts.append("\n- ")

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED:
            self._skip = max(0, self._skip - 1)
        elif tag == "title":
            self._in_title = False
        elif tag in BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        elif not self._skip:
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
