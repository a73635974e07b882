"""Codex rollout JSONL (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``).

Each line is ``{timestamp, type, payload}``. ``response_item`` payloads are what the model saw:
``message``, ``reasoning``, ``function_call {name, arguments (a JSON string), call_id}``,
``custom_tool_call {name, input, call_id}``, ``local_shell_call``, and their ``*_output
{call_id, output}``, which end a call. ``event_msg`` payloads are what the user saw:
``exec_command_end {call_id, exit_code, duration}`` and ``patch_apply_end`` add structured
state to the call they belong to, ``mcp_tool_call_end {call_id, invocation {server, tool,
arguments}, duration, result}`` names an MCP call's server and tool (and is the whole call when
no ``function_call`` came before it), ``turn_aborted`` interrupts the calls still running.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta
from typing import Any

from workbench.transcripts.fields import arguments, says_truncated, string, text_of, timestamp
from workbench.transcripts.model import Entry, Message, ToolCall, TranscriptProblem
from workbench.transcripts.reading import Reading, record_reader
from workbench.transcripts.records import Record

FORMAT = "codex"
LINE_TYPES = (
    "session_meta",
    "response_item",
    "event_msg",
    "turn_context",
    "compacted",
)
CALL_ITEMS = (
    "function_call",
    "custom_tool_call",
    "local_shell_call",
)
OUTPUT_ITEMS = (
    "function_call_output",
    "custom_tool_call_output",
)
QUIET_ITEMS = (
    "reasoning",
    "web_search_call",
    "ghost_snapshot",
    "compaction",
)
QUIET_EVENTS = (
    "token_count",
    "task_started",
    "task_complete",
    "exec_command_begin",
    "exec_command_output_delta",
    "mcp_tool_call_begin",
    "patch_apply_begin",
    "exec_approval_request",
    "apply_patch_approval_request",
    "agent_reasoning_raw_content",
    "web_search_begin",
    "web_search_end",
    "turn_diff",
    "entered_review_mode",
    "exited_review_mode",
    "background_event",
    "stream_error",
    "error",
    "user_message",
    "agent_message",
    "agent_reasoning",
    "plan_update",
    "view_image_tool_call",
)
REJECTED = ("exec command rejected", "patch rejected", "rejected by user", "user declined")


def looks_like(data: dict[str, Any]) -> bool:
    return data.get("type") in LINE_TYPES and "payload" in data


@record_reader
def read(records: Iterable[Record], reading: Reading) -> Iterator[Entry]:
    pending = reading.pending
    finished: set[str] = set()
    for record in records:
        data = record.data
        line = record.line or 0
        kind = data.get("type")
        payload = data.get("payload")
        if kind not in LINE_TYPES:
            yield reading.problem(record, str(kind)[:40], "unknown record type")
            continue
        if not isinstance(payload, dict):
            yield reading.problem(record, str(kind), "no `payload` object")
            continue
        when = timestamp(data.get("timestamp"))
        item = payload.get("type")
        if kind == "response_item":
            if item == "message":
                role = payload.get("role")
                text = text_of(payload.get("content"))
                if role == "user":
                    if not text.startswith(("<environment_context>", "<user_instructions>")):
                        yield reading.said("user", text, line, when)
                elif role == "assistant":
                    yield Message("assistant", text, line, when)
            elif item == "reasoning":
                summary = text_of(payload.get("summary"))
                if summary:
                    yield Message("thinking", summary, line, when)
            elif item in CALL_ITEMS:
                call = _started(payload, line, when, reading.prompt)
                if call is None:
                    yield reading.problem(record, str(item), "no `call_id` or `name`")
                else:
                    reading.start(call)
            elif item in OUTPUT_ITEMS:
                call_id = str(payload.get("call_id"))
                call = reading.answered(call_id)
                if call is None:
                    if call_id not in finished:
                        yield reading.problem(record, str(item), "answers no call before it")
                    continue
                _output(call, payload.get("output"), when)
                finished.add(call.id)
                yield call
            elif item not in QUIET_ITEMS:
                yield reading.problem(
                    record, f"response_item {str(item)[:40]}", "unknown item type"
                )
        elif kind == "event_msg":
            if item == "exec_command_end":
                call = pending.get(str(payload.get("call_id")))
                if call is not None:
                    state = call.state if isinstance(call.state, dict) else {}
                    state["exitCode"] = payload.get("exit_code")
                    duration = _duration_ms(payload.get("duration"))
                    if duration is not None:
                        state["durationMs"] = duration
                    call.state = state
            elif item == "mcp_tool_call_end":
                entry = _mcp_end(
                    payload, reading.file, line, when, pending, finished, reading.prompt
                )
                if entry is not None:
                    yield entry
            elif item == "turn_aborted":
                for call in pending.values():
                    call.outcome = "interrupted"
                    call.ended = when
                    call.error = f"The turn was aborted ({payload.get('reason', 'interrupted')})"
                    finished.add(call.id)
                    yield call
                pending.clear()
            elif item not in QUIET_EVENTS:
                yield reading.problem(record, f"event_msg {str(item)[:40]}", "unknown event type")


def _started(
    payload: dict[str, Any], line: int, when: datetime | None, prompt: str | None
) -> ToolCall | None:
    call_id = string(payload.get("call_id")) or string(payload.get("id"))
    item = payload.get("type")
    if item == "local_shell_call":
        action = payload.get("action")
        args = action if isinstance(action, dict) else {}
        name: str | None = "local_shell"
    else:
        name = string(payload.get("name"))
        args, _ = arguments(
            payload.get("input") if item == "custom_tool_call" else payload.get("arguments")
        )
    if call_id is None or name is None:
        return None
    server, tool = _split_mcp(name)
    return ToolCall(
        id=call_id,
        name=tool,
        server=server,
        args=args,
        line=line,
        started=when,
        prompt=prompt,
        title=string(args.get("justification")) or string(args.get("description")),
    )


def _split_mcp(name: str) -> tuple[str | None, str]:
    # Codex names an MCP tool SERVER__TOOL (older releases: mcp__SERVER__TOOL).
    parts = name.removeprefix("mcp__").split("__", 1)
    return (parts[0], parts[1]) if len(parts) == 2 and all(parts) else (None, name)


def _output(call: ToolCall, output: Any, when: datetime | None) -> None:
    text = output if isinstance(output, str) else text_of(output)
    metadata: dict[str, Any] = {}
    if isinstance(output, str) and output.startswith("{"):
        # Older rollouts wrap the text: {"output", "metadata": {exit_code, duration_seconds}}.
        try:
            wrapped = json.loads(output)
        except ValueError:
            wrapped = None
        if isinstance(wrapped, dict) and isinstance(wrapped.get("output"), str):
            text = wrapped["output"]
            found = wrapped.get("metadata")
            metadata = found if isinstance(found, dict) else {}
    call.ended = when
    call.content = text
    state = call.state if isinstance(call.state, dict) else {}
    if "exit_code" in metadata:
        state["exitCode"] = metadata["exit_code"]
    if isinstance(metadata.get("duration_seconds"), int | float):
        state["durationMs"] = int(metadata["duration_seconds"] * 1000)
    call.state = state or None
    call.truncated = says_truncated(text)
    exit_code = state.get("exitCode")
    if any(marker in text[:200].lower() for marker in REJECTED):
        call.outcome = "denied"
        call.error = text
    elif isinstance(exit_code, int) and exit_code != 0:
        call.outcome = "failed"
        call.error = f"exited with code {exit_code}"
        call.error_type = "NonZeroExit"
    else:
        call.outcome = "done"
    if isinstance(state.get("durationMs"), int) and call.started is not None:
        call.ended = call.started + timedelta(milliseconds=state["durationMs"])


def _duration_ms(value: Any) -> int | None:
    if isinstance(value, dict):
        seconds = value.get("secs", 0)
        nanos = value.get("nanos", 0)
        if isinstance(seconds, int | float) and isinstance(nanos, int | float):
            return int(seconds * 1000 + nanos / 1e6)
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return int(value * 1000)
    if isinstance(value, str):
        text = value.strip()
        for suffix, scale in (("ms", 1.0), ("s", 1000.0)):
            if text.endswith(suffix):
                try:
                    return int(float(text[: -len(suffix)]) * scale)
                except ValueError:
                    return None
    return None


def _mcp_end(
    payload: dict[str, Any],
    file: str,
    line: int,
    when: datetime | None,
    pending: dict[str, ToolCall],
    finished: set[str],
    prompt: str | None,
) -> Entry | None:
    call_id = string(payload.get("call_id"))
    invocation = payload.get("invocation")
    if call_id is None or not isinstance(invocation, dict):
        return TranscriptProblem(file, line, "event_msg mcp_tool_call_end", "no call_id/invocation")
    server = string(invocation.get("server"))
    tool = string(invocation.get("tool"))
    call = pending.get(call_id)
    if call is not None:
        call.server = server or call.server
        call.name = tool or call.name
        return None
    if call_id in finished or tool is None:
        return None
    args, _ = arguments(invocation.get("arguments"))
    call = ToolCall(id=call_id, name=tool, server=server, args=args, line=line, prompt=prompt)
    duration = _duration_ms(payload.get("duration"))
    call.ended = when
    if when is not None and duration is not None:
        call.started = when - timedelta(milliseconds=duration)
    result = payload.get("result")
    ok = result.get("Ok") if isinstance(result, dict) else None
    failure = result.get("Err") if isinstance(result, dict) else None
    if isinstance(ok, dict):
        call.content = text_of(ok.get("content"))
        if ok.get("structuredContent") is not None:
            call.state = ok.get("structuredContent")
        call.outcome = "failed" if ok.get("isError") else "done"
        if ok.get("isError"):
            call.error = call.content or "The MCP tool reported an error"
            call.error_type = "McpToolError"
    else:
        call.outcome = "failed"
        call.error = str(failure) if failure is not None else "The MCP call failed"
        call.content = call.error
    call.truncated = says_truncated(call.content)
    finished.add(call_id)
    return call
