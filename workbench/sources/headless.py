"""One call without a UI: resolve, validate, run, and record it (events and final state)."""

from __future__ import annotations

from typing import Any

from workbench.core.call_record import CallRecord
from workbench.core.schema import validate_args
from workbench.policy.engine import PolicyContext, check_approval
from workbench.sources.call_runner import LiveCall
from workbench.sources.manager import ResolutionError, ToolManager
from workbench.sources.timeouts import resolve_timeout_ms


class UsageProblem(ValueError):
    """The call cannot be made as asked (unknown tool, arguments that break the schema)."""


async def call_once(
    manager: ToolManager,
    policy: PolicyContext,
    name: str,
    args: dict[str, Any],
    *,
    timeout_s: float | None = None,
) -> CallRecord:
    """Start the sources, make one call, stop them; raises :class:`UsageProblem` for bad input."""
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
        check = check_approval(resolved.entry.manifest, resolved.api.name, args, policy)
        timeout_ms = resolve_timeout_ms(
            args, resolved.api, override_ms=timeout_s * 1000 if timeout_s else None
        )
        record = CallRecord.start(resolved.entry.tool, resolved.api.name)
        call = LiveCall(
            resolved.entry.source,
            resolved.entry.manifest,
            resolved.entry.tool,
            resolved.api.name,
            args,
            on_event=record.add,
            timeout_ms=timeout_ms,
            approval=check,
            approval_gate=None,
            workspace=policy.workspace,
        )
        await call.run()
        return record
    finally:
        await manager.stop()
