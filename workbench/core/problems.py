"""Problems found in user files, in the ``file:line: field: message`` shape."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from pydantic import ValidationError

    from workbench.core.source_map import SourceMap

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


def problems_from_validation(
    error: ValidationError, file: str, source: SourceMap, prefix: tuple[str | int, ...] = ()
) -> list[Problem]:
    """One problem per pydantic error, located by ``source`` (``prefix`` is where the data sits)."""
    problems = []
    for item in error.errors(include_url=False):
        loc = (*prefix, *item["loc"])
        # Pydantic puts union branch names in the path ("str", "list[...]"); drop them.
        path = tuple(
            part for part in loc if isinstance(part, int) or not any(ch in part for ch in "[]()'")
        )
        message = item["msg"]
        if message.startswith("Value error, "):
            message = message[len("Value error, ") :]
        problems.append(
            Problem(
                file=file, line=source.line_for(path), field=format_field(path), message=message
            )
        )
    return _dedupe(problems)


def _dedupe(problems: Iterable[Problem]) -> list[Problem]:
    seen: set[tuple[Any, ...]] = set()
    unique = []
    for problem in problems:
        key = (problem.file, problem.line, problem.field, problem.message)
        if key not in seen:
            seen.add(key)
            unique.append(problem)
    return unique
