"""What only the wire shows: JSON text a parser refuses, answers the SDK re-labels, whose error.

Three things about an MCP server's answer cannot be told once the SDK has parsed it:

- **Lone surrogates.** JSON may spell ``"\\ud800"``; pydantic's parser (the SDK's) refuses the
  whole message, Python's accepts it and the string then fails every pydantic model it meets.
  :func:`replace_lone_surrogates` turns each lone surrogate escape into ``\\ufffd`` in the
  text, before anything parses it.
- **An answer's id over SSE.** The SDK's streamable HTTP client overwrites the id of every
  answer on a request's event stream with the request's own, so an answer to another id is
  taken as the result. :class:`WireWatch` checks each event first and turns an answer with
  another id into an error for the request naming the id it carried.
- **A tool list's length.** Parsing a 14 MB ``tools/list`` answer of 100,000 tools whole
  costs about 400 MB before a single tool is judged; :func:`cut_tool_list` reads it tool by
  tool, keeps the first ones and only counts the rest.
- **Who sent -32000 / -32001.** The SDK raises its own "connection closed" and "timed out" with
  these codes, and its HTTP client makes up -32000 answers when an event stream breaks. A
  server may send them too (they are the implementation-defined band): :class:`WireWatch`
  records the requests a server itself answered with one, so the caller can keep the
  server's code and message.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable
from typing import Any

SDK_CODES = (-32000, -32001)
"""The SDK's own CONNECTION_CLOSED and REQUEST_TIMEOUT; a server may send them as well."""
MISMATCHED_ID = "mismatched_id"
"""``kind`` in the data of the error that stands for an answer to an id nobody asked."""
WIRE_ERROR = "workbench"
"""Key in ``error.data`` of errors made up here (the guard's key, so callers read one)."""
REPLACEMENT_ESCAPE = "\\ufffd"
_SURROGATE_HINT = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE_ESCAPE = re.compile(
    r"(?<!\\)(\\+)u([dD][89abAB][0-9a-fA-F]{2})(\\u[dD][c-fC-F][0-9a-fA-F]{2})?"
    r"|(?<!\\)(\\+)u([dD][c-fC-F][0-9a-fA-F]{2})"
)
_SDK_CODE_HINT = re.compile(rb'"code"\s*:\s*-3200[01]\b')
SNIFFED_BODY_BYTES = 64 * 1024
"""JSON bodies up to this size are read for a server-sent -32000/-32001 (errors are small)."""


_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
CUT_FROM_BYTES = 1 << 20
"""A tool list answer shorter than this is parsed whole: it cannot be costly."""


class _NotCut(Exception):
    """The text is not a JSON object of the expected shape: parse it the usual way."""


def _skip(text: str, index: int) -> int:
    match = _SPACE.match(text, index)
    return match.end() if match else index


def _members(
    text: str, index: int, opening: str, closing: str, read_member: Callable[[str, int], int]
) -> int:
    """Where the JSON object (``{``, ``}``) or array (``[``, ``]``) opening at ``index`` ends;
    ``read_member(text, index)`` reads each member and says where it ends."""
    if text[index : index + 1] != opening:
        raise _NotCut
    index = _skip(text, index + 1)
    if text[index : index + 1] == closing:
        return index + 1
    while True:
        index = _skip(text, read_member(text, index))
        if text[index : index + 1] == closing:
            return index + 1
        if text[index : index + 1] != ",":
            raise _NotCut
        index = _skip(text, index + 1)


def _object(
    text: str, index: int, read_value: Callable[[str, str, int], tuple[Any, int]]
) -> tuple[dict[str, Any], int]:
    """A JSON object at ``index``; ``read_value(key, text, index)`` reads each value."""
    found: dict[str, Any] = {}

    def member(text: str, index: int) -> int:
        key, index = _DECODER.raw_decode(text, index)
        if not isinstance(key, str):
            raise _NotCut
        index = _skip(text, index)
        if text[index : index + 1] != ":":
            raise _NotCut
        found[key], index = read_value(key, text, _skip(text, index + 1))
        return index

    return found, _members(text, index, "{", "}", member)


def cut_tool_list(text: str, keep: int) -> tuple[dict[str, Any], int] | None:
    """A ``tools/list`` answer read with at most ``keep`` of its tools built, and how many it
    listed; ``None`` when it is not one, holds no more than ``keep``, or is not valid JSON.

    Each tool past ``keep`` is parsed alone and let go, so memory stays that of ``keep``
    tools whatever the list's length.
    """
    listed = 0

    def tools(text: str, index: int) -> tuple[list[Any], int]:
        kept: list[Any] = []

        def tool(text: str, index: int) -> int:
            nonlocal listed
            value, end = _DECODER.raw_decode(text, index)
            listed += 1
            if len(kept) < keep:
                kept.append(value)
            return end

        return kept, _members(text, index, "[", "]", tool)

    def in_result(key: str, text: str, index: int) -> tuple[Any, int]:
        return tools(text, index) if key == "tools" else _DECODER.raw_decode(text, index)

    def in_message(key: str, text: str, index: int) -> tuple[Any, int]:
        if key == "result":
            return _object(text, index, in_result)
        return _DECODER.raw_decode(text, index)

    try:
        message, end = _object(text, _skip(text, 0), in_message)
    except (_NotCut, ValueError, RecursionError):
        return None
    if _skip(text, end) != len(text) or listed <= keep:
        return None
    return message, listed


def has_surrogate_escape(raw: bytes) -> bool:
    """Whether ``raw`` may spell a surrogate (a cheap test before replacing any)."""
    return _SURROGATE_HINT.search(raw) is not None


def _one_escape(match: re.Match[str]) -> str:
    run = match.group(1) or match.group(4)
    if len(run) % 2 == 0:
        # An escaped backslash followed by the letters "ud800": text, not an escape. A low
        # surrogate escape right after it is still one, and alone.
        low = match.group(3)
        return match.group(0) if low is None else run + "u" + match.group(2) + REPLACEMENT_ESCAPE
    if match.group(1) and match.group(3):
        return match.group(0)  # A high and a low surrogate: one character, well formed.
    return run[:-1] + REPLACEMENT_ESCAPE


def replace_lone_surrogates(text: str) -> str:
    """JSON ``text`` with each ``\\uXXXX`` escape of a lone surrogate spelled ``\\ufffd``.

    Pairs stay (they are one character); escaped backslashes followed by ``u`` are text.
    """
    return _SURROGATE_ESCAPE.sub(_one_escape, text)


def _replaced(raw: bytes) -> bytes:
    # surrogateescape: bytes that are not UTF-8 pass through untouched, for the SDK to report.
    text = raw.decode("utf-8", "surrogateescape")
    return replace_lone_surrogates(text).encode("utf-8", "surrogateescape")


def request_of(body: bytes) -> tuple[int | str, str] | None:
    """The id and method of a JSON-RPC request body (``None``: a notification, answer, junk)."""
    try:
        message = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict) or not isinstance(message.get("method"), str):
        return None
    found = message.get("id")
    if not isinstance(found, (int, str)) or isinstance(found, bool):
        return None
    return found, message["method"]


def request_key(rid: int | str) -> int | str:
    """An id as the SDK correlates it: a server may echo ``7`` as ``"7"``."""
    if isinstance(rid, str):
        with contextlib.suppress(ValueError):
            return int(rid)
    return rid


def same_id(left: object, right: object) -> bool:
    """JSON-RPC ids as the SDK correlates them: ``"7"`` and ``7`` are one id."""

    def key(value: object) -> object:
        return request_key(value) if isinstance(value, (int, str)) else value

    return key(left) == key(right)


class SseEvents:
    """Splits an event stream into whole events (each ending in a blank line), in linear time.

    Line ends are made ``\\n`` (SSE allows ``\\r\\n`` and ``\\r`` too). An event past ``cap``
    bytes is passed on in pieces unread: the SDK's own event cap fails it.
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._buffer = b""
        self._passing = False
        self._skip_lf = False

    def feed(self, chunk: bytes) -> list[tuple[bytes, bool]]:
        """``(bytes, whole)`` pieces: ``whole`` when the bytes are one complete event."""
        if not chunk:
            return []
        if self._skip_lf and chunk.startswith(b"\n"):
            chunk = chunk[1:]  # The second half of a "\r\n" cut in two.
        self._skip_lf = chunk.endswith(b"\r")
        data = self._buffer + chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        out: list[tuple[bytes, bool]] = []
        start = 0
        while True:
            end = data.find(b"\n\n", start)
            if end < 0:
                break
            out.append((data[start : end + 2], not self._passing))
            self._passing = False
            start = end + 2
        rest = data[start:]
        if len(rest) > self.cap:
            out.append((rest, False))
            rest, self._passing = b"", True
        self._buffer = rest
        return out

    def flush(self) -> bytes:
        rest, self._buffer = self._buffer, b""
        return rest


def _event_data(event: bytes) -> tuple[list[bytes], bytes | None]:
    """The lines of an event other than ``data:``, and its data (``None`` without any)."""
    others: list[bytes] = []
    data: list[bytes] = []
    for line in event.split(b"\n"):
        if line.startswith(b"data:"):
            value = line[5:]
            data.append(value[1:] if value.startswith(b" ") else value)
        elif line:
            others.append(line)
    return others, (b"\n".join(data) if data else None)


class WireWatch:
    """Reads each answer of a streamable HTTP connection before the SDK does; see the module."""

    def __init__(self, *, max_tools: int) -> None:
        self.max_tools = max_tools
        self.server_errors: set[object] = set()
        """Requests (by id, as correlated) a server itself answered with -32000 or -32001."""
        self.mismatched: int = 0
        self.on_tools_cut: Callable[[int, int], None] | None = None
        """Told ``(kept, listed)`` when a tool list was cut to ``max_tools``."""

    def _cut_tools(self, method: str | None, data: bytes) -> tuple[Any, bytes] | None:
        """A long ``tools/list`` answer with only its first ``max_tools`` tools, re-spelled."""
        if method != "tools/list" or len(data) < CUT_FROM_BYTES:
            return None
        cut = cut_tool_list(data.decode("utf-8", "surrogateescape"), self.max_tools)
        if cut is None:
            return None
        message, listed = cut
        if self.on_tools_cut is not None:
            self.on_tools_cut(self.max_tools, listed)
        return message, json.dumps(message).encode("utf-8", "surrogateescape")

    def sent_by_server(self, request_id: object) -> bool:
        """Whether the -32000/-32001 answer to ``request_id`` came from the server (once)."""
        for known in self.server_errors:
            if same_id(known, request_id):
                self.server_errors.discard(known)
                return True
        return False

    def _note_error(self, request_id: object, message: Any) -> None:
        error = message.get("error") if isinstance(message, dict) else None
        if isinstance(error, dict) and error.get("code") in SDK_CODES:
            self.server_errors.add(request_id)

    def json_body(self, request_id: object, body: bytes, method: str | None = None) -> bytes:
        """A whole JSON answer to ``request_id``: surrogates spelled out, its error noted, a
        long tool list cut."""
        if has_surrogate_escape(body):
            body = _replaced(body)
        cut = self._cut_tools(method, body)
        if cut is not None:
            return cut[1]
        if len(body) <= SNIFFED_BODY_BYTES and _SDK_CODE_HINT.search(body):
            with contextlib.suppress(ValueError, RecursionError):
                self._note_error(request_id, json.loads(body))
        return body

    def sse_event(self, request_id: object, event: bytes, method: str | None = None) -> bytes:
        """One whole event of the stream answering ``request_id``, checked and maybe rewritten."""
        others, data = _event_data(event)
        if data is None:
            return event
        sent = data
        if has_surrogate_escape(data):
            data = _replaced(data)
        cut = self._cut_tools(method, data)
        try:
            message = json.loads(data) if cut is None else cut[0]
        except (ValueError, RecursionError):
            return _event(others, data) if data is not sent else event  # The SDK reports it.
        if cut is not None:
            data = cut[1]
        answer = isinstance(message, dict) and "method" not in message
        if not answer or ("result" not in message and "error" not in message):
            return _event(others, data) if data is not sent else event
        received = message.get("id")
        if request_id is not None and received is not None and not same_id(received, request_id):
            self.mismatched += 1
            return _event(others, mismatched_answer(request_id, received).encode())
        self._note_error(request_id, message)
        return _event(others, data) if data is not sent else event


def _event(others: list[bytes], data: bytes) -> bytes:
    lines = [*others, *(b"data: " + line for line in data.split(b"\n"))]
    return b"\n".join(lines) + b"\n\n"


def mismatched_message(received: object, waiting: object) -> str:
    return (
        f"mismatched response id: the server answered id {json.dumps(received)[:80]}, "
        f"but the request waiting was id {json.dumps(waiting)[:80]}"
    )


def mismatched_answer(request_id: object, received: object) -> str:
    """A JSON-RPC error for ``request_id`` saying its answer carried ``received`` instead."""
    error = {
        "code": -32603,
        "message": mismatched_message(received, request_id),
        "data": {WIRE_ERROR: {"kind": MISMATCHED_ID, "received_id": received}},
    }
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "error": error})
