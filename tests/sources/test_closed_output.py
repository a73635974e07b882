"""A stdio server that closes its stdout and keeps running ends the call at once, with a result
that says so, at the handshake and mid-call; and it is ended, with whatever it started.

Before, the group leader between Workbench and the server kept its own copy of the server's
stdout, so the pipe never reached end-of-file: the call waited for its deadline.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from tests.sources.helpers import faulty_spec, run_call
from tests.sources.test_process_groups import assert_all_gone, pids_from
from workbench.core.result import ErrorType
from workbench.sources.base import SourceState
from workbench.sources.mcp_source import McpSource

DEADLINE_S = 120.0
"""The handshake timeout and call limit these tests set: what the server would be waited for."""
BOUND_S = 20.0
"""A closed stdout is noticed in well under a second; this only has to be far below the
deadline, whatever the load."""


async def test_a_closed_stdout_at_the_handshake_fails_the_start_at_once(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    source = McpSource(
        faulty_spec("--close-stdout-at-start", "--grandchild", "plain", "--pidfile", str(pidfile)),
        handshake_timeout_s=DEADLINE_S,
    )
    started = time.monotonic()
    try:
        await asyncio.wait_for(source.start(), timeout=BOUND_S)
        # The server, its grandchild and the group leader (ended already: read, not asked).
        pids = [int(item) for item in pidfile.read_text().split()]
        pids += [process.pid for process in source._processes]
        assert source.status.state is SourceState.FAILED, source.status
        assert "closed its output (stdout)" in source.status.detail, source.status.detail
        assert "before the handshake" in source.status.detail
        assert time.monotonic() - started < BOUND_S
        # Ended without being stopped: nothing it does can reach us.
        assert_all_gone(pids)
    finally:
        await source.stop()


async def test_a_closed_stdout_mid_call_ends_the_call_at_once(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    source = McpSource(faulty_spec("--grandchild", "plain", "--pidfile", str(pidfile)))
    await source.start()
    try:
        assert source.status.state is SourceState.READY, source.status
        pids = pids_from(pidfile)
        run = await asyncio.wait_for(
            run_call(
                source,
                "faulty",
                "hang",
                {"close_stdout": True},
                timeout_ms=int(DEADLINE_S * 1000),
            ),
            timeout=BOUND_S,
        )
        error = run.result.error
        assert error is not None and error.type == ErrorType.CONNECTION_CLOSED, run.result
        assert "closed its output (stdout) and kept running" in error.message, error.message
        assert "while hang was running" in error.message
        assert run.seconds < BOUND_S
        assert source.status.state is SourceState.FAILED
        assert_all_gone(pids)
    finally:
        await source.stop()
