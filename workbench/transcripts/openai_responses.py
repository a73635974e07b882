"""OpenAI Responses items: a JSON list of items (or a body's ``input``/``output``, or JSON Lines).

``function_call {call_id, name, arguments}`` and ``custom_tool_call {call_id, name, input}``
start calls, ``function_call_output`` / ``custom_tool_call_output {call_id, output}`` end them;
an ``mcp_call {id, server_label, name, arguments, output, error}`` is a whole MCP call.
``message`` items are the conversation, ``reasoning`` items its summarised thinking.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from workbench.transcripts.fields import arguments, string, text_of
from workbench.transcripts.model import Entry, Message, ToolCall
from workbench.transcripts.openai_chat import finish_from_text
from workbench.transcripts.reading import Reading, ended, record_reader
from workbench.transcripts.records import Record

FORMAT = "openai-responses"
CALLS = (
    "function_call",
    "custom_tool_call",
)
OUTPUTS = (
    "function_call_output",
    "custom_tool_call_output",
)
QUIET = (
    "web_search_call",
    "file_search_call",
    "image_generation_call",
    "mcp_list_tools",
)


def looks_like(data: dict[str, Any]) -> bool:
    kind = data.get("type")
    if kind in (*CALLS, *OUTPUTS, "mcp_call", "reasoning"):
        return "payload" not in data
    content = data.get("content")
    return (
        kind == "message"
        and isinstance(content, list)
        and any(
            isinstance(part, dict) and part.get("type") in ("input_text", "output_text")
            for part in content
        )
    )


@record_reader
def read(records: Iterable[Record], reading: Reading) -> Iterator[Entry]:
    for record in records:
        data = record.data
        line = record.line or 0
        place = record.where or "item"
        kind = data.get("type", "message" if "role" in data else None)
        if kind == "message":
            text = text_of(data.get("content"))
            if data.get("role") == "user":
                yield reading.said("user", text, line)
            elif data.get("role") == "assistant":
                yield Message("assistant", text, line)
        elif kind == "reasoning":
            summary = text_of(data.get("summary"))
            if summary:
                yield Message("thinking", summary, line)
        elif kind in CALLS:
            call_id = string(data.get("call_id"))
            name = string(data.get("name"))
            if call_id is None or name is None:
                yield reading.problem(record, place, f"{kind}: no `call_id` or `name`")
                continue
            args, _ = arguments(
                data.get("input") if kind == "custom_tool_call" else data.get("arguments")
            )
            reading.start(ToolCall(call_id, name, args, line, prompt=reading.prompt))
        elif kind in OUTPUTS:
            call = reading.answered(data.get("call_id"))
            if call is None:
                yield reading.problem(record, place, f"{kind}: answers no call before it")
                continue
            output = data.get("output")
            finish_from_text(call, output if isinstance(output, str) else text_of(output))
            yield call
        elif kind == "mcp_call":
            call_id = string(data.get("id"))
            name = string(data.get("name"))
            if call_id is None or name is None:
                yield reading.problem(record, place, "mcp_call: no `id` or `name`")
                continue
            args, _ = arguments(data.get("arguments"))
            call = ToolCall(
                call_id,
                name,
                args,
                line,
                server=string(data.get("server_label")),
                prompt=reading.prompt,
            )
            error = data.get("error")
            if error:
                call.outcome = "failed"
                call.error = text_of(error) if not isinstance(error, str) else error
                call.content = call.error
            else:
                ended(call, text_of(data.get("output")))
            yield call
        elif kind not in QUIET:
            yield reading.problem(record, place, f"unknown item type {str(kind)[:40]}")
