"""Approval policy: who must approve which call, and in which mode."""

from workbench.policy.engine import ApprovalMode, PolicyContext, check_approval

__all__ = ["ApprovalMode", "PolicyContext", "check_approval"]
