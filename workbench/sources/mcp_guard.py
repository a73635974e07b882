"""Between an MCP server and the SDK's session: every message checked, nothing waits silently.

The SDK trusts the server's stream. A line that is not JSON, not UTF-8, or nested too deep is
logged with a traceback and the request it answered waits out its whole timeout; one tool
with a bad schema fails the whole tool list (and then every call, which re-lists); a flood of
notifications spawns one task each. :class:`MessageGuard` sits on the transport's streams and:

- answers the pending request an unusable message belonged to with a JSON-RPC error saying
  why (found by its ``id``, or the only request waiting), so the call fails in moments;
- counts garbage that belongs to no request (a server printing to stdout) instead of
  logging it line by line;
- drops the malformed tools of a ``tools/list`` answer and records them as problems, so the
  valid tools stay usable;
- checks nesting against ``max_json_depth``;
- fails at once the request an answer with a wrong id was meant for, and ignores a late
  answer to a request cancelled or answered before (see :meth:`MessageGuard._unexpected`);
- marks the errors -32000 and -32001 a server sends itself, which the SDK would take for its
  own "connection closed" and "timed out" (:data:`SERVER_SENT`);
- spells lone surrogate escapes (``"\\ud800"``) as U+FFFD before parsing, since no pydantic
  model takes them;
- keeps the first ``max_tools`` tools of a ``tools/list`` answer before anything validates
  them, counting the rest ("showing N of M");
- validates each server -> client request (elicitation, sampling, roots) as the SDK will and
  reports one it will refuse, since the SDK answers those with -32602 and tells no one;
- lets at most :data:`NOTIFICATIONS_PER_S` notifications of one kind through per second:
  progress beyond that is coalesced to the latest value per token, the rest is counted.

:func:`guarded` wraps any SDK transport (streamable HTTP) with it; the stdio transport of
:mod:`workbench.sources.mcp_stdio` feeds it raw lines.

:class:`GuardStats` (what it counted) and the SDK log summary live in their own modules and
are re-exported here.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types as types
from mcp.client._transport import Transport, TransportStreams
from mcp.shared.message import SessionMessage
from mcp_types import methods
from mcp_types.version import LATEST_HANDSHAKE_VERSION
from pydantic import ValidationError

from workbench.core.limits import LimitExceeded, Limits, nesting_exceeds
from workbench.core.sanitize import clean
from workbench.net.mcp_wire import (
    CUT_FROM_BYTES,
    MISMATCHED_ID,
    SDK_CODES,
    cut_tool_list,
    has_surrogate_escape,
    mismatched_message,
    replace_lone_surrogates,
    request_key,
)
from workbench.sources.mcp_guard_stats import (
    MAX_TOOLS,
    NOTIFICATIONS_PER_S,
    GuardStats,
    RequestId,
)
from workbench.sources.sdk_logs import summarize_sdk_logs

PREVIEW_CHARS = 120
MAX_TOOL_PROBLEMS = 50
GUARD_ERROR = "workbench"
"""Key in ``error.data`` of the errors the guard answers with, so a caller can tell them apart."""
SERVER_SENT = "workbench/server-error"
"""Key in ``error.data`` of a -32000/-32001 the server sent itself; holds the server's data."""
PARSE_ERROR = -32700
INTERNAL_ERROR = -32603
LONG_LIVED = ("subscriptions/listen",)
"""Requests that wait for the whole session: never the one a stray answer was meant for."""
FINISHED_KEPT = 256
"""Ids of answered or cancelled requests remembered, so a late answer is told from a wrong one."""
_VERSION_META = "io.modelcontextprotocol/protocolVersion"
_ID_AT_START = re.compile(
    rb'^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(-?\d{1,18}|"[^"\\]{0,200}")'
)
_ID_AT_END = re.compile(rb'"id"\s*:\s*(-?\d{1,18}|"[^"\\]{0,200}")\s*\}\s*$')

SERVER_REQUESTS = ("elicitation/create", "sampling/createMessage", "roots/list")


def _validation_summary(error: ValidationError) -> str:
    """The first problems of a request, by field (a union's branches are told apart)."""
    items = error.errors(include_url=False)
    # For a union (form or URL elicitation), the form branch is what most servers meant.
    preferred = [item for item in items if "ElicitRequestURLParams" not in map(str, item["loc"])]
    shown = []
    for item in (preferred or items)[:2]:
        loc = [
            str(part)
            for part in item["loc"]
            if not str(part).endswith("Params") and str(part) != "params"
        ]
        shown.append(f"{'.'.join(loc) or '(params)'}: {item['msg']}")
    return clean("; ".join(shown))[:300]


def _preview(raw: bytes) -> str:
    text = clean(raw[: PREVIEW_CHARS * 4].decode("utf-8", errors="replace"))
    return text[:PREVIEW_CHARS] + ("…" if len(text) > PREVIEW_CHARS else "")


def _id_in(head: bytes, tail: bytes) -> RequestId | None:
    """The ``id`` of a message that cannot be parsed whole: Python SDK servers write it first,
    TypeScript ones last."""
    match = _ID_AT_START.search(head) or _ID_AT_END.search(tail)
    if match is None:
        return None
    value: RequestId = json.loads(match.group(1))
    return value


class MessageGuard:
    """Checks each message of one connection; see the module docstring for what it does."""

    def __init__(
        self,
        limits: Limits,
        stats: GuardStats | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_tools: int = MAX_TOOLS,
        sent_by_server: Callable[[RequestId], bool] | None = None,
    ) -> None:
        self.limits = limits
        self.stats = stats if stats is not None else GuardStats()
        self.max_tools = max_tools
        self.sent_by_server = sent_by_server
        """Whether the -32000/-32001 answer to an id came from the server itself; ``None``
        when every message the guard sees does (stdio). Over HTTP the SDK makes some up."""
        self.pending: dict[RequestId, str] = {}
        """Requests sent and not yet answered: id (as correlated) -> method."""
        self._finished: dict[RequestId, None] = {}
        self.version = LATEST_HANDSHAKE_VERSION
        self._clock = clock
        self._window: dict[str, tuple[float, int]] = {}
        self._held_progress: dict[Any, SessionMessage] = {}
        self.on_request_problem: Callable[[str, str], None] | None = None
        """Told ``(method, problem)`` of a server request the SDK will refuse."""

    # --- outgoing --------------------------------------------------------------------------

    def outgoing(self, message: types.JSONRPCMessage) -> None:
        if isinstance(message, types.JSONRPCNotification):
            if message.method == "notifications/cancelled":
                # A cancelled request may still be answered (JSON-RPC allows it): that late
                # answer is ignored, not taken for an answer to an id nobody asked.
                rid = (message.params or {}).get("requestId")
                if isinstance(rid, (int, str)) and request_key(rid) in self.pending:
                    del self.pending[request_key(rid)]
                    self._finish(request_key(rid))
            return
        if not isinstance(message, types.JSONRPCRequest):
            return
        self.pending[request_key(message.id)] = message.method
        params = message.params or {}
        version = (params.get("_meta") or {}).get(_VERSION_META)
        if message.method == "initialize":
            version = params.get("protocolVersion", version)
        if isinstance(version, str):
            self.version = version

    # --- incoming --------------------------------------------------------------------------

    def line(self, raw: bytes) -> list[SessionMessage]:
        """One line from a stdio server (without its newline)."""
        if not raw.strip():
            return []
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            self.stats.undecodable_lines += 1
            return self._undecodable(raw, error)
        if has_surrogate_escape(raw):
            replaced = replace_lone_surrogates(text)
            if replaced != text:
                self.stats.surrogate_messages += 1
                text = replaced
        if len(raw) >= CUT_FROM_BYTES and "tools/list" in self.pending.values():
            cut = self._cut_tool_list(text)
            if cut is not None:
                return self.accept(SessionMessage(cut))
        try:
            message = types.jsonrpc_message_adapter.validate_json(text, by_name=False)
        except ValueError:
            return self._unparsed(raw, text)
        return self.accept(SessionMessage(message))

    def _cut_tool_list(self, text: str) -> types.JSONRPCMessage | None:
        """A long ``tools/list`` answer read with only its first ``max_tools`` tools built."""
        cut = cut_tool_list(text, self.max_tools)
        if cut is None:
            return None
        message, listed = cut
        rid = message.get("id")
        if not isinstance(rid, (int, str)) or self.pending.get(request_key(rid)) != "tools/list":
            return None  # Not the answer to the listing: read whole, the usual way.
        try:
            parsed = types.jsonrpc_message_adapter.validate_python(message, by_name=False)
        except (ValidationError, ValueError, RecursionError):
            return None
        self.stats.cut_tools(self.max_tools, listed)
        return parsed

    def oversized(self, head: bytes, tail: bytes, size: int) -> list[SessionMessage]:
        """A line longer than ``max_message_bytes``: only its ends were kept."""
        self.stats.oversized_messages += 1
        exceeded = LimitExceeded(
            "max_message_bytes",
            self.limits.max_message_bytes,
            seen=size,
            what="the server's answer",
            per_server=True,
        )
        self.stats.record_limit(exceeded)
        return self._fail(_id_in(head, tail), exceeded, exceeded=exceeded, raw=head)

    def accept(self, item: SessionMessage) -> list[SessionMessage]:
        """A parsed message (from stdio, or from any SDK transport)."""
        message = item.message
        # The result or params of a message sit two levels below its root.
        depth = self.limits.max_json_depth - 2
        if isinstance(message, types.JSONRPCNotification):
            return self._notification(item)
        if isinstance(message, types.JSONRPCRequest):
            if nesting_exceeds(message.params, depth):
                # A server -> client request nested too deep: the SDK would choke on it.
                self.stats.too_deep_messages += 1
                return []
            self._check_request(message)
            return [item]
        if message.id is None:
            return self._unexpected(message, None)
        key = request_key(message.id)
        method = self.pending.get(key)
        if method is None:
            return self._unexpected(message, key)
        if isinstance(message, types.JSONRPCResponse):
            if method == "tools/list":
                self._keep_valid_tools(message.result)
            elif nesting_exceeds(message.result, depth):
                return self._too_deep(message.id)
            if method == "initialize":
                version = message.result.get("protocolVersion")
                if isinstance(version, str):
                    self.version = version
        elif message.error.code in SDK_CODES and (
            self.sent_by_server is None or self.sent_by_server(key)
        ):
            item = SessionMessage(_server_sent(message, message.id))
        self.pending.pop(key, None)
        self._finish(key)
        # Held progress goes first: a progress bar must not move after its call ended.
        return [*self._release_progress(), item]

    def _finish(self, key: RequestId) -> None:
        self._finished[key] = None
        while len(self._finished) > FINISHED_KEPT:
            del self._finished[next(iter(self._finished))]

    def _waiting(self) -> list[RequestId]:
        """Requests an answer could be meant for (not the session-long ones)."""
        return [key for key, method in self.pending.items() if method not in LONG_LIVED]

    def _fits(self, method: str, result: dict[str, Any]) -> bool:
        try:
            methods.validate_server_result(method, self.version, result)
        except (ValidationError, ValueError, KeyError, RuntimeError, RecursionError):
            return False
        return True

    def _unexpected(
        self, message: types.JSONRPCResponse | types.JSONRPCError, key: RequestId | None
    ) -> list[SessionMessage]:
        """An answer to no waiting request: late, without an id, or with a wrong id.

        A late answer (to a request answered or cancelled before) is ignored, as JSON-RPC
        allows. An error without an id (the server could not read a request) goes to the one
        request waiting, if only one is. Any other id was never asked: the request(s) it could
        be meant for would wait silently to their deadline, so they fail now, naming the id
        received. With several waiting, a result goes to those whose result type it fits;
        if still several, all of them fail: a server that mixes up ids cannot be trusted to
        answer any of them right.
        """
        if key is not None and key in self._finished:
            self.stats.late_answers += 1
            return []
        waiting = self._waiting()
        if key is None:
            assert isinstance(message, types.JSONRPCError)
            if len(waiting) != 1:
                self.stats.stray_answers += 1
                return []
            only = waiting[0]
            readdressed = types.JSONRPCError(jsonrpc="2.0", id=only, error=message.error)
            return self.accept(SessionMessage(readdressed))
        self.stats.mismatched_ids += 1
        if self.stats.first_mismatched is None:
            self.stats.first_mismatched = message.id
        if isinstance(message, types.JSONRPCResponse) and len(waiting) > 1:
            fitting = [rid for rid in waiting if self._fits(self.pending[rid], message.result)]
            waiting = fitting or waiting
        said = ""
        if isinstance(message, types.JSONRPCError):
            # What the server said is kept: it may explain the mix-up.
            said = f" (with error {message.error.code}: {clean(message.error.message)[:200]})"
        out = self._release_progress()
        for rid in waiting:
            method = self.pending.pop(rid)
            self._finish(rid)
            self.stats.answered_errors += 1
            data = {"method": method, "kind": MISMATCHED_ID, "received_id": message.id}
            error = types.ErrorData(
                code=INTERNAL_ERROR,
                message=mismatched_message(message.id, rid) + said,
                data={GUARD_ERROR: data},
            )
            out.append(SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=rid, error=error)))
        return out

    def _check_request(self, message: types.JSONRPCRequest) -> None:
        """Validate a server request as the SDK will, to say why it is refused (if it is)."""
        if message.method not in SERVER_REQUESTS:
            return
        try:
            methods.parse_server_request(message.method, self.version, message.params)
        except ValidationError as error:
            self.stats.malformed_requests += 1
            if self.on_request_problem is not None:
                self.on_request_problem(message.method, _validation_summary(error))
        except (KeyError, ValueError, RuntimeError, RecursionError):
            return  # Not a request this version knows: the SDK answers "method not found".

    def due(self) -> list[SessionMessage]:
        """Coalesced progress whose rate window has reopened (call a few times a second)."""
        if not self._held_progress or not self._admit("notifications/progress"):
            return []
        return self._release_progress()

    # --- what goes wrong -------------------------------------------------------------------

    def _undecodable(self, raw: bytes, error: UnicodeDecodeError) -> list[SessionMessage]:
        text = raw.decode("utf-8", errors="replace")
        if has_surrogate_escape(raw):
            text = replace_lone_surrogates(text)  # A notification below is passed on.
        try:
            parsed = json.loads(text)
        except (ValueError, RecursionError):
            parsed = None
        rid = parsed.get("id") if isinstance(parsed, dict) else _id_in(raw[:512], raw[-512:])
        if isinstance(parsed, dict) and "id" not in parsed and "method" in parsed:
            # A notification: its text is only shown, replacement characters are harmless.
            try:
                message = types.jsonrpc_message_adapter.validate_python(parsed, by_name=False)
            except (ValueError, RecursionError):
                return []
            return self.accept(SessionMessage(message))
        byte = raw[error.start : error.start + 1].hex()
        why = (
            f"the server's answer is not valid UTF-8 (byte 0x{byte} at offset {error.start:,}); "
            "an MCP server must write UTF-8 JSON"
        )
        return self._fail(rid, why, raw=raw, garbled=True)

    def _unparsed(self, raw: bytes, text: str) -> list[SessionMessage]:
        """``validate_json`` refused the line: too deep for pydantic, not JSON, or not JSON-RPC."""
        try:
            parsed = json.loads(text)
        except RecursionError:
            return self._too_deep(_id_in(raw[:512], raw[-512:]))
        except ValueError:
            return self._fail(
                _id_in(raw[:512], raw[-512:]),
                "the server sent a line that is not JSON",
                raw=raw,
                garbled=raw.lstrip()[:1] in (b"{", b"["),
            )
        found = parsed.get("id") if isinstance(parsed, dict) else None
        rid: RequestId | None = found if isinstance(found, (int, str)) else None
        result = parsed.get("result") if isinstance(parsed, dict) else None
        if (
            isinstance(result, dict)
            and rid is not None
            and self.pending.get(request_key(rid)) == "tools/list"
        ):
            # Judge a tool list tool by tool: one deep schema must not cost the others.
            self._keep_valid_tools(result)
        if nesting_exceeds(parsed, self.limits.max_json_depth):
            return self._too_deep(rid)
        try:
            message = types.jsonrpc_message_adapter.validate_python(parsed, by_name=False)
        except (ValidationError, ValueError, RecursionError):
            return self._fail(
                rid,
                "the server sent JSON that is not a JSON-RPC message",
                raw=raw,
                garbled=True,
            )
        return self.accept(SessionMessage(message))

    def _too_deep(self, rid: RequestId | None) -> list[SessionMessage]:
        self.stats.too_deep_messages += 1
        exceeded = LimitExceeded(
            "max_json_depth",
            self.limits.max_json_depth,
            what="the server's answer",
            per_server=True,
        )
        self.stats.record_limit(exceeded)
        return self._fail(rid, exceeded, exceeded=exceeded)

    def _fail(
        self,
        rid: RequestId | None,
        why: str | LimitExceeded,
        *,
        exceeded: LimitExceeded | None = None,
        raw: bytes = b"",
        garbled: bool = False,
    ) -> list[SessionMessage]:
        """Answer the request an unusable message belonged to, or count it as garbage.

        Without an ``id``, a message that looks like a broken answer (or is no text at all)
        is pinned on the one request waiting, if exactly one is; plain text is a log line
        printed to the wrong stream, counted and otherwise ignored.
        """
        rid = request_key(rid) if rid is not None else None
        if rid is None or rid not in self.pending:
            rid = None
            waiting = self._waiting()
            if (garbled or exceeded is not None) and len(waiting) == 1:
                rid = waiting[0]
        if rid is None:
            self.stats.garbage_lines += 1
            if self.stats.first_garbage is None and raw:
                self.stats.first_garbage = _preview(raw)
            return []
        method = self.pending.pop(rid)
        self._finish(rid)
        self.stats.answered_errors += 1
        data: dict[str, Any] = {"method": method}
        if exceeded is not None:
            data.update(exceeded.to_body())
        if raw:
            data["preview"] = _preview(raw)
        error = types.ErrorData(code=PARSE_ERROR, message=str(why), data={GUARD_ERROR: data})
        return [
            *self._release_progress(),
            SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=rid, error=error)),
        ]

    # --- tools/list, one tool at a time --------------------------------------------------

    def _keep_valid_tools(self, result: dict[str, Any]) -> None:
        tools = result.get("tools")
        if not isinstance(tools, list):
            return
        if len(tools) > self.max_tools:
            # Cut before anything is validated: 100,000 tools took 18 s and 745 MB.
            self.stats.tools_cut = (self.max_tools, len(tools))
            del tools[self.max_tools :]
        kept = []
        for index, tool in enumerate(tools):
            name = tool.get("name") if isinstance(tool, dict) else None
            label = f"tool #{index + 1}" + (f" {clean(str(name))[:80]!r}" if name else "")
            problem = None
            if nesting_exceeds(tool, self.limits.max_json_depth - 3):
                problem = f"nested deeper than max_json_depth = {self.limits.max_json_depth}"
            else:
                problem = self._tool_problem(result, tool)
            if problem is None:
                kept.append(tool)
            elif len(self.stats.tool_problems) < MAX_TOOL_PROBLEMS:
                self.stats.tool_problems.append(f"{label} left out: {clean(problem)[:200]}")
        result["tools"] = kept

    def _tool_problem(self, result: dict[str, Any], tool: Any) -> str | None:
        """What is wrong with one tool, judged by the negotiated version's schema."""
        try:
            methods.validate_server_result("tools/list", self.version, {**result, "tools": [tool]})
        except ValidationError as error:
            for item in error.errors(include_url=False):
                # Only the tool's own fields: the rest of the result is the session's business.
                if tuple(item["loc"][:2]) == ("tools", 0):
                    where = ".".join(str(part) for part in item["loc"][2:]) or "(the tool)"
                    return f"{where}: {item['msg']}"
        except (ValueError, KeyError, RecursionError) as error:
            return f"{type(error).__name__}: {error}"
        return None

    # --- floods ----------------------------------------------------------------------------

    def _admit(self, method: str) -> bool:
        now = self._clock()
        start, count = self._window.get(method, (now, 0))
        if now - start >= 1.0:
            start, count = now, 0
        if count >= NOTIFICATIONS_PER_S:
            self._window[method] = (start, count)
            return False
        self._window[method] = (start, count + 1)
        return True

    def _notification(self, item: SessionMessage) -> list[SessionMessage]:
        message = item.message
        assert isinstance(message, types.JSONRPCNotification)
        if nesting_exceeds(message.params, self.limits.max_json_depth - 2):
            self.stats.too_deep_messages += 1
            return []
        if self._admit(message.method):
            if message.method == "notifications/progress":
                token = (message.params or {}).get("progressToken")
                self._held_progress.pop(token, None)
            return [item]
        if message.method == "notifications/progress":
            # The latest value per token wins, so the bar still ends where the server said.
            token = (message.params or {}).get("progressToken")
            if token in self._held_progress:
                self.stats.coalesced_progress += 1
            self._held_progress[token] = item
            return []
        self.stats.dropped_notifications[message.method] += 1
        return []

    def _release_progress(self) -> list[SessionMessage]:
        held = list(self._held_progress.values())
        self._held_progress.clear()
        return held


def _server_sent(message: types.JSONRPCError, rid: RequestId) -> types.JSONRPCError:
    """The server's own -32000/-32001, marked so it is not taken for the SDK's."""
    error = message.error
    data = {SERVER_SENT: {"code": error.code, "data": error.data}}
    marked = types.ErrorData(code=error.code, message=error.message, data=data)
    return types.JSONRPCError(jsonrpc="2.0", id=rid, error=marked)


@asynccontextmanager
async def guarded(transport: Transport, guard: MessageGuard) -> AsyncIterator[TransportStreams]:
    """``transport`` with every message passing ``guard`` both ways."""
    async with transport as (inner_read, inner_write):
        up_send, up_receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        down_send, down_receive = anyio.create_memory_object_stream[SessionMessage](0)

        async def pump_in() -> None:
            async with up_send:
                async for item in inner_read:
                    out = guard.accept(item) if isinstance(item, SessionMessage) else [item]
                    for message in out:
                        await up_send.send(message)

        async def pump_out() -> None:
            async with down_receive:
                async for item in down_receive:
                    guard.outgoing(item.message)
                    await inner_write.send(item)

        async def release_held() -> None:
            with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                while True:
                    await anyio.sleep(0.1)
                    for message in guard.due():
                        await up_send.send(message)

        async with anyio.create_task_group() as group:
            group.start_soon(pump_in)
            group.start_soon(pump_out)
            group.start_soon(release_held)
            try:
                yield up_receive, down_send
            finally:
                group.cancel_scope.cancel()


__all__ = [
    "GUARD_ERROR",
    "MAX_TOOLS",
    "NOTIFICATIONS_PER_S",
    "SERVER_SENT",
    "GuardStats",
    "MessageGuard",
    "RequestId",
    "guarded",
    "summarize_sdk_logs",
]
