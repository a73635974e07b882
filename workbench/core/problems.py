"""Problems found in user files, in the ``file:line: field: message`` shape."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

MAX_MESSAGE = 400
"""Validators quote the offending value; a 20 KB value makes a useless line."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a file, located as precisely as the file allows."""

    file: str
    message: str
    line: int | None = None
    field: str = ""
    severity: Literal["error", "warning"] = "error"
    code: str = "invalid"

    def format(self) -> str:
        """``file:line: field: message``, printable as is (fixture text cannot smuggle escapes)."""
        from workbench.core.sanitize import clean

        location = f"{self.file}:{self.line}" if self.line is not None else self.file
        field = f" {self.field}:" if self.field else ""
        message = (
            self.message
            if len(self.message) <= MAX_MESSAGE
            else self.message[:MAX_MESSAGE] + f"… (+{len(self.message) - MAX_MESSAGE:,} characters)"
        )
        return clean(f"{location}:{field} {message}")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def format_field(path: Sequence[str | int]) -> str:
    """``('variants', 2, 'args', 'q')`` -> ``variants[2].args.q``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text
