"""The policy's verdict for one call."""

from __future__ import annotations

from dataclasses import dataclass


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
