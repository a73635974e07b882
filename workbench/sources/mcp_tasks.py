"""Task-augmented tool calls (the 2025-11-25 spec's "tasks"), which the SDK client lacks.

A tool whose ``execution.taskSupport`` is ``"required"`` answers ``tools/call`` (sent with a
``task`` field) with a ``CreateTaskResult`` at once and runs on. The client polls
``tasks/get`` (every ``pollInterval``) for its status, then fetches the call's result with
``tasks/result``; a call cancelled or past its deadline sends ``tasks/cancel``. Status
messages and the server's progress notifications go to the call's progress sink, the same
events a plain call emits, so every UI shows a task like any call.

The SDK's session checks each result against the negotiated version's schema, which knows
no ``CreateTaskResult`` for ``tools/call``: these requests go through its dispatcher
(stamped as the session stamps them) and are validated here, with the spec's types.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from typing import TYPE_CHECKING, Any

import mcp_types as types

from workbench.core.sanitize import clean

if TYPE_CHECKING:
    from mcp import Client
    from mcp.shared.dispatcher import CallOptions, ProgressFnT

    from workbench.core.runtime import ProgressSink
    from workbench.sources.mcp_conversation import McpConversation

TASK_TTL_MS = 15 * 60 * 1000
"""How long the server should keep the task: as long as the longest call may last."""
MIN_POLL_S = 0.05
MAX_POLL_S = 5.0
DEFAULT_POLL_S = 1.0
CANCEL_TIMEOUT_S = 2.0
"""How long a cancelled call waits for ``tasks/cancel`` to be answered before it ends."""
REQUEST_TIMEOUT_S = 60.0
"""For one ``tasks/get`` or ``tasks/cancel``; ``tasks/result`` waits for the call's deadline."""
TERMINAL = ("completed", "failed", "cancelled")
_call_ids = itertools.count(1)


class TaskFailed(Exception):
    """The server ended the task without a result (``failed`` or ``cancelled``)."""

    def __init__(self, task: types.Task) -> None:
        why = f": {clean(task.status_message)[:300]}" if task.status_message else ""
        super().__init__(f"the task {clean(task.task_id)[:80]} ended {task.status}{why}")
        self.task = task


def runs_as_task(tool: types.Tool, protocol_version: str) -> bool:
    """Whether a call to ``tool`` must be task-augmented on this connection."""
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    execution = tool.execution
    required = execution is not None and execution.task_support == "required"
    # 2026-07-28 moved tasks into an extension the SDK speaks itself.
    return required and protocol_version not in MODERN_PROTOCOL_VERSIONS


async def _send(
    client: Client,
    method: str,
    params: dict[str, Any],
    *,
    timeout_s: float,
    on_progress: ProgressFnT | None = None,
    request_id: str | None = None,
) -> dict[str, Any]:
    """One request, stamped as the session stamps its own, its raw result returned."""
    session = client.session
    data: dict[str, Any] = {"method": method, "params": params}
    opts: CallOptions = {"timeout": timeout_s}
    if request_id is not None:
        opts["request_id"] = request_id
    # Private, as the module docstring says why: the session's own headers and _meta.
    session._stamp(data, opts)
    if on_progress is not None:
        opts["on_progress"] = on_progress
    return await session._dispatcher.send_raw_request(method, data["params"], opts)


async def call_as_task(
    client: Client,
    conversation: McpConversation,
    api: str,
    args: dict[str, Any],
    *,
    progress: ProgressSink,
    on_progress: ProgressFnT,
    result_timeout_s: float,
) -> types.CallToolResult:
    """Run ``api`` as a task and return its result; cancelling this cancels the task."""
    params = {"name": api, "arguments": args, "task": {"ttl": TASK_TTL_MS}}
    # Our own id, which is also the progress token: the server keeps reporting progress on
    # it after tools/call was answered, when only the conversation still hears it.
    token = f"workbench-task-{next(_call_ids)}"
    raw = await _send(
        client,
        "tools/call",
        params,
        timeout_s=REQUEST_TIMEOUT_S,
        on_progress=on_progress,
        request_id=token,
    )
    task = types.CreateTaskResult.model_validate(raw, by_name=False).task
    progress(None, None, _status_line(task))
    conversation.task_progress[token] = progress
    try:
        task = await _poll(client, task, progress)
        if task.status in ("failed", "cancelled"):
            # A failed task may still hold the tool's own error result: ask for it.
            with contextlib.suppress(Exception):
                return await _result(client, task, timeout_s=REQUEST_TIMEOUT_S)
            raise TaskFailed(task)
        return await _result(client, task, timeout_s=result_timeout_s)
    except asyncio.CancelledError:
        await _cancel(client, task.task_id)
        raise
    finally:
        conversation.task_progress.pop(token, None)


async def _poll(client: Client, task: types.Task, progress: ProgressSink) -> types.Task:
    """``tasks/get`` every ``pollInterval`` until the task ends or needs input."""
    shown = _status_line(task)
    while task.status not in (*TERMINAL, "input_required"):
        interval = (task.poll_interval or DEFAULT_POLL_S * 1000) / 1000
        await asyncio.sleep(min(max(interval, MIN_POLL_S), MAX_POLL_S))
        raw = await _send(
            client, "tasks/get", {"taskId": task.task_id}, timeout_s=REQUEST_TIMEOUT_S
        )
        task = types.GetTaskResult.model_validate(raw, by_name=False)
        line = _status_line(task)
        if line != shown:
            progress(None, None, line)
            shown = line
    return task


async def _result(client: Client, task: types.Task, *, timeout_s: float) -> types.CallToolResult:
    """``tasks/result``: it waits while the task needs input (the server asks meanwhile)."""
    raw = await _send(client, "tasks/result", {"taskId": task.task_id}, timeout_s=timeout_s)
    return types.CallToolResult.model_validate(raw, by_name=False)


async def _cancel(client: Client, task_id: str) -> None:
    """``tasks/cancel``, bounded: a server that does not answer does not hold the call up."""
    work = _send(client, "tasks/cancel", {"taskId": task_id}, timeout_s=CANCEL_TIMEOUT_S)
    with contextlib.suppress(Exception):
        await asyncio.wait_for(asyncio.shield(asyncio.ensure_future(work)), CANCEL_TIMEOUT_S)


def _status_line(task: types.Task) -> str:
    message = f": {clean(task.status_message)[:200]}" if task.status_message else ""
    return f"task {task.status}{message}"
