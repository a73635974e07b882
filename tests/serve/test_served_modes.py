"""`workbench serve --live` end to end: the served live TUI, driven over its WebSocket, asks
before a call the policy says needs a human, and auto-run takes a flag plus a confirmation."""

from __future__ import annotations

import sys
from pathlib import Path

import aiohttp
import pytest

from tests.serve.helpers import WebTerminal, processes_after, served

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]

CTRL_S = "\x13"
SERVE = [sys.executable, "-m", "workbench", "serve", "--live", "--no-demo"]


async def call_run_command(terminal: WebTerminal, command: str) -> None:
    """Pick local-system.runCommand in the tree, type ``command``, and call it."""
    await terminal.wait_for("Web Browsing")
    await terminal.pump(1.0)  # the tree takes focus once it is built
    await terminal.move_cursor_to("runCommand")
    await terminal.wait_for("local-system.runCommand  ·", timeout=10)
    await terminal.wait_for("The command line.", timeout=10)  # its form's fields are shown
    # Click the command field (below its description), as a reviewer would: how many tab stops
    # lie between the tree and the form depends on the layout, and keys typed into anything
    # else are lost. The form's own binding in the footer says the field has the focus.
    await terminal.click_below("The command line.")
    await terminal.wait_for("^j Raw JSON", timeout=10)
    await terminal.press(command)
    await terminal.wait_for(command, timeout=10)  # typed into the form, not lost
    await terminal.press(CTRL_S)


async def test_a_served_live_call_asks_the_reviewer_first(tmp_path: Path) -> None:
    marker = tmp_path / "served-marker"
    with served(SERVE, cwd=tmp_path) as server:
        async with aiohttp.ClientSession() as http:
            terminal = await WebTerminal.open(http, server)
            await call_run_command(terminal, f"touch {marker.name}")
            await terminal.wait_for("Approval needed")
            await terminal.pump(1.0)
            assert not marker.exists()  # asked, not run
            await terminal.close()
        assert await processes_after(server.mark, 15, expected=1) == [server.process.pid]


async def test_auto_run_is_served_only_when_confirmed_and_then_runs_unasked(
    tmp_path: Path,
) -> None:
    marker = tmp_path / "served-marker"
    with served([*SERVE, "--approval", "auto-run"], cwd=tmp_path, input="auto-run\n") as server:
        async with aiohttp.ClientSession() as http:
            terminal = await WebTerminal.open(http, server)
            await call_run_command(terminal, f"touch {marker.name}")
            await terminal.wait_for("1 ✓")  # the history row of a finished call
            assert marker.exists()
            assert "Approval needed" not in terminal.screen()
            await terminal.close()
