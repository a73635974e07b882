"""Principles 8 and 9: what stands in for the result has the result's shape, so nothing jumps."""

from __future__ import annotations

from collections.abc import Iterator

from workbench.audit.model import RenderKey, Subject
from workbench.audit.rules import rule
from workbench.core.call_state import Phase

MAX_JUMP_ROWS = 4
"""How much a typical card may grow or shrink when the result replaces the Placeholder or the
Streaming surface. Four rows is one list item (title, address, snippet) and its note: the
Placeholder cannot know how many items will come, but one item's difference reads as the
list filling in, while more pushes everything under the card out from under the eye (the
issue's example jumped 27 rows)."""


@rule(8, "placeholder-keeps-layout")
def check_layout(subject: Subject) -> Iterator[tuple[RenderKey, str, str]]:
    """A slow call's Placeholder (and a Streaming surface) is shaped like the typical Render:
    the card's height changes by at most four rows when the result arrives (for APIs that have
    a Render of their own)."""
    if subject.kind != "typical" or subject.ending is not Phase.DONE:
        return
    before = (
        Phase.STREAMING_OUTPUT
        if Phase.STREAMING_OUTPUT in subject.phases
        else Phase.EXECUTING
        if Phase.EXECUTING in subject.phases
        else None
    )
    if before is None:
        return
    surface = "Streaming surface" if before is Phase.STREAMING_OUTPUT else "Placeholder"
    for waiting in subject.cards(phase=before, theme="dark"):
        key = waiting.key
        final = subject.card(Phase.DONE, key.width, key.theme)
        if final is None or final.body_fallback:
            # No Render of its own: the generic one shows the raw result, and there is no
            # designed layout for a Placeholder to take after (principle 5: plain results
            # need no Render).
            continue
        jump = final.height - waiting.height
        if abs(jump) <= MAX_JUMP_ROWS:
            continue
        generic = waiting.body_fallback and before is Phase.EXECUTING
        advice = (
            f"give {subject.ref.api} a Placeholder of its own, laid out like its Render "
            "(the same header, skeleton rows where the items will be)"
            if generic
            else f"lay the {surface} out like the Render: the same header and about as many "
            "rows (skeleton bars where the items will be)"
        )
        yield (
            final.key,
            f"the card {'grows' if jump > 0 else 'shrinks'} by {abs(jump)} rows when the "
            f"result replaces the {'generic ' if generic else ''}{surface} "
            f"({waiting.height} -> {final.height} at {key.width} columns)",
            advice,
        )
