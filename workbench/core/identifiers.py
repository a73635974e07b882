"""Identifiers made from free text: one rule for tool identifiers and fixture variant ids.

Both must match ``^[A-Za-z0-9][A-Za-z0-9_.-]*$`` (the manifest's and the fixture format's
pattern), so a server's name, a folder's name or a call's first argument becomes one by the
same function.
"""

from __future__ import annotations

import re

MAX_SLUG_CHARS = 60
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")
_EDGES = "-._"


def slug(text: str, *, fallback: str) -> str:
    """``"mcp-servers/everything"`` -> ``"mcp-servers-everything"``; ``fallback`` when nothing
    usable is left (``fallback`` must itself be a valid identifier)."""
    value = _UNSAFE.sub("-", text).strip(_EDGES).lower()
    value = value[:MAX_SLUG_CHARS].rstrip(_EDGES)
    return value or fallback
