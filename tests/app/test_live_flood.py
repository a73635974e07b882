"""A server flooding log notifications during a live call: the screen draws per frame, not
per notification, and still ends on the call's exact final state."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp.server.mcpserver import Context, MCPServer
from textual.geometry import Region

from tests.app.test_live_screen import SIZE, pick, ready, wait_for
from workbench.app.app import WorkbenchApp
from workbench.app.widgets.server_log_panel import LINES_KEPT, ServerLogPanel
from workbench.config import WorkbenchConfig
from workbench.core.call_state import Phase
from workbench.rendering.screen import settle
from workbench.session import LiveOptions, build_session
from workbench.sources.mcp_source import McpServerSpec, McpSource
from workbench.surfaces.card import card_renderable

pytestmark = pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")

LINES = 1500


def flood_server() -> MCPServer:
    server = MCPServer("flood")

    @server.tool(description="Send log lines as fast as possible.")
    async def flood(ctx: Context, lines: int = 10) -> str:
        for index in range(lines):
            await ctx.info(f"flood line {index}")
        return f"sent {lines} lines"

    return server


async def test_a_flood_of_notifications_redraws_per_frame_not_per_notification(
    tmp_path: Path,
) -> None:
    config = WorkbenchConfig(root=tmp_path, fixture_dirs=(), include_bundled=False)
    session = build_session(LiveOptions(include_demo=False, workspace=tmp_path), config=config)
    session.manager.add(
        McpSource(McpServerSpec(name="flood", server=flood_server(), mode="legacy"))
    )
    app = WorkbenchApp(live_session=session, animate=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pick(pilot, screen, "flood", "flood", "flood")
        card = screen.call_view.card
        composed_before = card.compositions
        screen.start_call({"lines": LINES})
        await wait_for(pilot, lambda: screen.current_call is None, timeout=60)
        await settle(pilot)
        state = screen.state
        assert state is not None and state.phase is Phase.DONE and state.result is not None
        assert state.result.content == f"sent {LINES} lines"
        assert state.server_messages.total == LINES
        # One composition per drawn frame (plus the call's start and end), however many of the
        # 1500 notifications each frame folded.
        composed = card.compositions - composed_before
        assert composed <= screen.frames_drawn + 4
        assert screen.frames_drawn <= LINES
        # The card on screen is the final state's card, drawn afresh (no repaint was skipped
        # that should not have been).
        assert card.call_state is state
        context = card.context()
        assert context is not None
        fresh = app.console.render_lines(
            card_renderable(context, card.registry),
            app.console.options.update_width(card.size.width),
        )
        shown = card.render_lines(Region(0, 0, card.size.width, card.size.height))
        assert [strip.text for strip in shown] == ["".join(s.text for s in line) for line in fresh]
        # The log shows its last line, within its bound.
        log = screen.query_one(ServerLogPanel)
        await wait_for(
            pilot, lambda: any(f"flood line {LINES - 1}" in line for line in log.lines())
        )
        assert len(log.lines()) <= LINES_KEPT
