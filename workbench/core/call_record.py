"""One call as it happened: its events, the state they fold into, and the phases it visited.

This is the one place events are folded into a :class:`CallState`. The live screen, the
headless call, the recorder and fixture scripts add events to a record; none of them calls
the reducer itself, so "what a call looks like after these events" has one answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from workbench.core import events as ev
from workbench.core.call_state import CallState, Phase
from workbench.core.event_log import EventLog
from workbench.core.reducer import reduce


@dataclass
class CallRecord:
    """A call's events folded as they arrive (``add`` is cheap: one reducer step)."""

    state: CallState
    events: EventLog = field(default_factory=EventLog)
    """The events so far, in order, folded as they grow so a flooding call stays bounded
    (none once ``keep_events`` is off)."""
    phases: list[Phase] = field(default_factory=list)
    """The phases the call has been in, in the order it reached them."""
    keep_events: bool = True
    """Off for records that only need the state (replays, scripts): no list grows."""

    def __post_init__(self) -> None:
        if not self.phases:
            self.phases.append(self.state.phase)

    @classmethod
    def start(
        cls, tool: str, api: str, *, call_id: str = "call", keep_events: bool = True
    ) -> CallRecord:
        """A call that has not begun: streaming its args, no events yet."""
        return cls(CallState(tool=tool, api=api, call_id=call_id), keep_events=keep_events)

    @property
    def tool(self) -> str:
        return self.state.tool

    @property
    def api(self) -> str:
        return self.state.api

    @property
    def finished(self) -> bool:
        return self.state.phase.is_terminal

    def add(self, event: ev.CallEvent) -> CallState:
        """Fold ``event`` in; returns the new state."""
        self.state = reduce(self.state, event)
        if self.keep_events:
            self.events.append(event)
        if self.state.phase not in self.phases:
            self.phases.append(self.state.phase)
        return self.state

    def extend(self, events: Iterable[ev.CallEvent]) -> CallState:
        """Fold every event in order; returns the last state."""
        for event in events:
            self.add(event)
        return self.state

    def forget_events(self) -> None:
        """Let the events go to bound memory; the state and phases stay."""
        self.events.clear()
        self.keep_events = False
