"""One call without a UI: resolve, validate, run, and record it (events and final state)."""

from __future__ import annotations

from typing import Any, Protocol

from workbench.core.call_record import CallRecord
from workbench.core.manifest import ToolApi
from workbench.core.schema import validate_args
from workbench.policy.engine import PolicyContext
from workbench.sources.answers import ScriptedAnswers
from workbench.sources.call_runner import InputGate
from workbench.sources.health import SourcesReport
from workbench.sources.live_start import prepare_call
from workbench.sources.manager import ResolutionError, ToolManager
from workbench.sources.quick_schema import plainly_valid
from workbench.sources.timeouts import CallTimeout


class UsageProblem(ValueError):
    """The call cannot be made as asked (unknown tool, arguments that break the schema)."""


class CallSession(Protocol):
    """What a headless call needs of a session (:class:`workbench.session.LiveSession`)."""

    @property
    def manager(self) -> ToolManager: ...

    @property
    def policy(self) -> PolicyContext: ...

    def call_timeout(self, args: dict[str, Any], api: ToolApi | None) -> CallTimeout: ...


async def call_once(
    session: CallSession,
    name: str,
    args: dict[str, Any],
    *,
    input_gate: InputGate | None = None,
) -> CallRecord:
    """Start the sources, make one call, stop them; raises :class:`UsageProblem` for bad input.

    The call runs under the session's deadline (``--timeout``, ``--extend-on-progress``) and
    approval mode. What the server asks mid-call goes to ``input_gate`` (default: decline
    everything, saying how to script an answer).
    """
    manager = session.manager
    try:
        # Inside the try: a ctrl-c during the start must stop what did start.
        await manager.start()
        try:
            resolved = manager.resolve(name)
        except ResolutionError as error:
            report = SourcesReport.of(manager, [])
            failed = [f"{source.name}: {source.detail}" for source in report.failed]
            suffix = f" (sources that failed to start: {'; '.join(failed)})" if failed else ""
            raise UsageProblem(f"{error}{suffix}") from None
        parameters = resolved.api.parameters
        problems = [] if plainly_valid(parameters, args) else validate_args(parameters, args)
        if problems:
            lines = "; ".join(
                f"{'.'.join(map(str, path)) or '(args)'}: {message}"
                for path, message in problems[:5]
            )
            raise UsageProblem(f"arguments do not match {resolved.label}'s schema: {lines}")
        prepared = prepare_call(
            resolved,
            args,
            policy=session.policy,
            timeout=session.call_timeout(args, resolved.api),
            input_gate=input_gate if input_gate is not None else ScriptedAnswers(),
        )
        await prepared.call.run()
        return prepared.record
    finally:
        await manager.stop()
