"""Task-augmented tool calls (2025-11-25 "tasks") against a real stdio server.

The server (:mod:`tests.sources.servers.tasks`) logs every request it receives, so each test
sees what the workbench sent: ``tools/call`` with a task, ``tasks/get`` polls, ``tasks/result``
and, when the call is cancelled or runs out of time, ``tasks/cancel``.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.sources.helpers import SERVERS
from workbench.core import events as ev
from workbench.core.call_record import CallRecord
from workbench.core.runtime import CallContext
from workbench.session import LiveOptions, build_session
from workbench.sources.headless import call_once
from workbench.sources.mcp_source import McpServerSpec, McpSource

TASKS = SERVERS / "tasks.py"


def task_spec(log: Path) -> McpServerSpec:
    return McpServerSpec(name="tasks", command=sys.executable, args=[str(TASKS), "--log", str(log)])


def sent(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


async def call(
    tmp_path: Path, api: str, args: dict[str, Any], *, timeout_s: float | None = None
) -> CallRecord:
    command = f"{sys.executable} {TASKS} --log {tmp_path / 'sent.log'}"
    session = build_session(
        LiveOptions(mcp=[command], include_bundled=False, workspace=tmp_path, timeout_s=timeout_s)
    )
    return await call_once(session, api, args)


async def test_a_required_task_tool_runs_headless_showing_status_progress_and_result(
    tmp_path: Path,
) -> None:
    outcome = await call(tmp_path, "tasks.research", {"topic": "owls", "steps": 3})
    assert outcome.state.phase.value == "done"
    assert outcome.state.result is not None
    assert outcome.state.result.content == "found 3 sources about owls"
    # The record folds close progress events; a task's status is among them.
    progress = [event for event in outcome.events if isinstance(event, ev.Progress)]
    assert any((event.message or "").startswith("task ") for event in progress)
    log = sent(tmp_path / "sent.log")
    assert "tools/call research" in log
    assert log[-1] == "tasks/result task-1"
    assert "tasks/get task-1" in log


async def test_status_and_the_servers_progress_reach_the_calls_progress_sink(
    tmp_path: Path,
) -> None:
    log = tmp_path / "sent.log"
    source = McpSource(task_spec(log), catalog=False)
    await source.start()
    try:
        seen: list[tuple[float | None, float | None, str | None]] = []
        ctx = CallContext(progress=lambda *report: seen.append(report))
        result = await source.invoke("tasks", "research", {"topic": "owls", "steps": 3}, ctx)
    finally:
        await source.stop()
    assert result.content == "found 3 sources about owls"
    messages = [message for _, _, message in seen if message]
    # Polled, so a busy machine may miss a step; the first and the last status always show.
    assert messages[0].startswith("task working")
    assert messages[-1] == "task completed: step 3 of 3"
    # The server's own progress on the call's token, after tools/call was answered.
    assert [(value, total) for value, total, _ in seen if value] == [
        (1.0, 3.0),
        (2.0, 3.0),
        (3.0, 3.0),
    ]
    assert sent(log)[-1] == "tasks/result task-1"


async def test_an_optional_task_tool_is_called_plainly(tmp_path: Path) -> None:
    outcome = await call(tmp_path, "tasks.lookup", {})
    assert outcome.state.result is not None
    assert outcome.state.result.content == "lookup: found it"
    assert not [line for line in sent(tmp_path / "sent.log") if line.startswith("tasks/")]


async def test_a_failed_task_returns_the_tools_own_error(tmp_path: Path) -> None:
    outcome = await call(tmp_path, "tasks.research", {"steps": 1, "fail": True})
    assert outcome.state.phase.value == "failed"
    result = outcome.state.result
    assert result is not None and result.error is not None
    assert result.error.type == "McpToolError"
    assert "the research failed" in result.error.message


async def test_an_unusable_task_answer_is_a_protocol_error_not_a_crash(tmp_path: Path) -> None:
    outcome = await call(tmp_path, "tasks.research", {"bad_task": True})
    result = outcome.state.result
    assert result is not None and result.error is not None
    assert result.error.type == "ProtocolError"
    assert result.error.message.startswith("tasks answered the task of research unusably: ")


async def test_a_task_past_its_deadline_ends_in_exactly_one_failed_result_and_is_cancelled(
    tmp_path: Path,
) -> None:
    outcome = await call(tmp_path, "tasks.research", {"steps": 200, "step_s": 0.1}, timeout_s=1.0)
    assert outcome.state.phase.value == "timed-out"
    terminals = [event for event in outcome.events if isinstance(event, ev.Terminal)]
    assert len(terminals) == 1 and isinstance(terminals[0], ev.TimedOut)
    assert "tasks/cancel task-1" in sent(tmp_path / "sent.log")
    assert "tasks/result task-1" not in sent(tmp_path / "sent.log")


async def test_cancelling_a_task_call_sends_tasks_cancel(tmp_path: Path) -> None:
    log = tmp_path / "sent.log"
    spec = McpServerSpec(name="tasks", command=sys.executable, args=[str(TASKS), "--log", str(log)])
    source = McpSource(spec, catalog=False)
    await source.start()
    try:
        assert source.task_tools == {"research"}
        assert source.problems == []
        working = asyncio.Event()

        def on_progress(progress: float | None, total: float | None, message: str | None) -> None:
            if message and "step" in message:
                working.set()

        ctx = CallContext(progress=on_progress)
        call = asyncio.ensure_future(
            source.invoke("tasks", "research", {"steps": 200, "step_s": 0.1}, ctx)
        )
        await asyncio.wait_for(working.wait(), 30)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        assert "tasks/cancel task-1" in sent(log)
    finally:
        await source.stop()
