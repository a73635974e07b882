"""Anthropic Messages: a JSON list of ``{role, content}`` (or a request body's ``messages``).

An assistant's ``tool_use {id, name, input}`` (or ``mcp_tool_use {id, name, server_name,
input}``) block starts a call; a user's ``tool_result {tool_use_id, content, is_error}`` (or
``mcp_tool_result``) block ends it. The format records no times.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from workbench.transcripts.fields import string, text_of
from workbench.transcripts.model import Entry, Message, ToolCall
from workbench.transcripts.reading import Reading, ended, record_reader
from workbench.transcripts.records import Record

FORMAT = "anthropic"
CALL_BLOCKS = (
    "tool_use",
    "mcp_tool_use",
    "server_tool_use",
)
RESULT_BLOCKS = (
    "tool_result",
    "mcp_tool_result",
    "web_search_tool_result",
)


def looks_like(data: dict[str, Any]) -> bool:
    content = data.get("content")
    return (
        data.get("role") in ("user", "assistant")
        and isinstance(content, list)
        and any(
            isinstance(block, dict)
            and block.get("type") in (*CALL_BLOCKS, *RESULT_BLOCKS, "thinking")
            for block in content
        )
    )


@record_reader
def read(records: Iterable[Record], reading: Reading) -> Iterator[Entry]:
    for record in records:
        data = record.data
        line = record.line or 0
        place = record.where or "message"
        role = data.get("role")
        if role not in ("user", "assistant"):
            yield reading.problem(record, place, "unknown message role")
            continue
        content = data.get("content")
        if isinstance(content, str):
            yield reading.said(role, content, line)
            continue
        if not isinstance(content, list):
            yield reading.problem(record, place, "`content` is not a list")
            continue
        for block in content:
            block_type = block.get("type") if isinstance(block, dict) else None
            if not isinstance(block, dict):
                yield reading.problem(record, place, "a content block is no object")
            elif block_type == "text":
                yield reading.said(role, str(block.get("text", "")), line)
            elif block_type == "thinking":
                yield Message("thinking", str(block.get("thinking", "")), line)
            elif block_type in CALL_BLOCKS:
                call_id = string(block.get("id"))
                name = string(block.get("name"))
                if call_id is None or name is None:
                    yield reading.problem(record, str(block_type), "no `id` or `name`", block)
                    continue
                arguments = block.get("input")
                reading.start(
                    ToolCall(
                        call_id,
                        name,
                        arguments if isinstance(arguments, dict) else {},
                        record.line_of(block) or line,
                        server=string(block.get("server_name")),
                        prompt=reading.prompt,
                    )
                )
            elif block_type in RESULT_BLOCKS:
                call = reading.answered(block.get("tool_use_id"))
                if call is None:
                    yield reading.problem(
                        record, str(block_type), "answers no tool_use before it", block
                    )
                    continue
                text = text_of(block.get("content"))
                failed = bool(block.get("is_error"))
                ended(call, text, (text or "The tool reported an error") if failed else None)
                yield call
            elif block_type not in ("image", "document", "redacted_thinking"):
                yield reading.problem(
                    record, f"{place} block", f"unknown block type {str(block_type)[:40]}", block
                )
