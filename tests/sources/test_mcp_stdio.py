"""McpSource over a real stdio subprocess that misbehaves: crashes, hangs, garbage, early exits,
huge output."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.sources.helpers import (
    LOAD_SLACK_S,
    make_call,
    misbehaving_spec,
    pid_gone,
    run_call,
    server_pid,
)
from workbench.core import events as ev
from workbench.core.result import ErrorType
from workbench.core.runtime import CallContext
from workbench.sources.base import SourceState
from workbench.sources.mcp_results import MAX_CONTENT_CHARS
from workbench.sources.mcp_source import McpServerSpec, McpSource

# One event loop for the module, so one server process can serve the tests that leave it usable.
pytestmark = pytest.mark.asyncio(loop_scope="module")

BOUND_S = 20.0
"""No stdio test may take longer than this, whatever the server does."""


async def started(spec: McpServerSpec, *, handshake_timeout_s: float = 15.0) -> McpSource:
    source = McpSource(spec, handshake_timeout_s=handshake_timeout_s)
    await asyncio.wait_for(source.start(), timeout=BOUND_S)
    return source


@pytest.fixture(scope="module")
def marker_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("markers")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared(marker_dir: Path) -> AsyncIterator[McpSource]:
    """One server for the tests that leave it usable (timeouts and cancels included)."""
    source = await started(misbehaving_spec("--marker", str(marker_dir / "interrupted.txt")))
    assert source.status.state is SourceState.READY, source.status
    yield source
    await asyncio.wait_for(source.stop(), timeout=BOUND_S)


@pytest_asyncio.fixture(loop_scope="module")
async def bad(shared: McpSource, marker_dir: Path) -> AsyncIterator[McpSource]:
    (marker_dir / "interrupted.txt").unlink(missing_ok=True)
    assert shared.status.state is SourceState.READY, shared.status
    yield shared


@pytest_asyncio.fixture(loop_scope="module")
async def crashable() -> AsyncIterator[McpSource]:
    """A server of its own, for the tests that kill it."""
    source = await started(misbehaving_spec())
    assert source.status.state is SourceState.READY, source.status
    yield source
    await asyncio.wait_for(source.stop(), timeout=BOUND_S)


async def test_a_normal_call_over_stdio(bad: McpSource) -> None:
    assert bad.server_name == "Misbehaving Server"
    assert bad.status.detail == "6 tools over stdio"
    assert set(bad.list_tools()[0].api_names()) == {
        "ok",
        "getenv",
        "crash_mid_call",
        "hang",
        "huge",
        "slow_progress",
    }
    result = await asyncio.wait_for(
        bad.invoke("bad", "ok", {"text": "over a pipe"}, CallContext()), timeout=BOUND_S
    )
    assert result.success is True and result.content == "ok: over a pipe"


@pytest.mark.parametrize(("inherit", "parent_seen"), [(None, False), (True, True)])
async def test_the_spec_environment_reaches_the_server_and_ours_only_when_asked(
    monkeypatch: pytest.MonkeyPatch, inherit: bool | None, parent_seen: bool
) -> None:
    monkeypatch.setenv("WORKBENCH_TEST_INHERITED", "from-parent")
    source = await started(
        McpServerSpec(
            name="env",
            command=sys.executable,
            args=[str(misbehaving_spec().args[0])],
            env={"WORKBENCH_TEST_OWN": "from-spec"},
            inherit_env=inherit,
        )
    )
    try:
        own = await source.invoke("env", "getenv", {"name": "WORKBENCH_TEST_OWN"}, CallContext())
        inherited = await source.invoke(
            "env", "getenv", {"name": "WORKBENCH_TEST_INHERITED"}, CallContext()
        )
        assert own.content == "from-spec"
        assert (inherited.content == "from-parent") is parent_seen
    finally:
        await source.stop()


@pytest.mark.parametrize("term", [None, "xterm", "() { echo shell function; }"])
async def test_the_default_environment_is_the_sdks(
    monkeypatch: pytest.MonkeyPatch, term: str | None
) -> None:
    """Read without importing the SDK (the server starts first), and still the SDK's own."""
    from mcp.client.stdio import get_default_environment

    from workbench.sources.mcp_connect import default_environment

    if term is None:
        monkeypatch.delenv("TERM", raising=False)
    else:
        monkeypatch.setenv("TERM", term)
    monkeypatch.setenv("LOGNAME", "someone")
    assert default_environment() == get_default_environment()


async def test_a_crash_mid_call_is_a_connection_closed_result_with_the_exit_code(
    crashable: McpSource,
) -> None:
    result = await asyncio.wait_for(
        crashable.invoke("bad", "crash_mid_call", {"after": 0.05}, CallContext()), timeout=BOUND_S
    )
    assert result.success is False
    assert result.error is not None and result.error.type == ErrorType.CONNECTION_CLOSED
    assert "exited with code 7" in result.error.message, result.error.message
    assert (
        result.error.message
        == "bad exited with code 7 while crash_mid_call was running; no result arrived."
    )
    assert crashable.status.state is SourceState.FAILED
    assert "exited with code 7" in crashable.status.detail
    assert crashable.list_tools() == []
    later = await crashable.invoke("bad", "ok", {}, CallContext())
    assert later.error is not None and later.error.type == ErrorType.SOURCE_UNAVAILABLE


async def test_a_crash_through_a_live_call_is_one_completed_failure(crashable: McpSource) -> None:
    run = await asyncio.wait_for(
        run_call(crashable, "bad", "crash_mid_call", {"after": 0.05}), timeout=BOUND_S
    )
    assert isinstance(run.terminal, ev.Completed)
    assert run.result.error is not None and run.result.error.type == ErrorType.CONNECTION_CLOSED
    assert run.state().phase.value == "failed"


async def test_a_server_killed_while_idle_fails_the_next_call(crashable: McpSource) -> None:
    os.kill(server_pid(crashable), signal.SIGKILL)
    result = await asyncio.wait_for(
        crashable.invoke("bad", "ok", {}, CallContext()), timeout=BOUND_S
    )
    assert result.error is not None and result.error.type == ErrorType.CONNECTION_CLOSED
    assert result.content == "bad exited with code -9 while ok was running; no result arrived."
    assert crashable.status.state is SourceState.FAILED


async def test_a_hang_times_out_and_the_server_handler_is_interrupted(
    bad: McpSource, marker_dir: Path
) -> None:
    marker = marker_dir / "interrupted.txt"
    run = await asyncio.wait_for(run_call(bad, "bad", "hang", {}, timeout_ms=600), timeout=BOUND_S)
    assert isinstance(run.terminal, ev.TimedOut)
    assert run.result.error is not None and run.result.error.type == ErrorType.TIMEOUT
    assert (
        "bad.hang timed out after" in run.result.content and "(limit 0.6 s)" in run.result.content
    )
    assert "no result or output had arrived yet" in run.result.content
    assert 0.5 < run.seconds < 5
    # notifications/cancelled reached the server: its handler was cancelled and wrote the marker.
    for _ in range(100):
        if marker.exists():
            break
        await asyncio.sleep(0.05)
    assert marker.read_text().startswith("interrupted at ")
    # The session survives a timed-out call.
    assert bad.status.state is SourceState.READY
    assert (
        await bad.invoke("bad", "ok", {"text": "still here"}, CallContext())
    ).content == "ok: still here"


async def test_cancel_interrupts_the_server_handler_too(bad: McpSource, marker_dir: Path) -> None:
    marker = marker_dir / "interrupted.txt"
    call, events = make_call(bad, "bad", "hang", {}, timeout_ms=30_000)
    task = asyncio.create_task(call.run())
    while not any(isinstance(event, ev.Started) for event in events):
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.2)
    call.cancel("the user pressed escape")
    result = await asyncio.wait_for(task, timeout=BOUND_S)
    assert isinstance(events[-1], ev.Cancelled)
    assert (
        result.content
        == "bad.hang was cancelled (the user pressed escape); no result or output had arrived yet."
    )
    for _ in range(100):
        if marker.exists():
            break
        await asyncio.sleep(0.05)
    assert marker.exists()


async def test_progress_keeps_a_slow_call_alive_when_asked_to(bad: McpSource) -> None:
    # 6 steps 0.25 s apart take 1.5 s; a 0.7 s timeout is longer than every gap between reports.
    run = await asyncio.wait_for(
        run_call(
            bad,
            "bad",
            "slow_progress",
            {"steps": 6, "delay": 0.25},
            timeout_ms=700,
            extend_on_progress_max_ms=10_000,
        ),
        timeout=BOUND_S,
    )
    assert isinstance(run.terminal, ev.Completed), run.result
    assert run.result.content == "finished 6 steps"
    assert run.seconds > 1.2
    progress = [event for event in run.events if isinstance(event, ev.Progress)]
    assert [(event.progress, event.total, event.message) for event in progress] == [
        (index, 6, f"step {index}") for index in range(1, 7)
    ]
    assert run.names[-1] == "Completed" and run.names.index("Started") < run.names.index("Progress")


async def test_progress_gaps_longer_than_the_timeout_still_time_out(bad: McpSource) -> None:
    run = await asyncio.wait_for(
        run_call(
            bad,
            "bad",
            "slow_progress",
            {"steps": 3, "delay": 5.0},
            timeout_ms=500,
            extend_on_progress_max_ms=10_000,
        ),
        timeout=BOUND_S,
    )
    # Step 1 comes at once, step 2 five seconds later: the 0.5 s limit fires in between.
    assert isinstance(run.terminal, ev.TimedOut)
    assert "the tool was still running (last progress: step 1)" in run.result.content
    assert run.names.count("Progress") == 1
    assert run.seconds < 0.5 + LOAD_SLACK_S


async def test_garbage_on_stdout_before_the_handshake_is_survived() -> None:
    source = await started(misbehaving_spec("--garbage-first"))
    try:
        assert source.status.state is SourceState.READY, source.status
        result = await source.invoke("bad", "ok", {"text": "despite garbage"}, CallContext())
        assert result.content == "ok: despite garbage"
    finally:
        await source.stop()


async def test_exit_before_the_handshake_names_the_exit_code_and_stderr() -> None:
    source = await started(misbehaving_spec("--exit-before-handshake", "3"))
    try:
        assert source.status.state is SourceState.FAILED
        assert "exited with code 3" in source.status.detail, source.status.detail
        assert "config file missing" in source.status.detail
        assert source.list_tools() == []
        result = await source.invoke("bad", "ok", {}, CallContext())
        assert result.error is not None and result.error.type == ErrorType.SOURCE_UNAVAILABLE
        assert "exited with code 3" in result.content
    finally:
        await source.stop()


async def test_a_missing_command_is_command_not_found(tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-server")
    source = await started(McpServerSpec(name="ghost", command=missing))
    try:
        assert source.status.state is SourceState.FAILED
        assert source.status.detail == f"command not found: {missing}"
    finally:
        await source.stop()


async def test_a_server_that_never_answers_fails_the_handshake_in_time(tmp_path: Path) -> None:
    silent = tmp_path / "silent.py"
    # Reads the handshake and never answers; leaves only when its stdin closes.
    silent.write_text(
        "import sys\nprint('warming up forever', file=sys.stderr, flush=True)\nsys.stdin.read()\n"
    )
    source = await started(
        McpServerSpec(name="silent", command=sys.executable, args=[str(silent)]),
        handshake_timeout_s=0.8,
    )
    try:
        assert source.status.state is SourceState.FAILED
        assert source.status.detail.startswith(
            f"no handshake from {sys.executable} {silent} within 0.8 s"
        ), source.status.detail
        assert "warming up forever" in source.status.detail
    finally:
        await source.stop()
    assert all(pid_gone(process.pid) for process in source._processes)


async def test_a_huge_result_is_capped_with_a_truncated_note(bad: McpSource) -> None:
    result = await asyncio.wait_for(
        bad.invoke("bad", "huge", {"megabytes": 3}, CallContext()), timeout=BOUND_S
    )
    assert result.success is True
    assert len(result.content) < MAX_CONTENT_CHARS + 200
    assert "truncated" in result.content.splitlines()[-1]
    assert result.content.endswith(
        f"[truncated: showing {MAX_CONTENT_CHARS:,} of 2,999,999 characters]"
    )


async def test_stop_leaves_no_process_and_a_second_stop_is_harmless() -> None:
    source = await started(misbehaving_spec())
    assert source.status.state is SourceState.READY
    [process] = source._processes
    assert process.returncode is None and not pid_gone(process.pid)
    await asyncio.wait_for(source.stop(), timeout=BOUND_S)
    assert source.status.state is SourceState.STOPPED
    assert process.returncode is not None
    assert pid_gone(process.pid)
    await asyncio.wait_for(source.stop(), timeout=BOUND_S)
    assert source.status.state is SourceState.STOPPED


async def test_stop_after_a_crash_reaps_the_dead_server(crashable: McpSource) -> None:
    await crashable.invoke("bad", "crash_mid_call", {"after": 0.01}, CallContext())
    await asyncio.wait_for(crashable.stop(), timeout=BOUND_S)
    assert [process.returncode for process in crashable._processes] == [7]
    assert all(pid_gone(process.pid) for process in crashable._processes)
