"""The timeout chain: call argument -> API default -> global default, clamped to [1 s, 800 s].

The result is a hard limit on the whole call. Progress extends it only when asked for
(``--extend-on-progress MAX``), and then never past that maximum.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from workbench.core.manifest import ToolApi

GLOBAL_DEFAULT_TIMEOUT_MS = 120_000
MIN_TIMEOUT_MS = 1_000
MAX_TIMEOUT_MS = 800_000


def clamp_timeout_ms(value: float) -> int:
    return int(max(MIN_TIMEOUT_MS, min(MAX_TIMEOUT_MS, value)))


def _arg_timeout_ms(args: dict[str, Any]) -> float | None:
    """A model-supplied ``timeout`` (ms) or ``timeoutSeconds``/``timeout_s`` (s), if sane."""
    for key, scale in (
        ("timeout", 1),
        ("timeoutMs", 1),
        ("timeoutSeconds", 1000),
        ("timeout_s", 1000),
    ):
        value = args.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
            return float(value) * scale
    return None


def resolve_timeout_ms(
    args: dict[str, Any],
    api: ToolApi | None,
    *,
    override_ms: float | None = None,
    global_default_ms: int = GLOBAL_DEFAULT_TIMEOUT_MS,
) -> int:
    """The one deadline for a call; the caller's override (CLI ``--timeout``) wins over all."""
    if override_ms is not None and override_ms > 0:
        return clamp_timeout_ms(override_ms)
    from_args = _arg_timeout_ms(args)
    if from_args is not None:
        return clamp_timeout_ms(from_args)
    if api is not None and api.default_timeout_ms:
        return clamp_timeout_ms(api.default_timeout_ms)
    return clamp_timeout_ms(global_default_ms)


@dataclass(frozen=True)
class CallTimeout:
    """One call's deadline: a hard limit, or (opted into) one progress restarts up to a maximum."""

    limit_ms: int
    extend_on_progress_max_ms: int | None = None

    def describe(self) -> str:
        """``timeout 30 s``, or ``timeout 30 s (300 s with progress)`` when progress extends it."""
        text = f"timeout {self.limit_ms / 1000:g} s"
        if self.extend_on_progress_max_ms:
            text += f" ({self.extend_on_progress_max_ms / 1000:g} s with progress)"
        return text


def resolve_call_timeout(
    args: dict[str, Any],
    api: ToolApi | None,
    *,
    override_s: float | None = None,
    extend_on_progress_s: float | None = None,
) -> CallTimeout:
    """The timeout chain (:func:`resolve_timeout_ms`) plus the opt-in progress extension.

    The extension's maximum is clamped like any timeout and is never below the limit itself.
    """
    limit_ms = resolve_timeout_ms(args, api, override_ms=override_s * 1000 if override_s else None)
    extend_ms = None
    if extend_on_progress_s is not None and extend_on_progress_s > 0:
        extend_ms = max(limit_ms, clamp_timeout_ms(extend_on_progress_s * 1000))
    return CallTimeout(limit_ms, extend_ms)
