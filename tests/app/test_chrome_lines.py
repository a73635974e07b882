"""Chrome lines shorten with an ellipsis, keeping the part that tells cases apart."""

from __future__ import annotations

import pytest

from workbench.app.widgets.history_panel import HistoryEntry
from workbench.app.widgets.status_line import StatusPart, fit_parts
from workbench.core import events as ev
from workbench.core.call_record import CallRecord
from workbench.core.result import to_result


def entry(tool: str, api: str) -> HistoryEntry:
    record = CallRecord.start(tool, api)
    for event in (
        ev.ArgsComplete(args={}, at_ms=0),
        ev.Started(at_ms=1),
        ev.Completed(to_result(success=True, content="ok"), at_ms=1_250),
    ):
        record.add(event)
    return HistoryEntry(source="everything", args={}, record=record)


@pytest.mark.parametrize("width", [20, 28, 40, 80])
def test_history_rows_keep_the_api_that_tells_calls_apart(width: int) -> None:
    # Every row read "✓ mcp-servers-everything.get…" for get-sum, get-tiny-image and others.
    tool = "mcp-servers-everything"
    rows = [entry(tool, api).label(1, width) for api in ("get-sum", "get-tiny-image", "echo")]
    texts = [row.plain for row in rows]
    assert len(set(texts)) == 3
    for row, api in zip(rows, ("get-sum", "get-tiny-image", "echo"), strict=True):
        assert row.cell_len <= width
        assert api in row.plain, row.plain
    if width >= 40:
        # Room for the tool too (shortened in its middle when need be) and the run time.
        assert "1,249 ms" in texts[0] and "mcp-" in texts[0]


def test_a_status_line_gives_way_by_priority_and_ends_in_an_ellipsis() -> None:
    parts = [
        StatusPart("A page over 25,000 characters is capped", priority=10),
        StatusPart("web-browsing/crawlSinglePage.yaml#huge-page", priority=40, where="middle"),
        StatusPart("fit 82 cols", priority=100, droppable=False),
    ]
    wide = fit_parts(parts, 120).plain
    assert wide == (
        "A page over 25,000 characters is capped  ·  "
        "web-browsing/crawlSinglePage.yaml#huge-page  ·  fit 82 cols"
    )
    narrow = fit_parts(parts, 60).plain
    assert len(narrow) <= 60 and narrow.endswith("fit 82 cols")
    # The label gives way first; the address and the width stay whole while they fit.
    assert "#huge-page" in narrow and "capped" not in narrow
    # Then the address is shortened in its middle: the variant stays.
    tiny = fit_parts(parts, 40).plain
    assert len(tiny) <= 40 and tiny.endswith("#huge-page · fit 82 cols") and "…" in tiny, tiny
