"""gemini-cli chat recordings (``~/.gemini/tmp/PROJECT/chats/session-*.json``).

A document ``{sessionId, messages[]}``; each message has ``type`` (``user``, ``gemini``,
``info``, ``error``, ``warning``), ``content``, ``thoughts`` and, for the model's turns,
``toolCalls[{id, name, args, result, status, timestamp, resultDisplay}]``: each call is
complete where it stands. ``result`` holds the ``functionResponse`` parts the model read;
``status`` is ``success``, ``error`` or ``cancelled``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from workbench.transcripts.fields import items, says_truncated, string, text_of, timestamp
from workbench.transcripts.model import Entry, Message, ToolCall
from workbench.transcripts.reading import Reading, record_reader
from workbench.transcripts.records import Record

FORMAT = "gemini"
MESSAGE_TYPES = (
    "user",
    "gemini",
    "info",
    "error",
    "warning",
)


def looks_like(data: dict[str, Any]) -> bool:
    return data.get("type") in ("user", "gemini") and ("toolCalls" in data or "id" in data)


@record_reader
def read(records: Iterable[Record], reading: Reading) -> Iterator[Entry]:
    for record in records:
        data = record.data
        line = record.line or 0
        place = record.where or "message"
        kind = data.get("type")
        if kind not in MESSAGE_TYPES:
            yield reading.problem(record, place, f"unknown message type {str(kind)[:40]}")
            continue
        when = timestamp(data.get("timestamp"))
        text = text_of(data.get("content"))
        if kind == "user":
            yield reading.said("user", text, line, when)
            continue
        if kind != "gemini":
            continue
        for thought in items(data.get("thoughts")):
            if isinstance(thought, dict):
                words = " — ".join(
                    str(thought[key]) for key in ("subject", "description") if thought.get(key)
                )
                yield Message("thinking", words, line, timestamp(thought.get("timestamp")) or when)
        if text:
            yield Message("assistant", text, line, when)
        calls = data.get("toolCalls") or []
        if not isinstance(calls, list):
            yield reading.problem(record, place, "`toolCalls` is not a list")
            continue
        for index, call_data in enumerate(calls):
            yield _call(call_data, reading, record, f"{place} toolCalls[{index}]", when)


def _call(data: Any, reading: Reading, record: Record, place: str, when: Any) -> Entry:
    if not isinstance(data, dict):
        return reading.problem(record, place, "not an object")
    call_id = string(data.get("id"))
    name = string(data.get("name"))
    if call_id is None or name is None:
        return reading.problem(record, place, "no `id` or `name`", data)
    args = data.get("args")
    call = ToolCall(
        call_id,
        name,
        args if isinstance(args, dict) else {},
        record.line_of(data) or 0,
        prompt=reading.prompt,
        title=string(data.get("description")),
        started=timestamp(data.get("timestamp")) or when,
    )
    response = _response(data.get("result"))
    output = response.get("output") if response else None
    error = response.get("error") if response else None
    display = data.get("resultDisplay")
    if isinstance(output, str):
        call.content = output
    elif output is not None:
        call.content = json.dumps(output, ensure_ascii=False)
    elif isinstance(display, str):
        call.content = display
    else:
        call.content = text_of(data.get("result")) if not response else ""
    if display is not None and not isinstance(display, str):
        call.state = {"resultDisplay": display}
    elif name == "run_shell_command" and isinstance(output, str):
        call.state = shell_state(output) or None
    status = data.get("status")
    if status == "success":
        call.outcome = "done"
    elif status == "cancelled":
        call.outcome = "cancelled"
        call.error = str(error or "The call was cancelled")
    elif status == "error":
        call.outcome = "failed"
        call.error = str(error or call.content or "The tool reported an error")
    else:
        call.outcome = "failed" if error else "done"
        call.error = str(error) if error else None
    call.truncated = says_truncated(call.content)
    return call


# gemini-cli tells the model about a command in labelled lines; its user saw only the output.
SHELL_HEAD = ("Command", "Directory")
SHELL_OUTPUT = ("Output", "Stdout")
SHELL_TAIL = ("Error", "Exit Code", "Signal", "Background PIDs", "Process Group PGID")


def shell_state(text: str) -> dict[str, Any]:
    """``stdout``, ``stderr``, ``exit_code`` and ``directory`` of a ``run_shell_command``
    result, or nothing when the text is not in gemini-cli's labelled form.

    The output comes between its label and the last run of trailing labels, so an output
    line that looks like a label ("Exit Code: 3" printed by the command) stays output.
    """
    lines = text.split("\n")
    if not lines or not lines[0].startswith("Command: "):
        return {}
    start = next(
        (
            i
            for i, line in enumerate(lines)
            if line.startswith(tuple(f"{k}: " for k in SHELL_OUTPUT))
        ),
        None,
    )
    if start is None:
        return {}
    end = len(lines)
    while end > start + 1 and (
        lines[end - 1].startswith(tuple(f"{label}: " for label in SHELL_TAIL)) or not lines[end - 1]
    ):
        end -= 1
    fields = {
        label: line[len(label) + 2 :]
        for line in lines[:start] + lines[end:]
        for label in SHELL_HEAD + SHELL_TAIL
        if line.startswith(f"{label}: ")
    }
    printed = lines[start:end]
    printed[0] = printed[0].split(": ", 1)[1]
    stderr_at = next(
        (i for i in range(len(printed) - 1, 0, -1) if printed[i].startswith("Stderr: ")), None
    )
    stderr = None
    if stderr_at is not None:
        stderr = "\n".join([printed[stderr_at][len("Stderr: ") :], *printed[stderr_at + 1 :]])
        printed = printed[:stderr_at]
    state: dict[str, Any] = {"stdout": _shown("\n".join(printed))}
    if stderr is not None:
        state["stderr"] = _shown(stderr)
    code = fields.get("Exit Code", "").strip()
    if code.lstrip("-").isdigit():
        state["exit_code"] = int(code)
    directory = fields.get("Directory", "").strip()
    if directory and directory != "(root)":
        state["directory"] = directory
    return state


def _shown(value: str) -> str:
    """gemini-cli writes ``(empty)`` for nothing printed."""
    return "" if value.strip() == "(empty)" else value


def _response(result: Any) -> dict[str, Any] | None:
    """The ``response`` of the call's ``functionResponse`` part."""
    parts = result if isinstance(result, list) else [result]
    for part in parts:
        if isinstance(part, dict) and isinstance(part.get("functionResponse"), dict):
            response = part["functionResponse"].get("response")
            return response if isinstance(response, dict) else {}
    return None
