"""The timeout chain: call argument -> API default -> global default, clamped to [1 s, 800 s]."""

from __future__ import annotations

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
