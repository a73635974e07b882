"""Reading MCP answers on the wire: surrogate escapes, event streams, ids and error codes."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from workbench.net.mcp_wire import (
    MISMATCHED_ID,
    WIRE_ERROR,
    SseEvents,
    WireWatch,
    cut_tool_list,
    replace_lone_surrogates,
)

SURROGATE_TEXT = st.lists(
    st.one_of(
        st.characters(exclude_categories=()),  # Surrogates included.
        st.sampled_from(["\\", "\\u", "ud800", "udc00", "\ud800", "\udc00", "\U0001f600"]),
    )
).map("".join)


def lone_replaced(text: str) -> str:
    return "".join("\ufffd" if 0xD800 <= ord(char) <= 0xDFFF else char for char in text)


@given(SURROGATE_TEXT)
def test_lone_surrogate_escapes_become_ufffd_and_everything_else_stays(text: str) -> None:
    replaced = replace_lone_surrogates(json.dumps(text))
    # Adjacent high and low escapes are one character on the wire, as json.loads reads them.
    assert json.loads(replaced) == lone_replaced(json.loads(json.dumps(text)))
    replaced.encode("utf-8")  # Nothing left that UTF-8 cannot carry.


@given(st.text())
def test_text_without_surrogates_is_left_as_it_is(text: str) -> None:
    for spelled in (json.dumps(text), json.dumps(text, ensure_ascii=False)):
        assert replace_lone_surrogates(spelled) == spelled


def test_escaped_backslashes_are_text_not_escapes() -> None:
    spelled = r'"\\ud800 \\\ud800 \\\\ud800\udc00"'
    assert replace_lone_surrogates(spelled) == r'"\\ud800 \\\ufffd \\\\ud800\ufffd"'


EVENTS = st.lists(
    st.tuples(
        st.sampled_from(["message", "ping"]),
        st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\r\n"), max_size=40),
    ),
    max_size=6,
)


@given(EVENTS, st.sampled_from(["\n", "\r\n", "\r"]), st.data())
def test_events_come_out_whole_however_the_stream_is_cut(
    events: list[tuple[str, str]], newline: str, data: st.DataObject
) -> None:
    end = newline
    stream = "".join(f"event: {kind}{end}data: {text}{end}{end}" for kind, text in events)
    raw = stream.encode()
    cuts = sorted(data.draw(st.lists(st.integers(0, len(raw)), max_size=8)))
    splitter = SseEvents(cap=1 << 20)
    out: list[bytes] = []
    for start, end in zip([0, *cuts], [*cuts, len(raw)], strict=True):
        for event, whole in splitter.feed(raw[start:end]):
            assert whole
            out.append(event)
    assert splitter.flush() == b""
    assert out == [f"event: {kind}\ndata: {text}\n\n".encode() for kind, text in events]


def test_an_event_past_the_cap_is_passed_on_unread() -> None:
    splitter = SseEvents(cap=100)
    pieces = splitter.feed(b"data: " + b"x" * 200)
    assert pieces == [(b"data: " + b"x" * 200, False)]
    assert splitter.feed(b"y\n\ndata: 1\n\n") == [(b"y\n\n", False), (b"data: 1\n\n", True)]


def event(message: object, *, id_line: bytes = b"id: 7\n") -> bytes:
    return b"event: message\n" + id_line + b"data: " + json.dumps(message).encode() + b"\n\n"


def data_of(event: bytes) -> object:
    [line] = [line for line in event.split(b"\n") if line.startswith(b"data: ")]
    return json.loads(line[6:])


def test_an_answer_to_another_id_on_a_requests_stream_becomes_an_error_naming_it() -> None:
    watch = WireWatch(max_tools=1_000)
    rewritten = watch.sse_event(3, event({"jsonrpc": "2.0", "id": 99, "result": {}}))
    assert rewritten.startswith(b"event: message\nid: 7\n")
    message = data_of(rewritten)
    assert isinstance(message, dict)
    assert message["id"] == 3
    error = message["error"]
    assert "mismatched response id: the server answered id 99" in error["message"]
    assert error["data"][WIRE_ERROR] == {"kind": MISMATCHED_ID, "received_id": 99}


def test_the_right_id_requests_and_notifications_pass_as_sent() -> None:
    watch = WireWatch(max_tools=1_000)
    for message in (
        {"jsonrpc": "2.0", "id": "3", "result": {}},
        {"jsonrpc": "2.0", "id": 5, "method": "elicitation/create", "params": {}},
        {"jsonrpc": "2.0", "method": "notifications/progress", "params": {}},
    ):
        assert data_of(watch.sse_event(3, event(message))) == message
    assert watch.mismatched == 0


def test_a_servers_own_sdk_codes_are_noted_once_per_request() -> None:
    watch = WireWatch(max_tools=1_000)
    error = {"jsonrpc": "2.0", "id": 4, "error": {"code": -32001, "message": "slow db"}}
    watch.json_body(4, json.dumps(error).encode())
    watch.sse_event(5, event({**error, "id": 5}))
    assert watch.sent_by_server("4") and watch.sent_by_server(5)
    assert not watch.sent_by_server(4)
    other = {"jsonrpc": "2.0", "id": 6, "error": {"code": -32602, "message": "bad"}}
    watch.json_body(6, json.dumps(other).encode())
    assert not watch.sent_by_server(6)


def test_surrogates_in_a_json_body_and_in_an_event_are_spelled_out() -> None:
    watch = WireWatch(max_tools=1_000)
    answer = {"jsonrpc": "2.0", "id": 1, "result": {"text": "a\ud800b"}}
    body = watch.json_body(1, json.dumps(answer).encode())
    assert json.loads(body)["result"]["text"] == "a\ufffdb"
    sent = data_of(watch.sse_event(1, event(answer)))
    assert isinstance(sent, dict) and sent["result"]["text"] == "a\ufffdb"


TOOLS = st.lists(
    st.fixed_dictionaries(
        {"name": st.text(max_size=8), "inputSchema": st.just({"type": "object"})},
        optional={"description": st.text(max_size=20), "x": st.recursive(st.none(), st.lists)},
    ),
    max_size=30,
)


@given(TOOLS, st.integers(0, 10), st.sampled_from([0, 2]))
def test_a_tool_list_read_tool_by_tool_keeps_the_first_ones_and_counts_them_all(
    tools: list[dict[str, object]], keep: int, indent: int
) -> None:
    message = {"jsonrpc": "2.0", "id": 2, "result": {"tools": tools, "nextCursor": "c"}}
    cut = cut_tool_list(json.dumps(message, indent=indent or None), keep)
    if len(tools) <= keep:
        assert cut is None
        return
    assert cut is not None
    kept, listed = cut
    assert listed == len(tools)
    assert kept == {**message, "result": {"tools": tools[:keep], "nextCursor": "c"}}


def test_what_is_not_a_whole_tool_list_is_left_to_the_usual_parser() -> None:
    assert cut_tool_list('{"result": {"tools": [1, 2, 3]}', 1) is None  # Unfinished.
    assert cut_tool_list('{"result": {"tools": [1, 2, 3]}} x', 1) is None
    assert cut_tool_list('{"result": {"tools": {"a": 1}}}', 0) is None
    assert cut_tool_list('[{"result": {"tools": [1, 2]}}]', 1) is None
    assert cut_tool_list('{"result": {"tools": [' + "[" * 5000 + "]" * 5000 + ", 1]}}", 0) is None
