"""call_once: start the sources, resolve, validate, run one call to its state, stop everything."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from tests.sources.helpers import MISBEHAVING
from workbench.core import events as ev
from workbench.core.call_record import CallRecord
from workbench.session import LiveOptions, LiveSession, build_session
from workbench.sources.base import SourceState
from workbench.sources.headless import UsageProblem, call_once
from workbench.sources.mcp_source import McpSource


@pytest.fixture(autouse=True)
def in_tmp(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)


async def call_in(session: LiveSession, name: str, args: dict[str, Any]) -> CallRecord:
    return await call_once(session, name, args)


async def test_a_successful_call_folds_into_a_done_state(tmp_path: Path) -> None:
    session = build_session(LiveOptions(approval="headless", workspace=tmp_path))
    outcome = await call_once(session, "calculator.calculate", {"expression": "6 * 7"})
    assert (outcome.tool, outcome.api) == ("calculator", "calculate")
    assert outcome.state.phase.value == "done"
    assert outcome.state.result is not None and outcome.state.result.content == "6 * 7 = 42"
    assert isinstance(outcome.events[-1], ev.Completed)
    assert (
        outcome.state.timings.started_ms is not None and outcome.state.timings.ended_ms is not None
    )


async def test_unknown_names_and_bad_args_are_usage_problems(tmp_path: Path) -> None:
    session = build_session(LiveOptions(mcp=[str(tmp_path / "no-server")], workspace=tmp_path))
    with pytest.raises(UsageProblem) as raised:
        await call_once(session, "nothing.here", {})
    message = str(raised.value)
    assert message.startswith("no tool API 'nothing.here' (available: calculator.calculate")
    assert message.endswith(
        f"(sources that failed to start: mcp: command not found: {tmp_path / 'no-server'})"
    )
    with pytest.raises(
        UsageProblem,
        match=r"arguments do not match calculator.calculate's schema: expression: "
        r"7 is not of type 'string'",
    ):
        await call_in(
            build_session(LiveOptions(workspace=tmp_path)),
            "calculator.calculate",
            {"expression": 7},
        )


async def test_headless_blocks_what_needs_approval_and_auto_run_runs_it(tmp_path: Path) -> None:
    blocked = await call_in(
        build_session(LiveOptions(include_demo=True, approval="headless", workspace=tmp_path)),
        "demo.delete_file",
        {"path": "notes.txt"},
    )
    assert blocked.state.phase.value == "blocked"
    assert (
        blocked.state.result is not None
        and blocked.state.result.error is not None
        and blocked.state.result.error.type == "BlockedByPolicy"
    )
    ran = await call_in(
        build_session(LiveOptions(include_demo=True, approval="auto-run", workspace=tmp_path)),
        "demo.delete_file",
        {"path": "notes.txt"},
    )
    assert ran.state.phase.value == "done"
    assert (
        ran.state.result is not None and ran.state.result.content == "pretended to delete notes.txt"
    )


async def test_the_sessions_timeout_applies_and_every_source_is_stopped_after(
    tmp_path: Path,
) -> None:
    # --timeout lives in the session: the headless call takes its deadline from there, as the
    # live screen does, with nothing for the caller to pass along.
    session = build_session(
        LiveOptions(
            mcp=[f"{sys.executable} {MISBEHAVING}"],
            include_bundled=False,
            workspace=tmp_path,
            timeout_s=1.0,
        )
    )
    outcome = await call_once(session, "misbehaving-server.hang", {})
    assert outcome.state.phase.value == "timed-out"
    assert outcome.state.result is not None and "(limit 1 s)" in outcome.state.result.content
    [source] = session.manager.sources
    assert isinstance(source, McpSource)
    assert source.status.state is SourceState.STOPPED
    assert all(process.returncode is not None for process in source._processes)
