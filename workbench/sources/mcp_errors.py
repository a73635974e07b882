"""What a JSON-RPC error raised by a tool call means, as a result: one pure function.

The SDK raises one ``MCPError`` for everything that went wrong with a request, told apart
only by code and by what the guard put in ``data``: the server's own error, the SDK's
"timed out" (-32001) and "connection closed" (-32000), a cap the guard or the capped HTTP
client met, an answer with the wrong id. :func:`call_error_result` maps each to a
:class:`ToolResult`, or to an :class:`Unanswered` the source must finish itself (it raises the
call runner's timeout, or looks at how the server process ended).
"""

from __future__ import annotations

import enum
import re
from typing import Any

from workbench.core.limits import LimitExceeded
from workbench.core.result import ErrorType, ToolResult, failure
from workbench.core.sanitize import clean
from workbench.net.mcp_wire import MISMATCHED_ID
from workbench.sources.mcp_guard import GUARD_ERROR, SERVER_SENT

SDK_CLOSED = -32000
"""The SDK's "connection closed" (also sent by servers themselves: see :data:`SERVER_SENT`)."""
SDK_TIMED_OUT = -32001
_SSE_CAP = re.compile(r"exceeded the (\d+) byte limit")


class Unanswered(enum.Enum):
    """A call error no result can be made of here: the source finishes it."""

    TIMED_OUT = "timed out"
    """The SDK's own read timeout: the call's deadline passed."""
    SERVER_GONE = "server gone"
    """The connection closed mid-call: the server exited or closed its output."""


def server_sent(data: object) -> dict[str, Any] | None:
    """What the guard kept of a -32000/-32001 the server itself sent (``None``: the SDK's)."""
    kept = data.get(SERVER_SENT) if isinstance(data, dict) else None
    return kept if isinstance(kept, dict) else None


def call_error_result(
    code: int,
    message: str,
    data: object,
    *,
    server: str,
    api: str,
    over_http: bool,
    new_limit_hit: LimitExceeded | None = None,
    max_json_depth: int,
) -> ToolResult | Unanswered:
    """The result of ``api`` on ``server`` that failed with a JSON-RPC error.

    ``new_limit_hit`` is a cap the connection met during this call (the guard's counts);
    ``max_json_depth`` names pydantic's own depth limit, met inside the SDK.
    """
    if server_sent(data) is not None:
        # The server's own -32000/-32001: its code and message, not the SDK's signal.
        return protocol_failure(code, message, data, server=server, api=api)
    if code == SDK_TIMED_OUT:
        return Unanswered.TIMED_OUT
    exceeded = _exceeded(message, data, new_limit_hit, max_json_depth)
    if exceeded is not None:
        return failure(
            ErrorType.LIMIT_EXCEEDED,
            f"{server} answered {api}, but {exceeded}",
            body=exceeded.to_body(),
        )
    if code == SDK_CLOSED and over_http and message != "Connection closed":
        # Over HTTP this code also ends one request (its event stream broke); the
        # connection, and the other requests, live on.
        return failure(
            ErrorType.CONNECTION_CLOSED, f"{server} did not finish answering {api}: {message}"
        )
    if code == SDK_CLOSED:
        return Unanswered.SERVER_GONE
    return protocol_failure(code, message, data, server=server, api=api)


def _exceeded(
    message: str, data: object, new_limit_hit: LimitExceeded | None, max_json_depth: int
) -> LimitExceeded | None:
    """The cap an error stands for: the guard's, the capped HTTP client's, or the SSE one."""
    guard = data.get(GUARD_ERROR) if isinstance(data, dict) else None
    if isinstance(guard, dict) and isinstance(guard.get("cap"), str):
        return LimitExceeded(
            guard["cap"],
            int(guard.get("limit") or 0),
            seen=guard.get("seen"),
            per_server=True,
            what="its answer",
        )
    if new_limit_hit is not None:
        hit = new_limit_hit
        return LimitExceeded(hit.cap, hit.limit, seen=hit.seen, per_server=True, what="its answer")
    if "recursion limit exceeded" in str(message):
        # pydantic's own JSON depth limit, met inside the SDK before our guard sees it.
        return LimitExceeded("max_json_depth", max_json_depth, per_server=True, what="its answer")
    match = _SSE_CAP.search(str(message))
    if match is not None:
        return LimitExceeded(
            "max_message_bytes",
            int(match.group(1)),
            per_server=True,
            what="one event of its answer",
        )
    return None


def protocol_failure(code: int, message: str, data: object, *, server: str, api: str) -> ToolResult:
    """An error answer that is no cap and no lost connection: the server's, or the guard's."""
    sent = server_sent(data)
    if sent is not None:
        return failure(
            ErrorType.PROTOCOL_ERROR,
            f"{server} answered {api} with error {code}: {clean(message)}",
            body={"code": code, "data": sent.get("data")},
        )
    guard = data.get(GUARD_ERROR) if isinstance(data, dict) else None
    if isinstance(guard, dict) and guard.get("kind") == MISMATCHED_ID:
        return failure(
            ErrorType.MISMATCHED_ID,
            f"{server} sent an unusable answer to {api}: {clean(message)}",
            body={"received_id": guard.get("received_id")},
        )
    if isinstance(guard, dict):
        # The guard answered for the server: what it saw is the message, not a code.
        return failure(
            ErrorType.PROTOCOL_ERROR,
            f"{server} sent an unusable answer to {api}: {message}",
            body={"preview": guard.get("preview")} if guard.get("preview") else None,
        )
    return failure(
        ErrorType.PROTOCOL_ERROR,
        f"{server} answered {api} with error {code}: {message}",
        body={"code": code, "data": data},
    )
