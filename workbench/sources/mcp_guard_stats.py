"""What the message guard saw of one connection: counts, and the one line they sum up to."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

from workbench.core.limits import LimitExceeded

NOTIFICATIONS_PER_S = 200
"""Per notification method; enough for any progress bar, far below a flood."""
RequestId = int | str
MAX_TOOLS = 1_000
"""Tools kept from one ``tools/list`` answer; the rest are counted, never validated."""


@dataclass
class GuardStats:
    """What the guard saw of one connection: the counts its summaries are made of."""

    garbage_lines: int = 0
    """Lines that were not JSON-RPC and belonged to no request (ignored)."""
    first_garbage: str | None = None
    undecodable_lines: int = 0
    oversized_messages: int = 0
    too_deep_messages: int = 0
    answered_errors: int = 0
    """Pending requests the guard failed because their answer was unusable."""
    dropped_notifications: Counter[str] = field(default_factory=Counter)
    coalesced_progress: int = 0
    tool_problems: list[str] = field(default_factory=list)
    limit_hits: list[LimitExceeded] = field(default_factory=list)
    malformed_requests: int = 0
    """Server -> client requests the SDK refuses as invalid (e.g. a broken elicitation)."""
    mismatched_ids: int = 0
    """Answers whose id no request had (each failed the request(s) it could be meant for)."""
    first_mismatched: RequestId | None = None
    late_answers: int = 0
    """Answers to requests already answered or cancelled (ignored, as JSON-RPC allows)."""
    stray_answers: int = 0
    """Answers without an id that no single waiting request could take."""
    surrogate_messages: int = 0
    """Messages whose lone surrogate escapes were spelled as U+FFFD."""
    tools_cut: tuple[int, int] | None = None
    """``(kept, listed)`` when a ``tools/list`` answer held more than ``max_tools``."""

    def cut_tools(self, kept: int, listed: int) -> None:
        self.tools_cut = (kept, listed)

    def record_limit(self, exceeded: LimitExceeded) -> None:
        self.limit_hits.append(exceeded)
        del self.limit_hits[:-8]

    def summary(self) -> str:
        """One line of counts (empty when the stream was clean)."""
        parts = []
        if self.garbage_lines:
            first = f" (first: {self.first_garbage!r})" if self.first_garbage else ""
            parts.append(f"{self.garbage_lines:,} non-JSON-RPC line(s) ignored{first}")
        if self.undecodable_lines:
            parts.append(f"{self.undecodable_lines:,} line(s) of invalid UTF-8")
        if self.oversized_messages:
            parts.append(f"{self.oversized_messages:,} message(s) over max_message_bytes")
        if self.too_deep_messages:
            parts.append(f"{self.too_deep_messages:,} message(s) over max_json_depth")
        dropped = sum(self.dropped_notifications.values())
        if dropped:
            kinds = ", ".join(
                f"{method} {count:,}" for method, count in self.dropped_notifications.most_common(3)
            )
            parts.append(
                f"{dropped:,} notification(s) over {NOTIFICATIONS_PER_S}/s dropped ({kinds})"
            )
        if self.coalesced_progress:
            parts.append(f"{self.coalesced_progress:,} progress update(s) coalesced")
        if self.malformed_requests:
            parts.append(f"{self.malformed_requests:,} malformed request(s) to the client refused")
        if self.tools_cut is not None:
            kept, listed = self.tools_cut
            parts.append(f"showing {kept:,} of {listed:,} tools the server listed in one answer")
        if self.mismatched_ids:
            parts.append(
                f"{self.mismatched_ids:,} answer(s) with an id no request had "
                f"(first: {json.dumps(self.first_mismatched)[:80]})"
            )
        if self.late_answers:
            parts.append(f"{self.late_answers:,} late answer(s) to finished requests ignored")
        if self.stray_answers:
            parts.append(f"{self.stray_answers:,} answer(s) without an id ignored")
        if self.surrogate_messages:
            parts.append(
                f"{self.surrogate_messages:,} message(s) with lone surrogates (shown as U+FFFD)"
            )
        return "; ".join(parts)
