"""Principle 13 (one voice with the host): counts agree with their nouns."""

from __future__ import annotations

import re
from collections.abc import Iterator

from workbench.audit.model import RenderKey, Subject
from workbench.audit.rules import rule

COUNTED_NOUNS = [
    "file",
    "line",
    "result",
    "entry",
    "match",
    "task",
    "page",
    "reference",
    "character",
    "byte",
    "item",
    "row",
    "block",
    "path",
    "skill",
    "error",
    "warning",
    "digit",
    "step",
    "command",
    "change",
    "replacement",
    "folder",
    "directory",
    "test",
    "word",
    "engine",
    "argument",
    "run",
    "call",
    "second",
    "minute",
    "hour",
    "day",
]
NOT_PLURAL = frozenset(
    [
        "is",
        "was",
        "has",
        "does",
        "plus",
        "less",
        "this",
        "its",
        "yes",
        "always",
        "as",
        "us",
        "bus",
        "gas",
        "thus",
        "minus",
        "status",
        "across",
        "process",
        "bonus",
        "ms",
        "kbs",
        "mbs",
        "gbs",
    ]
)
_ONE_PLURAL = re.compile(r"(?<![\d.,/:+-])\b1 ([a-z]{3,}s)\b")
_MANY_SINGULAR = re.compile(
    r"(?<![\d.,/:+-])\b(0|[2-9]|[1-9]\d+|\d{1,3}(?:,\d{3})+) ("
    + "|".join(COUNTED_NOUNS)
    + r")\b(?!s)"
)
_ANY = re.compile(r"\b1 [a-z]{3,}s\b|\d [a-z]{3,}\b|[a-z]\(e?s\)")
"""A cheap first pass over a whole drawing: most have nothing that could be a count."""
_HEDGED = re.compile(r"[a-z]\((?:e?s)\)")


@rule(13, "plurals")
def check_plurals(subject: Subject) -> Iterator[tuple[RenderKey, str, str]]:
    """Numbers agree with their nouns ("1 file", "2 files"), never "1 files" or "file(s)": one
    pluralising helper in the surface kit (kit.plural) makes every count."""
    data = subject.data_text
    reported: set[str] = set()
    for rendered in [*subject.cards(), *subject.portals()]:
        text = "\n".join(rendered.rows)
        if not _ANY.search(text):
            continue
        for line in rendered.rows:
            for wrong in _wrong_counts(line):
                # A tool's own output may say "1 files": quoting it is not the surface's voice.
                if wrong in reported or quotes_data(line, data):
                    continue
                reported.add(wrong)
                yield (
                    rendered.key,
                    f"“{wrong}”",
                    "make counts with kit.plural(count, noun) so the noun agrees "
                    "(“1 file”, “2 files”)",
                )


def _wrong_counts(line: str) -> Iterator[str]:
    for match in _ONE_PLURAL.finditer(line):
        if match.group(1) not in NOT_PLURAL:
            yield match.group(0)
    for match in _MANY_SINGULAR.finditer(line):
        yield match.group(0)
    for match in _HEDGED.finditer(line):
        start = line.rfind(" ", 0, match.start()) + 1
        yield line[start : match.end()]


_GUTTER = re.compile(r"^\s*\d+\s+")


def quotes_data(line: str, data: str) -> bool:
    """Whether the row quotes the tool's data (a code line keeps its line-number gutter)."""
    content = line.strip("│ ").strip().rstrip("…")
    if not content:
        return False
    return content in data or _GUTTER.sub("", content) in data
