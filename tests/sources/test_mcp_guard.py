"""The message guard alone, fed lines as a stdio server writes them: no server, no SDK session.

Each test sends requests through :meth:`MessageGuard.outgoing`, feeds the server's answer to
:meth:`MessageGuard.line` and reads what the SDK would be handed.
"""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mcp.shared.message import SessionMessage

from workbench.core.limits import Limits
from workbench.sources.mcp_guard import GUARD_ERROR, SERVER_SENT, MessageGuard

CALL_RESULT = {"content": [{"type": "text", "text": "hi"}], "isError": False}
SCHEMA = {"type": "object", "properties": {}}


def request(guard: MessageGuard, rid: int | str, method: str = "tools/call") -> None:
    params: dict[str, Any] = {"name": "echo", "arguments": {}} if method == "tools/call" else {}
    guard.outgoing(types.JSONRPCRequest(jsonrpc="2.0", id=rid, method=method, params=params))


def line(guard: MessageGuard, message: dict[str, Any]) -> list[types.JSONRPCMessage]:
    out: list[SessionMessage] = guard.line(json.dumps(message).encode())
    return [item.message for item in out]


def answer(rid: object, result: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "result": result or CALL_RESULT}


def error_of(message: types.JSONRPCMessage) -> types.ErrorData:
    assert isinstance(message, types.JSONRPCError), message
    return message.error


# --- an answer with an id no request had --------------------------------------------------------


def test_an_answer_with_a_wrong_id_fails_the_waiting_call_at_once_naming_the_id() -> None:
    guard = MessageGuard(Limits())
    request(guard, 3)
    [out] = line(guard, answer(99))
    assert out.id == 3
    error = error_of(out)
    assert error.message == (
        "mismatched response id: the server answered id 99, but the request waiting was id 3"
    )
    assert error.data[GUARD_ERROR]["received_id"] == 99
    assert guard.pending == {}
    assert "1 answer(s) with an id no request had (first: 99)" in guard.stats.summary()


def test_an_id_echoed_as_a_string_is_the_same_id() -> None:
    guard = MessageGuard(Limits())
    request(guard, 7)
    [out] = line(guard, answer("7"))
    assert isinstance(out, types.JSONRPCResponse)
    assert guard.stats.mismatched_ids == 0


def test_a_late_answer_to_a_cancelled_request_is_ignored_and_the_next_call_waits() -> None:
    guard = MessageGuard(Limits())
    request(guard, 1)
    guard.outgoing(
        types.JSONRPCNotification(
            jsonrpc="2.0", method="notifications/cancelled", params={"requestId": 1}
        )
    )
    request(guard, 2)
    assert line(guard, answer(1)) == []
    assert guard.pending == {2: "tools/call"}
    assert "1 late answer(s) to finished requests ignored" in guard.stats.summary()
    [out] = line(guard, answer(2))
    assert isinstance(out, types.JSONRPCResponse)


def test_a_duplicate_answer_is_late_not_mismatched() -> None:
    guard = MessageGuard(Limits())
    request(guard, 1)
    line(guard, answer(1))
    request(guard, 2)
    assert line(guard, answer(1)) == []
    assert (guard.stats.late_answers, guard.stats.mismatched_ids) == (1, 0)
    assert 2 in guard.pending


def test_a_wrong_id_goes_to_the_request_whose_result_it_fits_never_to_a_listen() -> None:
    guard = MessageGuard(Limits())
    request(guard, 1, "subscriptions/listen")
    request(guard, 2, "tools/list")
    request(guard, 3, "tools/call")
    [out] = line(guard, answer(42))
    assert out.id == 3 and "answered id 42" in error_of(out).message
    assert set(guard.pending) == {1, 2}


def test_an_error_without_an_id_goes_to_the_one_request_waiting() -> None:
    guard = MessageGuard(Limits())
    request(guard, 1, "subscriptions/listen")
    request(guard, 5)
    error = {"code": -32600, "message": "could not read your request"}
    [out] = line(guard, {"jsonrpc": "2.0", "id": None, "error": error})
    assert out.id == 5
    assert (error_of(out).code, error_of(out).message) == (-32600, "could not read your request")


# --- a server's own -32000 / -32001 ------------------------------------------------------------


@pytest.mark.parametrize("code", [-32000, -32001])
def test_a_servers_own_sdk_code_is_marked_keeping_code_message_and_data(code: int) -> None:
    guard = MessageGuard(Limits())
    request(guard, 4)
    sent = {"code": code, "message": "database down", "data": {"retry": False}}
    [out] = line(guard, {"jsonrpc": "2.0", "id": 4, "error": sent})
    error = error_of(out)
    assert (error.code, error.message) == (code, "database down")
    assert error.data == {SERVER_SENT: {"code": code, "data": {"retry": False}}}


def test_an_sdk_code_the_transport_made_up_is_left_alone() -> None:
    guard = MessageGuard(Limits(), sent_by_server=lambda rid: False)
    request(guard, 4)
    made_up = {"code": -32000, "message": "SSE stream ended without a response"}
    [out] = guard.accept(
        SessionMessage(
            types.JSONRPCError(jsonrpc="2.0", id=4, error=types.ErrorData.model_validate(made_up))
        )
    )
    assert error_of(out.message).data is None


# --- lone surrogates ---------------------------------------------------------------------------


def test_lone_surrogates_become_replacement_characters_and_pairs_stay() -> None:
    guard = MessageGuard(Limits())
    request(guard, 1)
    text = "a \ud800 b \udc00 c \U0001f600 d"
    [out] = line(guard, answer(1, {"content": [{"type": "text", "text": text}], "k\udfff": 1}))
    assert isinstance(out, types.JSONRPCResponse)
    assert out.result["content"][0]["text"] == "a \ufffd b \ufffd c \U0001f600 d"
    assert "k\ufffd" in out.result
    assert "1 message(s) with lone surrogates (shown as U+FFFD)" in guard.stats.summary()


SURROGATE_TEXT = st.lists(
    st.one_of(
        st.characters(exclude_categories=()),  # Surrogates included.
        st.sampled_from(["\\", "\\u", "ud800", "udc00", "\ud800", "\udc00", "\U0001f600"]),
    )
).map("".join)


@given(SURROGATE_TEXT)
def test_any_string_with_surrogates_arrives_whole_with_each_lone_one_replaced(text: str) -> None:
    guard = MessageGuard(Limits())
    request(guard, 1)
    [out] = line(guard, answer(1, {"content": [{"type": "text", "text": text}]}))
    assert isinstance(out, types.JSONRPCResponse)
    on_the_wire = json.loads(json.dumps(text))  # An adjacent high and low are one character.
    expected = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in on_the_wire)
    assert out.result["content"][0]["text"] == expected


# --- a huge tool list --------------------------------------------------------------------------


def test_a_huge_tool_list_is_cut_before_any_tool_is_validated() -> None:
    guard = MessageGuard(Limits(), max_tools=1_000)
    request(guard, 2, "tools/list")
    tools: list[Any] = [{"name": f"t{index}", "inputSchema": SCHEMA} for index in range(1_000)]
    # Past the first 1,000, every tool is malformed: none is judged, so none is a problem.
    tools += [{"inputSchema": "not a schema"} for _ in range(99_000)]
    [out] = line(guard, answer(2, {"tools": tools}))
    assert isinstance(out, types.JSONRPCResponse)
    assert len(out.result["tools"]) == 1_000
    assert guard.stats.tool_problems == []
    assert "showing 1,000 of 100,000 tools the server listed in one answer" in (
        guard.stats.summary()
    )


def test_an_error_with_a_wrong_id_keeps_what_the_server_said() -> None:
    guard = MessageGuard(Limits())
    request(guard, 1)
    sent = {"code": -32602, "message": "no such tool"}
    [out] = line(guard, {"jsonrpc": "2.0", "id": "x", "error": sent})
    assert out.id == 1
    assert error_of(out).message.endswith(
        'answered id "x", but the request waiting was id 1 (with error -32602: no such tool)'
    )


METHODS = st.sampled_from(["tools/call", "tools/list", "ping", "subscriptions/listen"])
IDS = st.one_of(st.integers(-3, 12), st.sampled_from(["1", "2", "x", ""]))


@given(
    st.lists(st.tuples(st.integers(0, 9), METHODS), unique_by=lambda sent: sent[0], max_size=5),
    st.lists(st.tuples(IDS, st.booleans()), max_size=8),
)
def test_no_answer_leaves_a_request_waiting_silently_or_reaches_one_not_asked(
    sent: list[tuple[int, str]], answers: list[tuple[int | str, bool]]
) -> None:
    guard = MessageGuard(Limits())
    for rid, method in sent:
        request(guard, rid, method)
    for rid, is_error in answers:
        before = dict(guard.pending)
        waiting = [key for key, method in before.items() if method != "subscriptions/listen"]
        body = (
            {"jsonrpc": "2.0", "id": rid, "error": {"code": -32603, "message": "no"}}
            if is_error
            else answer(rid)
        )
        late_before = guard.stats.late_answers
        out = line(guard, body)
        answered = {int(item.id) if str(item.id).lstrip("-").isdigit() else item.id for item in out}
        # Only requests that were waiting are answered, and each at most once.
        assert answered <= set(before) and len(out) == len(answered)
        assert all(key not in guard.pending for key in answered)
        if not out and waiting:
            # Nothing answered while calls wait: only a late or duplicate answer may do that.
            assert guard.stats.late_answers == late_before + 1


def test_a_notification_that_is_not_utf8_passes_without_lone_surrogates() -> None:
    guard = MessageGuard(Limits())
    params = {"level": "info", "data": "bad \ud800 byte XX"}
    raw = json.dumps({"jsonrpc": "2.0", "method": "notifications/message", "params": params})
    [out] = guard.line(raw.encode().replace(b"XX", b"\xff"))
    assert isinstance(out.message, types.JSONRPCNotification)
    assert out.message.params == {"level": "info", "data": "bad \ufffd byte \ufffd"}
