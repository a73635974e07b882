"""Agent Client Protocol JSON-RPC lines (``session/update`` notifications and permissions).

``tool_call`` starts a call (``toolCallId``, ``title``, ``kind``, ``status``, ``content[]``,
``rawInput``); ``tool_call_update`` changes any of those fields and ends the call when its
``status`` is ``completed`` or ``failed``. ``content`` items are text (``content``), ``diff``
(``path, oldText, newText``) or ``terminal``. A ``session/request_permission`` request names a
call; its response's ``outcome`` (an option of kind ``reject_*``, or ``cancelled``) denies or
cancels it. Message chunks of one role in a row make one message. ACP calls have no tool name:
the API is the call's ``kind`` (``read``, ``edit``, ``execute`` ...).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from workbench.transcripts.fields import items, says_truncated, string, text_of
from workbench.transcripts.model import Entry, MessageRole, ToolCall
from workbench.transcripts.reading import Reading, record_reader
from workbench.transcripts.records import Record

FORMAT = "acp"
CHUNKS: dict[str, MessageRole] = {
    "user_message_chunk": "user",
    "agent_message_chunk": "assistant",
    "agent_thought_chunk": "thinking",
}
QUIET = (
    "plan",
    "available_commands_update",
    "current_mode_update",
    "session_info_update",
)
QUIET_METHODS = (
    "session/prompt",
    "session/new",
    "session/load",
    "initialize",
)


def looks_like(data: dict[str, Any]) -> bool:
    return data.get("jsonrpc") == "2.0" and str(data.get("method", "")).startswith("session/")


@record_reader
def read(records: Iterable[Record], reading: Reading) -> Iterator[Entry]:
    calls = reading.pending
    permissions: dict[
        str | int, tuple[str, dict[str, str]]
    ] = {}  # request id -> (call, option kinds)
    chunk_role: MessageRole | None = None
    chunk_text: list[str] = []
    chunk_line = 0

    def flush() -> Iterator[Entry]:
        nonlocal chunk_role
        if chunk_role is not None:
            yield reading.said(chunk_role, "".join(chunk_text), chunk_line)
        chunk_role = None
        chunk_text.clear()

    for record in records:
        data = record.data
        line = record.line or 0
        method = data.get("method")
        found_params = data.get("params")
        params: dict[str, Any] = found_params if isinstance(found_params, dict) else {}
        if method == "session/update":
            update = params.get("update")
            kind = update.get("sessionUpdate") if isinstance(update, dict) else None
            if not isinstance(update, dict):
                yield reading.problem(record, "session/update", "no `update` object")
            elif isinstance(kind, str) and kind in CHUNKS:
                role = CHUNKS[kind]
                if role != chunk_role:
                    yield from flush()
                    chunk_role, chunk_line = role, line
                chunk_text.append(text_of(update.get("content")))
            elif kind == "tool_call":
                yield from flush()
                call_id = string(update.get("toolCallId"))
                if call_id is None:
                    yield reading.problem(record, "tool_call", "no `toolCallId`")
                    continue
                started = ToolCall(call_id, "other", {}, line, prompt=reading.prompt)
                calls[call_id] = started
                if _update(started, update):
                    yield calls.pop(call_id)
            elif kind == "tool_call_update":
                updated = calls.get(str(update.get("toolCallId")))
                if updated is None:
                    yield reading.problem(
                        record, "tool_call_update", "updates no tool_call before it"
                    )
                    continue
                if _update(updated, update):
                    yield calls.pop(updated.id)
            elif kind not in QUIET:
                yield reading.problem(
                    record, f"session/update {str(kind)[:40]}", "unknown update kind"
                )
        elif method == "session/request_permission":
            tool_call = params.get("toolCall")
            call_id = string(tool_call.get("toolCallId")) if isinstance(tool_call, dict) else None
            if call_id is None:
                yield reading.problem(record, str(method), "no `toolCall.toolCallId`")
                continue
            if call_id not in calls and isinstance(tool_call, dict):
                calls[call_id] = ToolCall(call_id, "other", {}, line, prompt=reading.prompt)
            if isinstance(tool_call, dict):
                _update(calls[call_id], tool_call)
            options = {
                str(option.get("optionId")): str(option.get("kind"))
                for option in items(params.get("options"))
                if isinstance(option, dict)
            }
            if isinstance(data.get("id"), str | int):
                permissions[data["id"]] = (call_id, options)
        elif method is None and isinstance(data.get("id"), str | int) and data["id"] in permissions:
            call_id, options = permissions.pop(data["id"])
            call = calls.get(call_id)
            result = data.get("result")
            outcome = result.get("outcome") if isinstance(result, dict) else None
            chosen = outcome.get("outcome") if isinstance(outcome, dict) else None
            if call is None:
                continue
            if chosen == "cancelled":
                call.outcome, call.error = "cancelled", "The prompt turn was cancelled"
                yield calls.pop(call_id)
            elif (
                chosen == "selected"
                and isinstance(outcome, dict)
                and options.get(str(outcome.get("optionId")), "").startswith("reject")
            ):
                call.outcome, call.error = "denied", "The user rejected the call"
                yield calls.pop(call_id)
        elif method is None or method in QUIET_METHODS or "result" in data or "error" in data:
            continue
        else:
            yield reading.problem(record, str(method)[:40], "unknown method")
    yield from flush()


def _update(call: ToolCall, update: dict[str, Any]) -> bool:
    """Apply a tool call (update)'s fields; whether the call has ended."""
    if isinstance(update.get("kind"), str):
        call.name = update["kind"]
    if isinstance(update.get("title"), str):
        call.title = update["title"]
    if isinstance(update.get("rawInput"), dict):
        call.args = update["rawInput"]
    content = update.get("content")
    if isinstance(content, list):
        texts: list[str] = []
        diffs: list[dict[str, Any]] = []
        terminals: list[str] = []
        for item in content:
            if not isinstance(item, dict):
                continue
            if item.get("type") == "content":
                texts.append(text_of(item.get("content")))
            elif item.get("type") == "diff":
                diffs.append({key: item.get(key) for key in ("path", "oldText", "newText")})
            elif item.get("type") == "terminal":
                terminals.append(str(item.get("terminalId")))
        call.content = "\n".join(texts)
        state: dict[str, Any] = {}
        if diffs:
            state["diffs"] = diffs
        if terminals:
            state["terminals"] = terminals
        call.state = state or call.state
    if "rawOutput" in update and update["rawOutput"] is not None:
        raw = update["rawOutput"]
        call.state = (
            {**(call.state or {}), "rawOutput": raw}
            if isinstance(call.state, dict) or call.state is None
            else call.state
        )
        if not call.content:
            call.content = raw if isinstance(raw, str) else text_of(raw)
    status = update.get("status")
    if status == "completed":
        call.outcome = "done"
    elif status == "failed":
        call.outcome = "failed"
        call.error = call.content or "The tool call failed"
    else:
        return False
    call.truncated = says_truncated(call.content)
    return True
