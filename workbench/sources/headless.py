"""One call without a UI: resolve, validate, run, and record it (events and final state)."""

from __future__ import annotations

from typing import Any

from workbench.core.call_record import CallRecord
from workbench.core.schema import validate_args
from workbench.policy.engine import PolicyContext, check_approval
from workbench.sources.answers import ScriptedAnswers
from workbench.sources.base import SourceState
from workbench.sources.call_runner import InputGate, LiveCall
from workbench.sources.manager import ResolutionError, ToolManager
from workbench.sources.quick_schema import plainly_valid
from workbench.sources.timeouts import resolve_call_timeout


class UsageProblem(ValueError):
    """The call cannot be made as asked (unknown tool, arguments that break the schema)."""


async def call_once(
    manager: ToolManager,
    policy: PolicyContext,
    name: str,
    args: dict[str, Any],
    *,
    timeout_s: float | None = None,
    extend_on_progress_s: float | None = None,
    input_gate: InputGate | None = None,
) -> CallRecord:
    """Start the sources, make one call, stop them; raises :class:`UsageProblem` for bad input.

    ``timeout_s`` is a hard limit on the whole call; progress restarts it only when
    ``extend_on_progress_s`` is given, and never past that. What the server asks mid-call
    goes to ``input_gate`` (default: decline everything, saying how to script an answer).
    """
    try:
        # Inside the try: a ctrl-c during the start must stop what did start.
        await manager.start()
        try:
            resolved = manager.resolve(name)
        except ResolutionError as error:
            failed = [
                f"{source.name}: {source.status.detail}"
                for source in manager.sources
                if source.status.state is SourceState.FAILED
            ]
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
        check = check_approval(resolved.entry.manifest, resolved.api.name, args, policy)
        timeout = resolve_call_timeout(
            args, resolved.api, override_s=timeout_s, extend_on_progress_s=extend_on_progress_s
        )
        record = CallRecord.start(resolved.entry.tool, resolved.api.name)
        call = LiveCall(
            resolved.entry.source,
            resolved.entry.manifest,
            resolved.entry.tool,
            resolved.api.name,
            args,
            on_event=record.add,
            timeout_ms=timeout.limit_ms,
            extend_on_progress_max_ms=timeout.extend_on_progress_max_ms,
            approval=check,
            approval_gate=None,
            workspace=policy.workspace,
            input_gate=input_gate if input_gate is not None else ScriptedAnswers(),
        )
        await call.run()
        return record
    finally:
        await manager.stop()
