"""The message guard built directly, with a fake clock: what it tracks, caps, holds and refuses.

No server and no SDK session: requests go in through :meth:`MessageGuard.outgoing`, the
server's lines through :meth:`MessageGuard.line`, and each test reads what the SDK would be
handed and what the guard counted.
"""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types
from mcp.shared.message import SessionMessage

from workbench.core.limits import Limits
from workbench.sources.mcp_guard import GUARD_ERROR, NOTIFICATIONS_PER_S, MessageGuard

CALL_RESULT = {"content": [{"type": "text", "text": "hi"}], "isError": False}
SCHEMA = {"type": "object", "properties": {}}


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def send(guard: MessageGuard, rid: int, method: str = "tools/call", **params: Any) -> None:
    guard.outgoing(types.JSONRPCRequest(jsonrpc="2.0", id=rid, method=method, params=params))


def feed(guard: MessageGuard, message: dict[str, Any] | bytes) -> list[types.JSONRPCMessage]:
    raw = message if isinstance(message, bytes) else json.dumps(message).encode()
    out: list[SessionMessage] = guard.line(raw)
    return [item.message for item in out]


def guard_error(message: types.JSONRPCMessage) -> tuple[str, dict[str, Any]]:
    assert isinstance(message, types.JSONRPCError), message
    return message.error.message, message.error.data[GUARD_ERROR]


def progress(token: str, value: float) -> dict[str, Any]:
    params = {"progressToken": token, "progress": value}
    return {"jsonrpc": "2.0", "method": "notifications/progress", "params": params}


# --- ids: what is waiting -------------------------------------------------------------------


def test_a_request_waits_until_its_answer_passes_through_unchanged() -> None:
    guard = MessageGuard(Limits())
    send(guard, 1, name="echo", arguments={})
    send(guard, 2, "tools/list")
    assert guard.pending == {1: "tools/call", 2: "tools/list"}
    [out] = feed(guard, {"jsonrpc": "2.0", "id": 1, "result": CALL_RESULT})
    assert isinstance(out, types.JSONRPCResponse) and out.result == CALL_RESULT
    assert guard.pending == {2: "tools/list"}
    assert guard.stats.summary() == ""


def test_the_version_the_server_answered_initialize_with_is_the_one_checked() -> None:
    guard = MessageGuard(Limits())
    send(guard, 0, "initialize", protocolVersion="2025-11-25", capabilities={})
    result = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "serverInfo": {"name": "s", "version": "1"},
    }
    feed(guard, {"jsonrpc": "2.0", "id": 0, "result": result})
    assert guard.version == "2025-06-18"


def test_a_cancelled_request_stops_waiting_and_its_late_answer_is_dropped() -> None:
    guard = MessageGuard(Limits())
    send(guard, 4, name="slow", arguments={})
    guard.outgoing(
        types.JSONRPCNotification(
            jsonrpc="2.0", method="notifications/cancelled", params={"requestId": 4}
        )
    )
    assert guard.pending == {}
    assert feed(guard, {"jsonrpc": "2.0", "id": 4, "result": CALL_RESULT}) == []
    assert guard.stats.late_answers == 1


# --- caps -----------------------------------------------------------------------------------


def test_an_oversized_line_fails_the_request_its_id_names_with_the_cap() -> None:
    guard = MessageGuard(Limits(max_message_bytes=1000))
    send(guard, 7, name="big", arguments={})
    send(guard, 8, name="other", arguments={})
    head = b'{"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": "aaa'
    out = [item.message for item in guard.oversized(head, b'aaa"}]}}', 50_000)]
    [failed] = out
    assert failed.id == 7  # type: ignore[union-attr]
    message, data = guard_error(failed)
    assert "max_message_bytes" in message
    assert data["cap"] == "max_message_bytes" and data["limit"] == 1000
    assert data["seen"] == 50_000
    assert guard.pending == {8: "tools/call"}  # The other call still waits for its answer.
    assert guard.stats.limit_hits[-1].cap == "max_message_bytes"


def test_an_answer_nested_past_max_json_depth_fails_its_request() -> None:
    guard = MessageGuard(Limits(max_json_depth=16))
    send(guard, 3, name="deep", arguments={})
    nested: Any = "leaf"
    for _ in range(40):
        nested = {"n": nested}
    [failed] = feed(guard, {"jsonrpc": "2.0", "id": 3, "result": {"content": [], "x": nested}})
    _, data = guard_error(failed)
    assert data["cap"] == "max_json_depth" and data["limit"] == 16
    assert guard.stats.too_deep_messages == 1


# --- what it refuses --------------------------------------------------------------------------


def test_a_stray_print_is_counted_once_not_handed_on() -> None:
    guard = MessageGuard(Limits())
    assert feed(guard, b"Server starting on port 3000...") == []
    assert feed(guard, b"\x1b[32mready\x1b[0m") == []
    assert guard.stats.garbage_lines == 2
    summary = guard.stats.summary()
    assert summary.startswith("2 non-JSON-RPC line(s) ignored (first: 'Server starting")
    assert "\x1b" not in summary


def test_a_broken_answer_without_an_id_fails_the_only_request_waiting_at_once() -> None:
    guard = MessageGuard(Limits())
    send(guard, 5, name="echo", arguments={})
    [failed] = feed(guard, b'{"jsonrpc": "2.0", "result": {"content": [')
    message, data = guard_error(failed)
    assert failed.id == 5  # type: ignore[union-attr]
    assert message == "the server sent a line that is not JSON"
    assert data["method"] == "tools/call" and data["preview"].startswith('{"jsonrpc"')
    assert guard.pending == {}


def test_json_that_is_no_jsonrpc_message_fails_the_request_it_names() -> None:
    guard = MessageGuard(Limits())
    send(guard, 6, name="echo", arguments={})
    [failed] = feed(guard, {"jsonrpc": "1.0", "id": 6, "answer": 42})
    message, _ = guard_error(failed)
    assert message == "the server sent JSON that is not a JSON-RPC message"


def test_invalid_utf8_fails_its_request_naming_the_byte() -> None:
    guard = MessageGuard(Limits())
    send(guard, 9, name="echo", arguments={})
    raw = b'{"jsonrpc": "2.0", "id": 9, "result": {"content": [], "t": "\xff"}}'
    [failed] = feed(guard, raw)
    message, _ = guard_error(failed)
    assert "not valid UTF-8 (byte 0xff" in message
    assert guard.stats.undecodable_lines == 1


def test_a_malformed_tool_is_left_out_and_the_valid_ones_kept() -> None:
    guard = MessageGuard(Limits())
    send(guard, 2, "tools/list")
    tools = [
        {"name": "good", "inputSchema": SCHEMA},
        {"name": "bad", "inputSchema": "not a schema"},
        {"name": "also_good", "inputSchema": SCHEMA},
    ]
    [out] = feed(guard, {"jsonrpc": "2.0", "id": 2, "result": {"tools": tools}})
    assert isinstance(out, types.JSONRPCResponse)
    assert [tool["name"] for tool in out.result["tools"]] == ["good", "also_good"]
    [problem] = guard.stats.tool_problems
    assert problem.startswith("tool #2 'bad' left out: inputSchema")


def test_a_malformed_elicitation_is_reported_before_the_sdk_refuses_it() -> None:
    guard = MessageGuard(Limits())
    problems: list[tuple[str, str]] = []
    guard.on_request_problem = lambda method, problem: problems.append((method, problem))
    request = {"jsonrpc": "2.0", "id": 30, "method": "elicitation/create", "params": {}}
    [passed] = feed(guard, request)
    assert isinstance(passed, types.JSONRPCRequest)  # The SDK still answers it (-32602).
    [(method, problem)] = problems
    assert method == "elicitation/create" and "message" in problem
    assert guard.stats.malformed_requests == 1


# --- floods, on the fake clock ----------------------------------------------------------------


def test_progress_past_the_rate_is_held_and_released_latest_first_when_the_clock_moves() -> None:
    clock = FakeClock()
    guard = MessageGuard(Limits(), clock=clock)
    passed = [
        out
        for value in range(NOTIFICATIONS_PER_S + 50)
        for out in feed(guard, progress("t", value))
    ]
    assert len(passed) == NOTIFICATIONS_PER_S
    assert guard.due() == []  # Same second: still held.
    clock.now += 1.0
    [released] = [item.message for item in guard.due()]
    assert isinstance(released, types.JSONRPCNotification)
    assert released.params is not None
    assert released.params["progress"] == NOTIFICATIONS_PER_S + 49  # The bar ends where it was.
    assert guard.stats.coalesced_progress == 49
    assert guard.due() == []


def test_held_progress_goes_out_before_the_answer_that_ends_its_call() -> None:
    clock = FakeClock()
    guard = MessageGuard(Limits(), clock=clock)
    send(guard, 1, name="echo", arguments={})
    for value in range(NOTIFICATIONS_PER_S + 1):
        feed(guard, progress("t", value))
    out = feed(guard, {"jsonrpc": "2.0", "id": 1, "result": CALL_RESULT})
    assert [type(message).__name__ for message in out] == [
        "JSONRPCNotification",
        "JSONRPCResponse",
    ]


def test_other_notifications_past_the_rate_are_dropped_and_counted_per_method() -> None:
    clock = FakeClock()
    guard = MessageGuard(Limits(), clock=clock)
    log = {
        "jsonrpc": "2.0",
        "method": "notifications/message",
        "params": {"level": "info", "data": "x"},
    }
    passed = sum(len(feed(guard, log)) for _ in range(NOTIFICATIONS_PER_S + 30))
    assert passed == NOTIFICATIONS_PER_S
    clock.now += 1.0
    assert len(feed(guard, log)) == 1  # A new second, a new window.
    assert guard.stats.dropped_notifications["notifications/message"] == 30
    assert "30 notification(s) over 200/s dropped (notifications/message 30)" in (
        guard.stats.summary()
    )
