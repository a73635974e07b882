"""The conversation view's replay: the session's calls in the order they ran, at its pace.

Calls start in list order; a call ends when the session's recorded times say so, so a call
still running when the next one starts (a subagent's Task, a call made in parallel) waits in
its running phase while the calls made meanwhile play, then ends.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from textual import work

from workbench.app.screens.conversation_saving import ConversationSaving
from workbench.app.widgets.conversation_list import ConversationList
from workbench.core import events as ev
from workbench.core.call_record import CallRecord
from workbench.core.call_state import CallState
from workbench.fixtures.replay import SPEEDS, FixtureReplayer
from workbench.fixtures.script import CallScript
from workbench.transcripts.conversation import CallRow, Conversation, Row, runs_past

MAX_GAP_MS = 2000
"""A replay waits the recorded time between two moments of the session, up to this (a
session's idle minutes are not worth watching)."""


@dataclass(slots=True)
class _Running:
    """A call the replay started and has not ended: where it is listed, and its script."""

    index: int
    row: CallRow
    script: CallScript
    record: CallRecord
    alone: bool = True
    """Nothing else played since it started: its ending comes at the fixture's own pace."""


class ConversationReplay(ConversationSaving):
    """Replay from the selected call on; any key that selects by hand stops it."""

    rows: list[Row]
    conversation: Conversation | None
    row_index: int | None
    script: CallScript | None
    phase_index: int
    speed_index: int

    # The screen's own, used here (the saving half declares ``selected_call``).
    _select: Callable[..., None]
    _show_state: Callable[[CallState], None]
    _listed: Callable[[Row], bool]
    _request_more: Callable[[], None]
    _showing: Callable[[], bool]
    action_next_call: Callable[[], None]

    def _stop_replay(self) -> None:
        self.workers.cancel_group(self, "replay")
        self.call_view.stepper.playing = False

    def action_play_pause(self) -> None:
        if self.call_view.stepper.playing:
            self._stop_replay()
            return
        if self.selected_call is None:
            self.action_next_call()
        if self.selected_call is not None:
            self._replay()

    @property
    def _speed(self) -> float | None:
        return SPEEDS[self.speed_index]

    async def _wait(self, since: datetime | None, until: datetime | None) -> None:
        """The recorded time from ``since`` to ``until`` (capped), at the replay's speed."""
        speed = self._speed
        if since is None or until is None or not speed:
            await asyncio.sleep(0)
            return
        seconds = max(0.0, min((until - since).total_seconds(), MAX_GAP_MS / 1000))
        await asyncio.sleep(seconds / speed)

    async def _play(
        self, running: _Running, start: int, stop: int, *, at_once: bool = False
    ) -> None:
        """Show ``running``'s steps from ``start`` up to (not with) ``stop``, at their pace."""
        script = running.script
        speed = None if at_once else self._speed
        replayer = FixtureReplayer(script, speed=speed, start_index=start)
        index = start
        async for event in replayer.events():
            state = running.record.add(event)
            if state.phase in script.phases:
                self.phase_index = script.phases.index(state.phase)
            self._show_state(state)
            index += 1
            if index >= stop:
                break

    def _ending_step(self, script: CallScript) -> int:
        """Where the call's ending (its terminal event) is in its script."""
        steps = script.steps
        last = len(steps) - 1
        return last if last >= 0 and isinstance(steps[last].event, ev.Terminal) else len(steps)

    async def _next_call(self, after: int) -> int | None:
        """The next listed call after row ``after``, reading on to the session's end."""
        index = after + 1
        while True:
            while index < len(self.rows):
                if isinstance(self.rows[index], CallRow) and self._listed(self.rows[index]):
                    return index
                index += 1
            if self.conversation is None or self.conversation.done:
                return None
            self._request_more()
            await asyncio.sleep(0.05)

    def _call_row(self, index: int | None) -> CallRow | None:
        row = self.rows[index] if index is not None else None
        return row if isinstance(row, CallRow) else None

    def _show_row(self, index: int) -> bool:
        """Select row ``index`` for the replay (the list follows); ``False`` once left."""
        if not self._showing():
            return False
        self.query_one("#conversation", ConversationList).highlight_row(index)
        # Selected here, at once, so the list's message finds it done (a selection by hand
        # stops the replay; this one is the replay's).
        self._select(index, replaying=True)
        return True

    async def _end(self, running: _Running, since: datetime | None) -> None:
        """Play ``running``'s ending: at the fixture's pace when nothing played since it
        started, else after the recorded time since the last thing that did."""
        ending = self._ending_step(running.script)
        if ending >= len(running.script.steps):
            return
        if running.alone:
            await self._play(running, ending, ending + 1)
            return
        await self._wait(since, running.row.call.ended)
        if self.row_index != running.index and not self._show_row(running.index):
            return
        await self._play(running, ending, ending + 1, at_once=True)  # The wait is done.

    @work(exclusive=True, group="replay")
    async def _replay(self) -> None:
        """From the selected call on: each call through its phases, the recorded wait (capped
        at :data:`MAX_GAP_MS`) between one moment and the next."""
        self.call_view.stepper.playing = True
        running: list[_Running] = []
        last: datetime | None = None
        try:
            index = self.row_index
            while index is not None and (row := self.selected_call) is not None:
                script = self.script
                if script is None:
                    return
                record = CallRecord(script.initial_state(), keep_events=False)
                started = _Running(index, row, script, record)
                for earlier in running:
                    earlier.alone = False
                await self._play(started, 0, self._ending_step(script))
                running.append(started)
                last = row.call.started or last
                following = await self._next_call(index)
                following_row = self._call_row(following)
                while running and (
                    following_row is None or not runs_past(running[-1].row, following_row)
                ):
                    ending = running.pop()
                    await self._end(ending, last)
                    last = ending.row.call.ended or last
                if following_row is None or following is None:
                    return
                await self._wait(last, following_row.call.started)
                if not self._show_row(following):
                    return
                index = following
        finally:
            self.call_view.stepper.playing = False
