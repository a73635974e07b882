"""Principles 1 and 2: the Inspector is one line that keeps its status at any width."""

from __future__ import annotations

import re
from collections.abc import Iterator

from rich.cells import cell_len

from workbench.audit.model import RenderKey, Subject
from workbench.audit.rules import rule

_STATUS_TOKEN = re.compile(
    r"\s+(?:\([^()]*\)|[✓✗]\s?\S*|→ \S+(?:\s[\d,]+)?|= \S+|[+-]\d[\d,]*|after [\d.]+ s)\s*$"
)


def status_tail(line: str) -> str:
    """The status at the end of an Inspector line: counts in brackets, ✓/✗ marks, ``→ exit 0``,
    ``= 42``, ``+3 -1``, ``after 1.2 s`` — read from the end until something else starts.

    Used when the line does not mark its subject by colour (``kit.status_line`` does)."""
    rest = line.rstrip()
    tail = ""
    while True:
        match = _STATUS_TOKEN.search(rest)
        if match is None or match.start() == 0:
            return tail.strip()
        tail = rest[match.start() :] + tail
        rest = rest[: match.start()]


@rule(2, "inspector-one-line")
def check_one_line(subject: Subject) -> Iterator[tuple[RenderKey, str, str]]:
    """The Inspector is one sentence on one line, in every phase and at every width."""
    for rendered in subject.cards():
        rows = len(rendered.inspector_rows)
        if rows > 1:
            yield (
                rendered.key,
                f"the Inspector takes {rows} lines",
                "keep it to one line (no_wrap, overflow ellipsis; kit.status_line does it) "
                "and move lists and long text to the Render or the Portal",
            )


@rule(1, "status-survives-narrowing")
def check_status_survives(subject: Subject) -> Iterator[tuple[RenderKey, str, str]]:
    """When the Inspector does not fit, it shortens the argument with an ellipsis and keeps the
    status (✓/✗, the count, the outcome) whole, so the collapsed card still reads."""
    for rendered in subject.cards():
        key = rendered.key
        full = subject.full_inspector(key.phase, key.theme)
        shown = rendered.inspector_text.rstrip()
        if cell_len(full) <= rendered.ctx.inner_width or shown == full:
            continue
        # Before the ending there is no status yet, and a subject can end like one ("x = 3").
        marked = subject.inspector_status(key.phase, key.theme)
        tail = (
            "" if not key.phase.is_terminal else marked if marked is not None else status_tail(full)
        )
        if tail and not shown.endswith(tail):
            yield (
                key,
                f"the status “{tail}” is cut at {key.width} columns "
                f"(the line ends “…{shown[-min(len(shown), 24) :]}”)",
                "shorten the argument instead and keep the status last "
                "(kit.status_line cuts the subject with … and keeps the suffix)",
            )
        elif "…" not in shown:
            yield (
                key,
                f"the Inspector is cut at {key.width} columns without an ellipsis",
                "shorten the argument with … so the reader sees that text is missing",
            )
