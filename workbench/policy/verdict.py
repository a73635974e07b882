"""The policy's verdict for one call, and what a human decided when it asked."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from workbench.core import events as ev
from workbench.core.result import ErrorType, failure

ApprovalAction = Literal["approve", "skip", "cancel"]


@dataclass(frozen=True)
class ApprovalCheck:
    """Whether a human must approve, why, and whether the call is refused outright."""

    needed: bool
    reason: str = ""
    """Why a human is asked, in words for that human."""
    policy: str = "required"
    rule: str = ""
    """Which policy rule or audit decided (globs, audit names): for the details pane only."""
    blocked: bool = False
    """Headless mode: the call is refused instead of asking."""


@dataclass(frozen=True, slots=True)
class ApprovalDecision:
    """What a human decided at the approval step."""

    action: ApprovalAction
    """``approve``, ``skip`` or ``cancel``."""
    args: dict[str, Any] | None = None
    reason: str = ""

    def event(self, at_ms: int) -> ev.Approved | ev.Skipped | ev.Cancelled:
        """The event this decision adds to a replayed call."""
        if self.action == "approve":
            return ev.Approved(args=self.args, at_ms=at_ms)
        if self.action == "skip":
            reason = self.reason or "no reason given"
            return ev.Skipped(
                failure(ErrorType.SKIPPED, f"The user skipped this call: {reason}"),
                reason=reason,
                at_ms=at_ms,
            )
        return ev.Cancelled(
            failure(ErrorType.CANCELLED, "The user cancelled the call before it ran."), at_ms=at_ms
        )


ApprovalGate = Callable[[ev.ApprovalRequested], Awaitable[ApprovalDecision]]
"""Asks a human (or a script) at the approval step; a live call and a replay both take one."""
