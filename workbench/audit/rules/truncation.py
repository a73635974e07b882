"""Principles 9 and 11: a cut is said, with the tool's own numbers, and survives the hand-over."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from workbench.audit.model import Rendered, RenderKey, Subject
from workbench.audit.rules import rule
from workbench.audit.text import (
    MORE,
    RANGE,
    SHOWING,
    TRUNCATION_NOTE,
    counts_by_unit,
    numbers_in,
    to_int,
)
from workbench.core.call_state import Phase

CUT_FLAGS = ("truncated", "outputTruncated", "hasMore", "has_more", "isTruncated")
COUNT_KEYS = ("total", "totalCount", "total_count", "count", "matched", "available")


def more_existed(state: Any) -> tuple[str, int | None, int | None] | None:
    """What the result says was left out: ``(what, returned, total)``, or ``None``.

    Reads the conventions tools use: a ``truncated``-style flag, or a list beside a larger
    count (``tasks`` with ``total: 120`` when 50 came back).
    """
    if not isinstance(state, dict):
        return None
    for name, value in state.items():
        if isinstance(value, list):
            for count_key in COUNT_KEYS:
                total = state.get(count_key)
                if isinstance(total, int) and not isinstance(total, bool) and total > len(value):
                    return name, len(value), total
    for flag in CUT_FLAGS:
        if state.get(flag) is True:
            return flag, None, None
    return None


def _notes(rendered: Rendered) -> list[str]:
    return [text for text in rendered.body_text.splitlines() if TRUNCATION_NOTE.search(text)]


@rule(11, "truncation-honest")
def check_truncation(subject: Subject) -> Iterator[tuple[RenderKey, str, str]]:
    """When the result or the call says more existed than is shown, the Render (not only the
    Streaming surface) says "showing N of M" with the numbers the tool returned, and every
    such note adds up."""
    ending = subject.ending
    for rendered in [*subject.cards(), *subject.portals()]:
        key = rendered.key
        text = rendered.body_text
        ctx = rendered.ctx
        known = (
            set(numbers_in(ctx.result_state))
            | set(numbers_in(ctx.args))
            | set(numbers_in(ctx.content))
            | {ctx.output.line_count}
        )
        said = counts_by_unit(subject.full_inspector(key.phase, key.theme))
        for line in text.splitlines():
            for match in SHOWING.finditer(line):
                shown, total = to_int(match.group(1)), to_int(match.group(2))
                if shown > total:
                    yield key, f"“{match.group(0)}” shows more than there is", "count again"
                more = MORE.search(line)
                if more is not None and to_int(more.group(1)) != total - shown:
                    yield (
                        key,
                        f"“{line.strip()}” does not add up ({total:,} - {shown:,} is "
                        f"{total - shown:,})",
                        "derive both numbers from the same list and total",
                    )
                unit = (match.group(3) or "").split(" ")[0]
                unit = unit[:-1] if unit.endswith("s") and len(unit) > 3 else unit
                if key.phase.is_terminal and known and total not in known:
                    yield (
                        key,
                        f"“{match.group(0)}” — the tool reported no {total:,}",
                        "use the tool's own counts from result.state (pass total_lines= to "
                        "kit.capped_text/code_block), not a count of what reached the surface",
                    )
                elif (
                    key.surface == "card"
                    and unit in said
                    and total not in said[unit]
                    # "showing 12 of 50 returned · 120 in all" names the Inspector's count too.
                    and not any(f"{number:,}" in line for number in said[unit])
                ):
                    counted = ", ".join(f"{number:,}" for number in sorted(said[unit]))
                    yield (
                        key,
                        f"the Inspector counts {counted} {unit}s, the Render “{match.group(0)}”",
                        "take both from the same field of result.state, so they agree",
                    )
            for match in RANGE.finditer(line):
                first, last, total = (to_int(match.group(index)) for index in (1, 2, 3))
                if not first <= last <= total:
                    yield (
                        key,
                        f"“{match.group(0)}” is not a range of the file",
                        "say the file is empty when it has no lines, and keep the range inside it",
                    )
        if key.phase is not ending or not key.phase.is_terminal:
            continue
        left_out = more_existed(rendered.ctx.result_state)
        if left_out is not None:
            what, returned, existed = left_out
            if returned is not None and existed is not None:
                mentions = {f"{returned:,}", str(returned)} & set(_tokens(text))
                if not mentions or f"{existed:,}" not in text:
                    yield (
                        key,
                        f"the tool returned {returned:,} of {existed:,} {what}, and the "
                        f"{'Portal' if key.surface == 'portal' else 'Render'} does not say so",
                        f"say both cuts: “showing N of {returned:,} returned · {existed:,} in all” "
                        "(kit.returned_note)",
                    )
            elif not _notes(rendered):
                yield (
                    key,
                    f"the result says {what}, and the "
                    f"{'Portal' if key.surface == 'portal' else 'Render'} shows no cut",
                    "say what was left out: “showing N of M” with the tool's numbers",
                )
    # The hand-over: a note the Streaming surface showed must not vanish in the Render.
    if Phase.STREAMING_OUTPUT in subject.phases and ending.is_terminal:
        for streaming in subject.cards(phase=Phase.STREAMING_OUTPUT):
            key = streaming.key
            final = subject.card(ending, key.width, key.theme)
            if final is None or not _notes(streaming) or _notes(final):
                continue
            output_lines = final.ctx.output.line_count
            if output_lines > len(final.body_rows):
                yield (
                    final.key,
                    f"while streaming the card said “{_notes(streaming)[0].strip()}”; "
                    f"the Render shows part of the {output_lines:,} lines without a note",
                    "keep the note when the Render takes over (kit.hidden_lines_note)",
                )


def _tokens(text: str) -> list[str]:
    return [token.strip("()·,.:;") for token in text.split()]
