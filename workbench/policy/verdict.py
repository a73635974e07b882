"""The policy's verdict for one call."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ApprovalCheck:
    """Whether a human must approve, why, and whether the call is refused outright."""

    needed: bool
    reason: str = ""
    policy: str = "required"
    blocked: bool = False
    """Headless mode: the call is refused instead of asking."""
