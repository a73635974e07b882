"""Prepare one live call: the approval check, the deadline, the record and the ``LiveCall``.

The headless call, the live screen and the reference recorder all start calls here, so a rule
about starting a call (what approval it needs, how long it may run) is written once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from workbench.core import events as ev
from workbench.core.call_record import CallRecord
from workbench.policy.engine import PolicyContext, check_approval
from workbench.policy.verdict import ApprovalCheck, ApprovalGate
from workbench.sources.call_runner import InputGate, LiveCall
from workbench.sources.manager import ResolvedCall
from workbench.sources.timeouts import CallTimeout


@dataclass(frozen=True)
class PreparedCall:
    """A call ready to run: ``await prepared.call.run()`` folds its events into ``record``."""

    record: CallRecord
    call: LiveCall
    approval: ApprovalCheck
    timeout: CallTimeout


def prepare_call(
    resolved: ResolvedCall,
    args: dict[str, Any],
    *,
    policy: PolicyContext,
    timeout: CallTimeout,
    call_id: str = "call",
    approval_gate: ApprovalGate | None = None,
    input_gate: InputGate | None = None,
    on_event: Callable[[ev.CallEvent], object] | None = None,
    args_chunk_delay_s: float = 0.0,
) -> PreparedCall:
    """Check ``args`` against the policy and wire a :class:`LiveCall` to a fresh record.

    Every event goes into the record first, then to ``on_event`` (a screen marking itself
    for redraw). Without an ``approval_gate`` a call that needs approval is blocked.
    """
    tool, api = resolved.entry.tool, resolved.api.name
    approval = check_approval(resolved.entry.manifest, api, args, policy)
    record = CallRecord.start(tool, api, call_id=call_id)

    def sink(event: ev.CallEvent) -> None:
        record.add(event)
        if on_event is not None:
            on_event(event)

    call = LiveCall(
        resolved.entry.source,
        resolved.entry.manifest,
        tool,
        api,
        args,
        on_event=record.add if on_event is None else sink,
        timeout_ms=timeout.limit_ms,
        extend_on_progress_max_ms=timeout.extend_on_progress_max_ms,
        approval=approval,
        approval_gate=approval_gate,
        workspace=policy.workspace,
        args_chunk_delay_s=args_chunk_delay_s,
        input_gate=input_gate,
    )
    return PreparedCall(record=record, call=call, approval=approval, timeout=timeout)
