"""Claude Code session JSONL (``~/.claude/projects/PROJECT/SESSION.jsonl``).

Each line is an object with ``type``: ``user`` and ``assistant`` lines carry ``message``
(``role`` and ``content``: a string or blocks); an assistant's ``tool_use`` block ``{id, name,
input}`` starts a call and a user line's ``tool_result`` block ``{tool_use_id, content,
is_error}`` ends it, with the structured result in the line's top-level ``toolUseResult``.
``isSidechain`` lines are a subagent's: their calls are nested under the ``Task`` (or
``Agent``) call still waiting for its result. ``summary``, ``system`` and bookkeeping lines
carry no calls and are passed over.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from workbench.transcripts.fields import says_truncated, string, text_of, timestamp
from workbench.transcripts.model import Entry, Message, MessageRole, ToolCall
from workbench.transcripts.reading import Reading, record_reader
from workbench.transcripts.records import Record

FORMAT = "claude-code"
SUBAGENT_TOOLS = (
    "Task",
    "Agent",
)
PASSED_OVER = (
    "summary",
    "system",
    "file-history-snapshot",
    "queue-operation",
    "progress",
    "attachment",
)
DENIED = "The user doesn't want to proceed with this tool use"
INTERRUPTED = "[Request interrupted by user"


def looks_like(data: dict[str, Any]) -> bool:
    return data.get("type") in ("user", "assistant") and isinstance(data.get("message"), dict)


@record_reader
def read(records: Iterable[Record], reading: Reading) -> Iterator[Entry]:
    for record in records:
        data = record.data
        kind = data.get("type")
        if kind in PASSED_OVER:
            continue
        if kind not in ("user", "assistant"):
            yield reading.problem(record, str(kind)[:40], "unknown record type")
            continue
        message = data.get("message")
        if not isinstance(message, dict):
            yield reading.problem(record, kind, "no `message` object")
            continue
        when = timestamp(data.get("timestamp"))
        parent = _subagent_parent(data, reading.pending)
        content = message.get("content")
        if isinstance(content, str):
            if kind == "user" and not data.get("isSidechain"):
                reading.prompt = content
            role: MessageRole = "user" if kind == "user" else "assistant"
            yield Message(role, content, record.line or 0, when, parent)
            continue
        if not isinstance(content, list):
            yield reading.problem(record, kind, "`message.content` is not a list")
            continue
        for block in content:
            if not isinstance(block, dict):
                yield reading.problem(record, kind, "a content block is no object")
                continue
            block_type = block.get("type")
            if block_type == "text":
                text = str(block.get("text", ""))
                if kind == "user" and not data.get("isSidechain"):
                    reading.prompt = text
                yield Message(
                    "user" if kind == "user" else "assistant", text, record.line or 0, when, parent
                )
            elif block_type == "thinking":
                yield Message("thinking", str(block.get("thinking", "")), record.line or 0, when)
            elif block_type == "tool_use":
                call_id = string(block.get("id"))
                name = string(block.get("name"))
                if call_id is None or name is None:
                    yield reading.problem(record, "tool_use", "no `id` or `name`")
                    continue
                arguments = block.get("input")
                reading.start(
                    ToolCall(
                        id=call_id,
                        name=name,
                        args=arguments if isinstance(arguments, dict) else {},
                        line=record.line or 0,
                        started=when,
                        parent_call=parent,
                        prompt=reading.prompt,
                        title=string((arguments or {}).get("description"))
                        if isinstance(arguments, dict)
                        else None,
                    )
                )
            elif block_type == "tool_result":
                call = reading.answered(block.get("tool_use_id"))
                if call is None:
                    yield reading.problem(record, "tool_result", "answers no tool_use before it")
                    continue
                _finish(call, block, data.get("toolUseResult"), when)
                yield call
            elif block_type in ("image", "document", "redacted_thinking"):
                continue
            else:
                yield reading.problem(
                    record, f"{kind} block", f"unknown block type {str(block_type)[:40]}"
                )


def _subagent_parent(data: dict[str, Any], pending: dict[str, ToolCall]) -> str | None:
    if not data.get("isSidechain"):
        return None
    starters = [call.id for call in pending.values() if call.name in SUBAGENT_TOOLS]
    return starters[-1] if starters else None


def _finish(call: ToolCall, block: dict[str, Any], structured: Any, when: Any) -> None:
    text = text_of(block.get("content"))
    call.ended = when
    call.content = text
    if isinstance(structured, dict | list):
        call.state = structured
    call.truncated = says_truncated(text)
    if text.startswith(DENIED):
        call.outcome = "denied"
        call.error = text
    elif text.startswith(INTERRUPTED):
        call.outcome = "interrupted"
        call.error = text
    elif block.get("is_error"):
        call.outcome = "blocked" if _blocked_by_hook(text) else "failed"
        call.error = text or "The tool reported an error"
    else:
        call.outcome = "done"


def _blocked_by_hook(text: str) -> bool:
    head = text[:200].lower()
    return "hook" in head and "block" in head
