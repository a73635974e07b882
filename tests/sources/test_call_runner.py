"""LiveCall: the event stream of one live call, deadlines, cancel, approval, and exactly one
terminal event."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import anyio
import pytest
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

from tests.sources.helpers import LOAD_SLACK_S, make_call, run_call
from workbench.core import events as ev
from workbench.core.manifest import ToolApi, ToolManifest, ToolMeta
from workbench.core.result import ErrorType, ToolResult, to_result
from workbench.core.runtime import BaseRuntime, CallContext, ToolTimedOut
from workbench.policy.engine import PolicyContext, check_approval
from workbench.policy.verdict import ApprovalDecision, ApprovalGate
from workbench.sources import call_runner
from workbench.sources.base import SourceState, SourceStatus, ToolSource
from workbench.sources.demo_server import build_server
from workbench.sources.mcp_source import McpServerSpec, McpSource
from workbench.sources.python_source import PythonToolSource
from workbench.tools.package import ToolPackage

BOUND_S = 15.0


async def started(spec: McpServerSpec) -> McpSource:
    source = McpSource(spec)
    await source.start()
    assert source.status.state is SourceState.READY, source.status
    return source


@pytest.fixture
async def demo() -> AsyncIterator[McpSource]:
    # legacy: in-memory JSON-RPC streams, so deadlines and cancels behave as over a wire.
    source = await started(McpServerSpec(name="demo", server=build_server(), mode="legacy"))
    yield source
    await source.stop()


# --- the event stream -----------------------------------------------------------------------------


async def test_a_call_streams_args_then_starts_reports_progress_and_completes(
    demo: McpSource,
) -> None:
    args = {"steps": 3, "delay": 0.01}
    run = await run_call(demo, "demo", "count_down", args)
    names = run.names
    first_non_delta = names.index("ArgsComplete")
    assert first_non_delta >= 1 and set(names[:first_non_delta]) == {"ArgsDelta"}
    assert names[first_non_delta:] == [
        "ArgsComplete",
        "Started",
        "Progress",
        "Progress",
        "Progress",
        "Completed",
    ]
    raw = json.dumps(args)
    assert "".join(event.text for event in run.events if isinstance(event, ev.ArgsDelta)) == raw
    complete = run.events[first_non_delta]
    assert isinstance(complete, ev.ArgsComplete) and complete.args == args and complete.raw == raw
    progress = [
        (event.progress, event.total, event.message)
        for event in run.events
        if isinstance(event, ev.Progress)
    ]
    assert progress == [(1, 3, "step 1 of 3"), (2, 3, "step 2 of 3"), (3, 3, "step 3 of 3")]
    stamps = [event.at_ms for event in run.events]
    assert stamps == sorted(stamps)
    assert isinstance(run.terminal, ev.Completed) and run.result.content == "counted down 3 steps"
    assert run.call.result is run.result
    state = run.state()
    assert state.phase.value == "done" and state.args == args and state.ignored_events == 0


async def test_a_tool_error_is_a_completed_call_with_a_failed_result(demo: McpSource) -> None:
    run = await run_call(demo, "demo", "fail", {"reason": "nope"})
    assert isinstance(run.terminal, ev.Completed)
    assert (
        run.result.success is False
        and run.result.error is not None
        and run.result.error.type == "McpToolError"
    )
    assert run.state().phase.value == "failed"


# --- deadlines -----------------------------------------------------------------------------------


async def test_a_timeout_is_one_timed_out_event_saying_what_was_pending(demo: McpSource) -> None:
    run = await asyncio.wait_for(
        run_call(demo, "demo", "count_down", {"steps": 3, "delay": 5}, timeout_ms=400),
        timeout=BOUND_S,
    )
    assert len(run.terminals) == 1 and isinstance(run.terminal, ev.TimedOut)
    assert run.result.error is not None and run.result.error.type == ErrorType.TIMEOUT
    assert "demo.count_down timed out after" in run.result.content
    assert "(limit 0.4 s)" in run.result.content
    assert "the tool was still running (last progress: step 1 of 3)" in run.result.content
    assert run.result.state == {
        "timeout_ms": 400,
        "pending": "the tool was still running (last progress: step 1 of 3)",
    }
    assert run.seconds < 3
    assert run.state().phase.value == "timed-out"


async def test_a_timeout_with_nothing_yet_says_so(demo: McpSource) -> None:
    run = await asyncio.wait_for(
        run_call(demo, "demo", "sleep", {"seconds": 30}, timeout_ms=300), timeout=BOUND_S
    )
    assert isinstance(run.terminal, ev.TimedOut)
    assert run.result.content.endswith("; no result or output had arrived yet.")
    # The session survives: the next call works.
    assert (await run_call(demo, "demo", "echo", {"text": "after"})).result.content == "after"


async def test_cancel_ends_the_call_with_cancelled(demo: McpSource) -> None:
    call, events = make_call(demo, "demo", "sleep", {"seconds": 30})
    task = asyncio.create_task(call.run())
    while not any(isinstance(event, ev.Started) for event in events):
        await asyncio.sleep(0.01)
    call.cancel("changed my mind")
    result = await asyncio.wait_for(task, timeout=BOUND_S)
    assert [type(event).__name__ for event in events if isinstance(event, ev.Terminal)] == [
        "Cancelled"
    ]
    assert result.error is not None and result.error.type == ErrorType.CANCELLED
    assert (
        result.content
        == "demo.sleep was cancelled (changed my mind); no result or output had arrived yet."
    )


async def test_cancelling_the_running_task_still_emits_one_cancelled_event(demo: McpSource) -> None:
    call, events = make_call(demo, "demo", "sleep", {"seconds": 30})
    task = asyncio.create_task(call.run())
    while not any(isinstance(event, ev.Started) for event in events):
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert [type(event).__name__ for event in events if isinstance(event, ev.Terminal)] == [
        "Cancelled"
    ]
    assert (
        call.result is not None
        and call.result.content == "The call was cancelled: no result or output had arrived yet."
    )


async def test_cancel_during_the_args_stream_never_runs_the_tool(demo: McpSource) -> None:
    events: list[ev.CallEvent] = []
    call = call_runner.LiveCall(
        demo,
        demo.get_tool("demo"),
        "demo",
        "echo",
        {"text": "x" * 200},
        on_event=events.append,
        timeout_ms=5_000,
        args_chunk_delay_s=0.01,
    )
    task = asyncio.create_task(call.run())
    await asyncio.sleep(0.03)
    call.cancel("stop typing")
    result = await asyncio.wait_for(task, timeout=BOUND_S)
    assert "Started" not in [type(event).__name__ for event in events]
    assert isinstance(events[-1], ev.Cancelled)
    assert result.content == "Cancelled before it ran: stop typing."


@dataclass
class Witness:
    """What an in-process server's handler saw; set from inside the server."""

    entered: anyio.Event = field(default_factory=anyio.Event)
    interrupted: anyio.Event = field(default_factory=anyio.Event)
    finished: bool = False


def interruptible_server(witness: Witness) -> MCPServer:
    server = MCPServer("interruptible", log_level="WARNING")

    @server.tool(structured_output=False)
    async def wait_forever() -> str:
        witness.entered.set()
        try:
            await anyio.sleep(3600)
        except anyio.get_cancelled_exc_class():
            witness.interrupted.set()
            raise
        witness.finished = True
        return "never"

    del wait_forever
    return server


async def test_a_timeout_really_interrupts_the_server_side_handler() -> None:
    witness = Witness()
    source = await started(
        McpServerSpec(name="srv", server=interruptible_server(witness), mode="legacy")
    )
    try:
        run = await asyncio.wait_for(
            run_call(source, "srv", "wait_forever", {}, timeout_ms=300), timeout=BOUND_S
        )
        assert isinstance(run.terminal, ev.TimedOut)
        assert witness.entered.is_set()
        with anyio.fail_after(5):
            await witness.interrupted.wait()
        assert witness.finished is False
    finally:
        await source.stop()


async def test_a_cancel_really_interrupts_the_server_side_handler() -> None:
    witness = Witness()
    source = await started(
        McpServerSpec(name="srv", server=interruptible_server(witness), mode="legacy")
    )
    try:
        call, events = make_call(source, "srv", "wait_forever", {}, timeout_ms=60_000)
        task = asyncio.create_task(call.run())
        with anyio.fail_after(5):
            await witness.entered.wait()
        call.cancel()
        await asyncio.wait_for(task, timeout=BOUND_S)
        assert isinstance(events[-1], ev.Cancelled)
        with anyio.fail_after(5):
            await witness.interrupted.wait()
    finally:
        await source.stop()


async def test_the_timeout_is_a_hard_limit_however_much_progress_arrives(
    demo: McpSource,
) -> None:
    # 5 reports 0.15 s apart: 0.75 s in all, longer than the 0.4 s limit, which holds: the call
    # ends timed out before its last report (it would have completed after it). The bounds
    # are what no load can break: never before the limit, and well short of a stuck call.
    run = await asyncio.wait_for(
        run_call(demo, "demo", "count_down", {"steps": 5, "delay": 0.15}, timeout_ms=400),
        timeout=BOUND_S,
    )
    assert isinstance(run.terminal, ev.TimedOut), run.result
    assert run.names.count("Progress") < 5, run.names
    assert 0.35 < run.seconds < 0.4 + LOAD_SLACK_S, run.seconds
    assert re.search(r"timed out after \d+\.\d s \(limit 0\.4 s\)", run.result.content)


async def test_progress_extends_the_deadline_when_asked_to(demo: McpSource) -> None:
    run = await asyncio.wait_for(
        run_call(
            demo,
            "demo",
            "count_down",
            {"steps": 5, "delay": 0.15},
            timeout_ms=400,
            extend_on_progress_max_ms=5_000,
        ),
        timeout=BOUND_S,
    )
    assert isinstance(run.terminal, ev.Completed), run.result
    assert run.seconds > 0.6


async def test_progress_never_extends_past_its_own_maximum(demo: McpSource) -> None:
    run = await asyncio.wait_for(
        run_call(
            demo,
            "demo",
            "count_down",
            {"steps": 100, "delay": 0.05},
            timeout_ms=400,
            extend_on_progress_max_ms=1_200,
        ),
        timeout=BOUND_S,
    )
    # Reports 0.05 s apart (8x inside the 0.4 s limit, so a loaded machine still keeps the call
    # alive) would go on for 5 s: the call times out at the 1.2 s maximum, long before that.
    assert isinstance(run.terminal, ev.TimedOut)
    assert 1.1 < run.seconds < 1.2 + LOAD_SLACK_S, run.seconds
    assert "(limit 0.4 s, extended by progress up to 1.2 s)" in run.result.content
    assert "last progress: step" in run.result.content
    assert 8 <= run.names.count("Progress") < 100


# --- Python sources: crashes become one result ----------------------------------------------------


def manifest(identifier: str, *apis: str) -> ToolManifest:
    return ToolManifest(
        identifier=identifier,
        meta=ToolMeta(title=identifier.title()),
        api=[ToolApi(name=name) for name in apis],
        type="python",
    )


class Probe(BaseRuntime):
    api_names = ("shout", "explode", "chatter", "stubborn")

    async def shout(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        return to_result(success=True, content=str(args["text"]).upper())

    async def explode(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        raise ValueError("the probe blew up")

    async def chatter(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        for index in range(3):
            ctx.stdout(f"line {index}\n")
        await asyncio.sleep(3600)
        return to_result(success=True, content="never")

    async def stubborn(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            ctx.stdout("too late\n")  # Ignores the cancel and answers anyway.
        return to_result(success=True, content="late answer")


class RawRuntime(BaseRuntime):
    """A runtime that bypasses the result funnel, so its exceptions escape the source."""

    api_names = ("go",)

    async def invoke(
        self, api: str, args: dict[str, Any], ctx: CallContext | None = None
    ) -> ToolResult:
        raise RuntimeError(f"raw failure in {api}")


@pytest.fixture
async def python_source() -> AsyncIterator[PythonToolSource]:
    packages = [
        ToolPackage(
            manifest=manifest("probe", *Probe.api_names), create_runtime=lambda services: Probe()
        ),
        ToolPackage(manifest=manifest("raw", "go"), create_runtime=lambda services: RawRuntime()),
    ]
    source = PythonToolSource("python", packages)
    await source.start()
    yield source
    await source.stop()


async def test_python_tool_call_completes(python_source: PythonToolSource) -> None:
    run = await run_call(python_source, "probe", "shout", {"text": "hey"})
    assert run.names[-3:] == ["ArgsComplete", "Started", "Completed"]
    assert run.result.content == "HEY"


async def test_an_exception_in_a_runtime_method_is_one_tool_crashed_result(
    python_source: PythonToolSource,
) -> None:
    run = await run_call(python_source, "probe", "explode", {})
    assert len(run.terminals) == 1
    assert run.result.success is False
    assert run.result.error is not None and run.result.error.type == ErrorType.TOOL_CRASHED
    assert "ValueError: the probe blew up" in run.result.content


async def test_an_exception_escaping_a_python_source_is_one_failed_event(
    python_source: PythonToolSource,
) -> None:
    run = await run_call(python_source, "raw", "go", {})
    assert len(run.terminals) == 1 and isinstance(run.terminal, ev.Failed)
    assert run.result.error is not None and run.result.error.type == ErrorType.TOOL_CRASHED
    assert run.result.content == "raw.go crashed: RuntimeError: raw failure in go"
    assert run.state().phase.value == "failed"


async def test_output_lines_are_events_and_a_timeout_counts_them(
    python_source: PythonToolSource,
) -> None:
    run = await asyncio.wait_for(
        run_call(python_source, "probe", "chatter", {}, timeout_ms=300), timeout=BOUND_S
    )
    chunks = [event for event in run.events if isinstance(event, ev.OutputChunk)]
    assert [(chunk.text, chunk.stream) for chunk in chunks] == [
        (f"line {index}\n", "stdout") for index in range(3)
    ]
    assert isinstance(run.terminal, ev.TimedOut)
    assert "the tool was still running after 3 output lines" in run.result.content


async def test_nothing_is_emitted_after_the_terminal_event(python_source: PythonToolSource) -> None:
    run = await asyncio.wait_for(
        run_call(python_source, "probe", "stubborn", {}, timeout_ms=200), timeout=BOUND_S
    )
    assert isinstance(run.events[-1], ev.TimedOut)
    assert len(run.terminals) == 1
    count = len(run.events)
    await asyncio.sleep(0.1)
    assert len(run.events) == count
    assert run.result.content != "late answer"


class Oddball(ToolSource):
    """A source that misbehaves in the ways the runner must absorb."""

    def __init__(self) -> None:
        super().__init__("odd")

    async def start(self) -> None:
        self.status = SourceStatus(SourceState.READY)

    async def stop(self) -> None:
        self.status = SourceStatus(SourceState.STOPPED)

    def list_tools(self) -> list[ToolManifest]:
        return [manifest("odd", "backstop", "not_a_result", "self_cancel")]

    async def invoke(
        self, tool: str, api: str, args: dict[str, Any], ctx: CallContext
    ) -> ToolResult:
        if api == "backstop":
            ctx.progress(1, 4, "warming up")
            raise ToolTimedOut("Request 'tools/call' timed out")
        if api == "self_cancel":
            raise asyncio.CancelledError()
        return "a string"  # type: ignore[return-value]


async def test_a_source_side_timeout_is_a_timed_out_event() -> None:
    run = await run_call(Oddball(), "odd", "backstop", {})
    assert isinstance(run.terminal, ev.TimedOut)
    assert (
        run.result.content == "odd.backstop timed out (Request 'tools/call' timed out); the tool "
        "was still running (last progress: warming up)."
    )


async def test_a_non_result_is_a_protocol_error_and_a_source_cancel_is_cancelled() -> None:
    bad = await run_call(Oddball(), "odd", "not_a_result", {})
    assert isinstance(bad.terminal, ev.Failed)
    assert bad.result.error is not None and bad.result.error.type == ErrorType.PROTOCOL_ERROR
    assert bad.result.content == "odd.not_a_result returned str, not a result"
    cancelled = await run_call(Oddball(), "odd", "self_cancel", {})
    assert isinstance(cancelled.terminal, ev.Cancelled)
    assert cancelled.result.content == "odd.self_cancel was cancelled by its source."


# --- approval ------------------------------------------------------------------------------------


@dataclass
class Removals:
    paths: list[str] = field(default_factory=list)


def destructive_server(removals: Removals) -> MCPServer:
    server = MCPServer("files", log_level="WARNING")

    @server.tool(annotations=ToolAnnotations(destructive_hint=True), structured_output=False)
    def remove(path: str) -> str:
        removals.paths.append(path)
        return f"removed {path}"

    del remove
    return server


@pytest.fixture
async def files() -> AsyncIterator[tuple[McpSource, Removals]]:
    removals = Removals()
    source = await started(McpServerSpec(name="files", server=destructive_server(removals)))
    yield source, removals
    await source.stop()


def gate(
    decision: ApprovalDecision, seen: list[ev.ApprovalRequested] | None = None
) -> ApprovalGate:
    async def decide(request: ev.ApprovalRequested) -> ApprovalDecision:
        if seen is not None:
            seen.append(request)
        return decision

    return decide


async def test_headless_mode_blocks_a_destructive_call_without_running_it(
    files: tuple[McpSource, Removals],
) -> None:
    source, removals = files
    tool = source.list_tools()[0]
    check = check_approval(tool, "remove", {"path": "/etc/passwd"}, PolicyContext(mode="headless"))
    assert check.needed and check.blocked
    run = await run_call(source, "files", "remove", {"path": "/etc/passwd"}, approval=check)
    assert isinstance(run.terminal, ev.Blocked)
    assert "Started" not in run.names and "ApprovalRequested" not in run.names
    assert run.result.error is not None and run.result.error.type == ErrorType.BLOCKED
    assert (
        run.result.content
        == "Blocked by policy: files.remove needs approval (this action asks before it runs) "
        "and no one can approve in headless mode."
    )
    assert removals.paths == []
    assert run.state().phase.value == "blocked"


async def test_a_skip_at_the_gate_is_skipped_with_the_reason(
    files: tuple[McpSource, Removals],
) -> None:
    source, removals = files
    check = check_approval(
        source.list_tools()[0], "remove", {"path": "a.txt"}, PolicyContext(mode="manual")
    )
    seen: list[ev.ApprovalRequested] = []
    run = await run_call(
        source,
        "files",
        "remove",
        {"path": "a.txt"},
        approval=check,
        approval_gate=gate(ApprovalDecision("skip", reason="not today"), seen),
    )
    assert [request.reason for request in seen] == ["this action asks before it runs"]
    assert run.names[-2:] == ["ApprovalRequested", "Skipped"]
    terminal = run.terminal
    assert isinstance(terminal, ev.Skipped) and terminal.reason == "not today"
    assert run.result.content == "The user skipped files.remove: not today"
    assert run.result.state == {"reason": "not today"}
    assert removals.paths == []


async def test_approving_edited_args_runs_the_tool_with_the_edits(
    files: tuple[McpSource, Removals],
) -> None:
    source, removals = files
    check = check_approval(
        source.list_tools()[0], "remove", {"path": "/important"}, PolicyContext(mode="manual")
    )
    run = await run_call(
        source,
        "files",
        "remove",
        {"path": "/important"},
        approval=check,
        approval_gate=gate(ApprovalDecision("approve", args={"path": "/tmp/scratch"})),
    )
    assert run.names[-4:] == ["ApprovalRequested", "Approved", "Started", "Completed"]
    approved = next(event for event in run.events if isinstance(event, ev.Approved))
    assert approved.args == {"path": "/tmp/scratch"}
    assert removals.paths == ["/tmp/scratch"]
    assert run.result.content == "removed /tmp/scratch"
    assert run.call.args == {"path": "/tmp/scratch"}


async def test_a_cancel_at_the_gate_or_while_waiting_never_runs_the_tool(
    files: tuple[McpSource, Removals],
) -> None:
    source, removals = files
    check = check_approval(
        source.list_tools()[0], "remove", {"path": "x"}, PolicyContext(mode="manual")
    )
    declined = await run_call(
        source,
        "files",
        "remove",
        {"path": "x"},
        approval=check,
        approval_gate=gate(ApprovalDecision("cancel")),
    )
    assert (
        isinstance(declined.terminal, ev.Cancelled)
        and declined.result.content == "The user cancelled files.remove before it ran."
    )

    never = asyncio.Event()

    async def slow_gate(request: ev.ApprovalRequested) -> ApprovalDecision:
        await never.wait()
        return ApprovalDecision("approve")

    call, events = make_call(
        source, "files", "remove", {"path": "x"}, approval=check, approval_gate=slow_gate
    )
    task = asyncio.create_task(call.run())
    while not any(isinstance(event, ev.ApprovalRequested) for event in events):
        await asyncio.sleep(0.01)
    call.cancel("walked away")
    result = await asyncio.wait_for(task, timeout=BOUND_S)
    assert isinstance(events[-1], ev.Cancelled)
    assert result.content == "Cancelled while waiting for approval: walked away."
    assert removals.paths == []


async def test_approval_needed_without_a_gate_is_blocked(files: tuple[McpSource, Removals]) -> None:
    source, removals = files
    check = check_approval(
        source.list_tools()[0], "remove", {"path": "x"}, PolicyContext(mode="manual")
    )
    run = await run_call(source, "files", "remove", {"path": "x"}, approval=check)
    assert isinstance(run.terminal, ev.Blocked)
    assert (
        run.result.content == "files.remove needs approval (this action asks before it runs) "
        "but nothing can ask for it."
    )
    assert removals.paths == []


async def test_auto_run_lets_a_required_call_through(files: tuple[McpSource, Removals]) -> None:
    source, removals = files
    check = check_approval(
        source.list_tools()[0], "remove", {"path": "y"}, PolicyContext(mode="auto-run")
    )
    run = await run_call(source, "files", "remove", {"path": "y"}, approval=check)
    assert isinstance(run.terminal, ev.Completed) and "ApprovalRequested" not in run.names
    assert removals.paths == ["y"]
