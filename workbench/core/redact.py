"""Keep credentials out of recorded fixtures.

A fixture is shared: it goes into a repository and a review. A live call can carry a bearer
token or a cookie into its recording: a server echoing its request headers, an error quoting
them, a token the user typed as an argument. :class:`Redactor` replaces, anywhere in the
recorded data:

- the value of a key named like a credential header (``Authorization``, ``Cookie``,
  ``Set-Cookie``, ``Proxy-Authorization``, ``X-Api-Key``...);
- ``Authorization: ...``, ``Cookie: ...`` lines and ``Bearer ...`` tokens in text;
- every secret it is given (the header values sent to the servers of the session).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

REDACTED = "[redacted]"
SENSITIVE_KEYS = frozenset(
    {
        "authorization",
        "proxy-authorization",
        "cookie",
        "set-cookie",
        "x-api-key",
        "api-key",
        "x-auth-token",
        "x-access-token",
    }
)
MIN_SECRET_CHARS = 6
"""Shorter values would redact ordinary words."""
_HEADER_LINE = re.compile(
    r"(?im)\b(authorization|proxy-authorization|cookie|set-cookie|x-api-key)(\s*[:=]\s*)"
    r"(\"[^\"\n]*\"|'[^'\n]*'|[^\n,}]*)"
)
# A token: long, with a digit somewhere (so "a bearer token" in prose stays as it is).
_BEARER = re.compile(r"(?i)\b(bearer)\s+(?=[A-Za-z._~+/=-]*[0-9])[A-Za-z0-9._~+/=-]{12,}")


def _normalise(key: str) -> str:
    return key.strip().lower().replace("_", "-")


class Redactor:
    """Replaces credentials in recorded data (see the module docstring)."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        values: set[str] = set()
        for secret in secrets:
            secret = secret.strip()
            if len(secret) >= MIN_SECRET_CHARS:
                values.add(secret)
            # "Bearer abc…": the token alone is the secret too.
            _, _, token = secret.partition(" ")
            if len(token.strip()) >= MIN_SECRET_CHARS:
                values.add(token.strip())
        self.secrets = sorted(values, key=len, reverse=True)
        self.count = 0
        """How many values were replaced."""

    def text(self, value: str) -> str:
        for secret in self.secrets:
            if secret in value:
                self.count += value.count(secret)
                value = value.replace(secret, REDACTED)
        value, lines = _HEADER_LINE.subn(
            lambda match: (
                match.group(0)
                if REDACTED in match.group(3)
                else f"{match.group(1)}{match.group(2)}{REDACTED}"
            ),
            value,
        )
        value, tokens = _BEARER.subn(lambda match: f"{match.group(1)} {REDACTED}", value)
        self.count += lines + tokens
        return value

    def data(self, value: Any) -> Any:
        """``value`` (JSON data) with credentials replaced; the shape stays the same."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            cleaned = {}
            for key, item in value.items():
                if isinstance(key, str) and _normalise(key) in SENSITIVE_KEYS and item:
                    self.count += 1
                    cleaned[key] = REDACTED
                else:
                    cleaned[key] = self.data(item)
            return cleaned
        if isinstance(value, list):
            return [self.data(item) for item in value]
        return value
