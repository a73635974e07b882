"""One call without a UI: resolve, validate, run, and fold the events into a call state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from workbench.core import events as ev
from workbench.core.call_state import CallState
from workbench.core.event_log import EventLog
from workbench.core.reducer import reduce
from workbench.fixtures.loader import validate_args
from workbench.policy.engine import check_approval
from workbench.sources.call_runner import LiveCall
from workbench.sources.manager import ResolutionError
from workbench.sources.session import LiveSession
from workbench.sources.timeouts import resolve_call_timeout


class UsageProblem(ValueError):
    """The call cannot be made as asked (unknown tool, arguments that break the schema)."""


@dataclass
class HeadlessOutcome:
    state: CallState
    events: EventLog = field(default_factory=EventLog)
    tool: str = ""
    api: str = ""


async def call_once(
    session: LiveSession, name: str, args: dict[str, Any], *, timeout_s: float | None = None
) -> HeadlessOutcome:
    """Start the sources, make one call, stop them; raises :class:`UsageProblem` for bad input."""
    manager = session.manager
    await manager.start()
    try:
        try:
            resolved = manager.resolve(name)
        except ResolutionError as error:
            failed = [
                f"{source.name}: {source.status.detail}"
                for source in manager.sources
                if source.status.state.value == "failed"
            ]
            suffix = f" (sources that failed to start: {'; '.join(failed)})" if failed else ""
            raise UsageProblem(f"{error}{suffix}") from None
        problems = validate_args(resolved.api.parameters, args)
        if problems:
            lines = "; ".join(
                f"{'.'.join(map(str, path)) or '(args)'}: {message}"
                for path, message in problems[:5]
            )
            raise UsageProblem(f"arguments do not match {resolved.label}'s schema: {lines}")
        check = check_approval(resolved.entry.manifest, resolved.api.name, args, session.policy)
        timeout = (
            session.call_timeout(args, resolved.api)
            if timeout_s is None
            else resolve_call_timeout(
                args,
                resolved.api,
                override_s=timeout_s,
                extend_on_progress_s=session.extend_on_progress_s,
            )
        )
        state = CallState(tool=resolved.entry.tool, api=resolved.api.name)
        events = EventLog()

        def on_event(event: ev.CallEvent) -> None:
            nonlocal state
            events.append(event)
            state = reduce(state, event)

        call = LiveCall(
            resolved.entry.source,
            resolved.entry.manifest,
            resolved.entry.tool,
            resolved.api.name,
            args,
            on_event=on_event,
            timeout_ms=timeout.limit_ms,
            extend_on_progress_max_ms=timeout.extend_on_progress_max_ms,
            approval=check,
            approval_gate=None,
            workspace=session.policy.workspace,
        )
        await call.run()
        return HeadlessOutcome(
            state=state, events=events, tool=resolved.entry.tool, api=resolved.api.name
        )
    finally:
        await manager.stop()
