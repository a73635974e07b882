"""Every JSON-RPC error a tool call can end in, and the result it becomes: one table.

:func:`call_error_result` is pure: each row is a code, a message and ``data`` as the SDK raises
them (with what the guard put in ``data``), and the result a user sees.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from workbench.core.limits import LimitExceeded
from workbench.core.result import ErrorType, ToolResult
from workbench.sources.mcp_errors import Unanswered, call_error_result
from workbench.sources.mcp_guard import GUARD_ERROR, SERVER_SENT


@dataclass(frozen=True)
class Row:
    """One error, where it came from, and what it must become."""

    code: int
    message: str
    data: Any = None
    over_http: bool = False
    new_limit_hit: LimitExceeded | None = None
    error_type: str | Unanswered | None = None
    text: str = ""
    body: dict[str, Any] | None = None


GUARD_CAP = {"method": "tools/call", "cap": "max_message_bytes", "limit": 1000, "seen": 5000}
ROWS = {
    "a server's own -32001 is its error, not a timeout": Row(
        -32001,
        "busy",
        {SERVER_SENT: {"code": -32001, "data": {"retry": 2}}},
        error_type=ErrorType.PROTOCOL_ERROR,
        text="srv answered echo with error -32001: busy",
        body={"code": -32001, "data": {"retry": 2}},
    ),
    "a server's own -32000 over stdio is its error, not a lost server": Row(
        -32000,
        "Connection closed",
        {SERVER_SENT: {"code": -32000, "data": None}},
        error_type=ErrorType.PROTOCOL_ERROR,
        text="srv answered echo with error -32000: Connection closed",
        body={"code": -32000, "data": None},
    ),
    "the SDK's -32001 is the call's deadline": Row(
        -32001, "Timed out", error_type=Unanswered.TIMED_OUT
    ),
    "a cap the guard answered for": Row(
        -32700,
        "too big",
        {GUARD_ERROR: GUARD_CAP},
        error_type=ErrorType.LIMIT_EXCEEDED,
        text="srv answered echo, but its answer",
    ),
    "a cap the capped HTTP client met during the call": Row(
        -32000,
        "Connection closed",
        over_http=True,
        new_limit_hit=LimitExceeded("max_message_bytes", 2048, seen=9000),
        error_type=ErrorType.LIMIT_EXCEEDED,
        text="srv answered echo, but its answer",
    ),
    "pydantic's own depth limit inside the SDK": Row(
        -32603,
        "recursion limit exceeded",
        error_type=ErrorType.LIMIT_EXCEEDED,
        text="max_json_depth",
    ),
    "the SDK's SSE event cap": Row(
        -32000,
        "SSE event exceeded the 1048576 byte limit",
        over_http=True,
        error_type=ErrorType.LIMIT_EXCEEDED,
        text="one event of its answer",
    ),
    "a broken event stream over HTTP ends one request only": Row(
        -32000,
        "stream ended",
        over_http=True,
        error_type=ErrorType.CONNECTION_CLOSED,
        text="srv did not finish answering echo: stream ended",
    ),
    "a closed HTTP connection is a lost server": Row(
        -32000, "Connection closed", over_http=True, error_type=Unanswered.SERVER_GONE
    ),
    "a closed stdio pipe is a lost server": Row(
        -32000, "stream ended", error_type=Unanswered.SERVER_GONE
    ),
    "an answer with a wrong id": Row(
        -32603,
        "mismatched response id",
        {GUARD_ERROR: {"method": "tools/call", "kind": "mismatched_id", "received_id": 99}},
        error_type=ErrorType.MISMATCHED_ID,
        text="srv sent an unusable answer to echo: mismatched response id",
        body={"received_id": 99},
    ),
    "an unusable answer the guard saw keeps its preview": Row(
        -32700,
        "the server sent a line that is not JSON",
        {GUARD_ERROR: {"method": "tools/call", "preview": "oops"}},
        error_type=ErrorType.PROTOCOL_ERROR,
        text="srv sent an unusable answer to echo: the server sent a line that is not JSON",
        body={"preview": "oops"},
    ),
    "any other error is the server's, code and data kept": Row(
        -32601,
        "Method not found",
        {"hint": "x"},
        error_type=ErrorType.PROTOCOL_ERROR,
        text="srv answered echo with error -32601: Method not found",
        body={"code": -32601, "data": {"hint": "x"}},
    ),
    "a server's message is cleaned of control sequences": Row(
        -32001,
        "\x1b[31mred\x1b[0m",
        {SERVER_SENT: {"code": -32001}},
        error_type=ErrorType.PROTOCOL_ERROR,
        text="srv answered echo with error -32001: ",
    ),
}


@pytest.mark.parametrize("row", ROWS.values(), ids=ROWS.keys())
def test_a_call_error_becomes_the_result_its_row_says(row: Row) -> None:
    mapped = call_error_result(
        row.code,
        row.message,
        row.data,
        server="srv",
        api="echo",
        over_http=row.over_http,
        new_limit_hit=row.new_limit_hit,
        max_json_depth=64,
    )
    if isinstance(row.error_type, Unanswered):
        assert mapped is row.error_type
        return
    assert isinstance(mapped, ToolResult)
    assert mapped.error is not None
    assert mapped.error.type == row.error_type
    assert row.text in mapped.error.message
    assert "\x1b" not in mapped.error.message
    if row.body is not None:
        assert mapped.error.body == row.body


def test_a_limit_keeps_the_cap_and_what_was_seen() -> None:
    mapped = call_error_result(
        -32700,
        "too big",
        {GUARD_ERROR: GUARD_CAP},
        server="srv",
        api="echo",
        over_http=False,
        max_json_depth=64,
    )
    assert isinstance(mapped, ToolResult)
    assert mapped.error is not None
    assert mapped.error.body == LimitExceeded("max_message_bytes", 1000, seen=5000).to_body()
