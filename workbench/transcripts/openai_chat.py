"""OpenAI Chat Completions messages: a JSON list (or a request body's ``messages``, or JSON Lines).

An assistant message's ``tool_calls[{id, function {name, arguments (a JSON string)}}]`` start
calls; a ``{role: tool, tool_call_id, content}`` message ends one. The format records no error
flag and no times: a result is a success unless it is the text of a JSON object with an
``error`` key.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from workbench.transcripts.fields import arguments, says_truncated, string, text_of
from workbench.transcripts.model import Entry, Message, ToolCall, TranscriptProblem
from workbench.transcripts.records import Record

FORMAT = "openai-chat"
ROLES = (
    "system",
    "developer",
    "user",
    "assistant",
    "tool",
    "function",
)


def looks_like(data: dict[str, Any]) -> bool:
    """A message only Chat Completions has: one with ``tool_calls``, or a ``tool`` message."""
    return data.get("role") in ROLES and ("tool_calls" in data or data.get("role") == "tool")


def looks_like_message(data: dict[str, Any]) -> bool:
    """A plain ``{role, content: "..."}`` message (any message format has those)."""
    return data.get("role") in ROLES and isinstance(data.get("content"), str)


def where(record: Record) -> str:
    return record.where or "message"


def read(records: Iterable[Record | TranscriptProblem], file: str) -> Iterator[Entry]:
    pending: dict[str, ToolCall] = {}
    prompt: str | None = None
    for record in records:
        if isinstance(record, TranscriptProblem):
            yield record
            continue
        data = record.data
        line = record.line or 0
        role = data.get("role")
        if role not in ROLES:
            yield TranscriptProblem(file, record.line, where(record), "unknown message role")
            continue
        if role == "tool":
            call = pending.pop(str(data.get("tool_call_id")), None)
            if call is None:
                yield TranscriptProblem(
                    file, record.line, where(record), "a tool message answers no call before it"
                )
                continue
            finish_from_text(call, text_of(data.get("content")))
            yield call
            continue
        text = text_of(data.get("content"))
        if role == "user" and text:
            prompt = text
            yield Message("user", text, line)
        elif role == "assistant":
            if text:
                yield Message("assistant", text, line)
            calls = data.get("tool_calls") or []
            if not isinstance(calls, list):
                yield TranscriptProblem(file, record.line, where(record), "`tool_calls` not a list")
                continue
            for call_data in calls:
                function = call_data.get("function") if isinstance(call_data, dict) else None
                call_id = string(call_data.get("id")) if isinstance(call_data, dict) else None
                name = string(function.get("name")) if isinstance(function, dict) else None
                if call_id is None or name is None or not isinstance(function, dict):
                    yield TranscriptProblem(
                        file, record.line, f"{where(record)} tool_call", "no `id` or function name"
                    )
                    continue
                args, _ = arguments(function.get("arguments"))
                pending[call_id] = ToolCall(call_id, name, args, line, prompt=prompt)
    yield from pending.values()


def finish_from_text(call: ToolCall, text: str) -> None:
    """End a call whose format has only the text the model read."""
    call.content = text
    call.truncated = says_truncated(text)
    call.outcome = "done"
    if text.startswith("{"):
        try:
            parsed = json.loads(text)
        except ValueError:
            return
        if isinstance(parsed, dict) and parsed.get("error"):
            call.outcome = "failed"
            error = parsed["error"]
            call.error = str(error.get("message", error) if isinstance(error, dict) else error)
