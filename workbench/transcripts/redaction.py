"""Secrets out before anything is written: API keys, bearer tokens, Authorization and cookie
values, private keys, ``.env``-style assignments, credentials in URLs; the home directory as ``~``.

A :class:`TranscriptRedactor` walks strings, lists and dicts (a value under a key such as
``Authorization`` or ``api_key`` is redacted whole) and counts what it replaced, by kind, for
the import summary. The patterns aim at what leaks in practice; a miss is a bug to report.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

from workbench.core.redact import REDACTED

MARK = REDACTED
"""The same mark as a live recording's (:mod:`workbench.core.redact`, whose header and key
rules these extend for what a whole agent session holds)."""

_PATTERNS: tuple[tuple[str, re.Pattern[str], str], ...] = (
    (
        "private key",
        re.compile(
            r"-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----.*?"
            r"(?:-----END \1-----|\Z)",
            re.DOTALL,
        ),
        f"-----BEGIN \\1-----{MARK}-----END \\1-----",
    ),
    (
        "header",
        re.compile(
            r"(?im)\b((?:proxy-)?authorization|cookie|set-cookie|x-api-key|api-key|"
            r"x-auth-token)(\"?\s*[:=]\s*\"?)[^\"\r\n]+"
        ),
        f"\\1\\2{MARK}",
    ),
    (
        "bearer token",
        re.compile(r"(?i)\b(bearer|token|basic)(\s+)[A-Za-z0-9._~+/=-]{12,}"),
        f"\\1\\2{MARK}",
    ),
    (
        "API key",
        re.compile(
            r"\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}"
            r"|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}"
            r"|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|hf_[A-Za-z0-9]{30,}"
            r"|npm_[A-Za-z0-9]{36}|sk_(?:live|test)_[A-Za-z0-9]{16,})"
        ),
        MARK,
    ),
    (
        "URL credentials",
        re.compile(r"(\b[a-z][a-z0-9+.-]*://[^/\s:@]+:)[^/\s@]+@"),
        f"\\1{MARK}@",
    ),
)

_ASSIGNMENT = re.compile(
    r"(?<![A-Za-z0-9_$])((?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*)"
    r"(\"[^\"\n]*\"|'[^'\n]*'|[^\s\"'`;&|)]+)"
)
"""``NAME=value`` (a ``.env`` line, ``export NAME=...``, an inline ``NAME=... command``); the
value is a secret when the name says so (:data:`_SECRET_NAME`)."""
_SECRET_NAME = re.compile(
    r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|CREDENTIAL|PRIVATE|AUTH", re.IGNORECASE
)

_CLUES: dict[str, tuple[str, ...]] = {
    "private key": ("PRIVATE KEY",),
    "header": ("authorization", "cookie", "api-key", "x-auth-token"),
    "bearer token": ("bearer", "token", "basic"),
    "API key": ("sk-", "gh", "github_pat_", "glpat-", "xox", "AKIA", "AIza", "hf_", "npm_", "sk_"),
    "URL credentials": ("://",),
}
"""Text a pattern cannot match without: a cheap test (lower-cased for the case-blind ones)
that spares the regex scan of most long outputs."""
_CASE_BLIND = frozenset({"header", "bearer token"})

_SECRET_KEY = re.compile(
    r"^(?:(?:proxy-)?authorization|cookie|set-cookie|x-api-key|api[_-]?key|apikey|secret|"
    r"client[_-]?secret|password|passwd|(?:access|refresh|auth|id|bearer)[_-]?token|"
    r"private[_-]?key|secret[_-]?key)$",
    re.IGNORECASE,
)
"""Keys whose string value is a secret whatever it looks like."""

_HOME = re.compile(r"(?:/home|/Users)/[A-Za-z0-9._-]+(?=/|\b)|[A-Z]:\\Users\\[A-Za-z0-9._ -]+")


class TranscriptRedactor:
    """Replaces secrets (and home directories) in transcript values; counts what it replaced.

    With ``enabled=False`` it only moves home directories to ``~`` (``--no-redact``).
    """

    def __init__(self, *, enabled: bool = True, home: Path | None = None) -> None:
        self.enabled = enabled
        self.counts: Counter[str] = Counter()
        home_text = str(home if home is not None else Path.home())
        self._home = home_text if home_text not in ("", "/") else None

    def text(self, value: str) -> str:
        if self.enabled:
            lowered = value.lower()
            for kind, pattern, replacement in _PATTERNS:
                haystack = lowered if kind in _CASE_BLIND else value
                if not any(clue in haystack for clue in _CLUES[kind]):
                    continue
                value, count = pattern.subn(replacement, value)
                if count:
                    self.counts[kind] += count
                    lowered = value.lower()
            if "=" in value:
                value = _ASSIGNMENT.sub(self._assignment, value)
        if self._home is not None and self._home in value:
            self.counts["home directory"] += value.count(self._home)
            value = value.replace(self._home, "~")
        if "Users" in value or "/home/" in value:
            value, count = _HOME.subn("~", value)
            if count:
                self.counts["home directory"] += count
        return value

    def _assignment(self, match: re.Match[str]) -> str:
        if _SECRET_NAME.search(match[2]) is None or match[3] == MARK:
            return match[0]
        self.counts["assignment"] += 1
        return match[1] + MARK

    def value(self, value: Any) -> Any:
        """``value`` with every string in it redacted (dict keys too: a path can be a key)."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.value(item) for item in value]
        if isinstance(value, dict):
            redacted: dict[Any, Any] = {}
            for key, item in value.items():
                new_key = self.text(key) if isinstance(key, str) else key
                if (
                    self.enabled
                    and isinstance(key, str)
                    and _SECRET_KEY.match(key)
                    and isinstance(item, str)
                    and item
                    and item != MARK
                ):
                    self.counts["secret field"] += 1
                    redacted[new_key] = MARK
                    continue
                redacted[new_key] = self.value(item)
            return redacted
        return value

    @property
    def secrets(self) -> int:
        """How many secrets were replaced (home directories are not counted as secrets)."""
        return sum(count for kind, count in self.counts.items() if kind != "home directory")
