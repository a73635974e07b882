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

from workbench.transcripts.fields import arguments, string, text_of
from workbench.transcripts.model import Entry, Message, ToolCall
from workbench.transcripts.reading import Reading, ended, record_reader
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


@record_reader
def read(records: Iterable[Record], reading: Reading) -> Iterator[Entry]:
    for record in records:
        data = record.data
        line = record.line or 0
        place = record.where or "message"
        role = data.get("role")
        if role not in ROLES:
            yield reading.problem(record, place, "unknown message role")
            continue
        if role == "tool":
            call = reading.answered(data.get("tool_call_id"))
            if call is None:
                yield reading.problem(record, place, "a tool message answers no call before it")
                continue
            finish_from_text(call, text_of(data.get("content")))
            yield call
            continue
        text = text_of(data.get("content"))
        if role == "user" and text:
            yield reading.said("user", text, line)
        elif role == "assistant":
            if text:
                yield Message("assistant", text, line)
            calls = data.get("tool_calls") or []
            if not isinstance(calls, list):
                yield reading.problem(record, place, "`tool_calls` not a list")
                continue
            for call_data in calls:
                function = call_data.get("function") if isinstance(call_data, dict) else None
                call_id = string(call_data.get("id")) if isinstance(call_data, dict) else None
                name = string(function.get("name")) if isinstance(function, dict) else None
                if call_id is None or name is None or not isinstance(function, dict):
                    yield reading.problem(
                        record, f"{place} tool_call", "no `id` or function name", call_data
                    )
                    continue
                args, _ = arguments(function.get("arguments"))
                started_at = record.line_of(call_data) or line
                reading.start(ToolCall(call_id, name, args, started_at, prompt=reading.prompt))


def finish_from_text(call: ToolCall, text: str) -> None:
    """End a call whose format has only the text the model read."""
    ended(call, text)
    if text.startswith("{"):
        try:
            parsed = json.loads(text)
        except ValueError:
            return
        if isinstance(parsed, dict) and parsed.get("error"):
            call.outcome = "failed"
            error = parsed["error"]
            call.error = str(error.get("message", error) if isinstance(error, dict) else error)
