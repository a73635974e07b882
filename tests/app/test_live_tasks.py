"""A task-augmented tool in the live TUI: its status shows as the call's progress, and escape
cancels the task on the server (``tasks/cancel``), like any call."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.app.test_live_screen import SIZE, pick, ready, wait_for
from tests.sources.helpers import SERVERS
from workbench.app.app import WorkbenchApp
from workbench.config import WorkbenchConfig
from workbench.core.call_state import Phase
from workbench.session import LiveOptions, build_session
from workbench.sources.mcp_source import McpServerSpec, McpSource


async def test_a_task_call_shows_its_status_and_escape_cancels_the_task(tmp_path: Path) -> None:
    log = tmp_path / "sent.log"
    config = WorkbenchConfig(root=tmp_path, fixture_dirs=(), include_bundled=False)
    session = build_session(LiveOptions(include_demo=False, workspace=tmp_path), config=config)
    spec = McpServerSpec(
        name="tasks",
        command=sys.executable,
        args=[str(SERVERS / "tasks.py"), "--log", str(log)],
    )
    session.manager.add(McpSource(spec))
    app = WorkbenchApp(live_session=session, animate=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pick(pilot, screen, "tasks", "tasks", "research")
        screen.start_call({"topic": "owls", "steps": 300, "step_s": 0.1})

        def polled() -> bool:
            return log.exists() and "tasks/get task-1" in log.read_text()

        await wait_for(pilot, polled, timeout=60)
        state = screen.state
        assert state is not None and state.progress is not None  # Status or progress shows.
        await pilot.press("escape")
        await wait_for(pilot, lambda: screen.current_call is None, timeout=60)
        state = screen.state
        assert state is not None and state.phase is Phase.CANCELLED
        await wait_for(pilot, lambda: "tasks/cancel task-1" in log.read_text(), timeout=30)
        assert "tasks/result task-1" not in log.read_text()
