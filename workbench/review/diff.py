"""Line diffs between a committed snapshot and the case drawn now, for every surface that
shows one (the TUI, the CI log, the reports)."""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

MAX_DIFF_LINES = 200
"""A diff longer than this is cut, with a note saying how much was left out."""

LineKind = Literal["context", "removed", "added", "hunk", "note"]


@dataclass(frozen=True)
class DiffLine:
    kind: LineKind
    text: str

    @property
    def marked(self) -> str:
        """As a unified diff line: ``-``, ``+`` or a space in front."""
        prefix = {"removed": "-", "added": "+", "context": " "}.get(self.kind, "")
        return prefix + self.text


def diff_lines(
    committed: str | None, fresh: str, *, context: int = 2, limit: int = MAX_DIFF_LINES
) -> list[DiffLine]:
    """The committed text against the fresh one; empty when they are equal."""
    before = (committed or "").splitlines()
    after = fresh.splitlines()
    if before == after:
        return []
    lines: list[DiffLine] = []
    for raw in difflib.unified_diff(before, after, lineterm="", n=context):
        if raw.startswith(("---", "+++")):
            continue
        if raw.startswith("@@"):
            lines.append(DiffLine("hunk", raw))
        elif raw.startswith("-"):
            lines.append(DiffLine("removed", raw[1:]))
        elif raw.startswith("+"):
            lines.append(DiffLine("added", raw[1:]))
        else:
            lines.append(DiffLine("context", raw[1:]))
    if len(lines) > limit:
        lines = [*lines[:limit], DiffLine("note", f"… showing {limit} of {len(lines)} diff lines")]
    return lines


def unified_text(committed: str | None, fresh: str, **options: int) -> str:
    """The diff as plain unified-diff text (``-`` committed, ``+`` now)."""
    return "\n".join(line.marked for line in diff_lines(committed, fresh, **options))


def snapshot_diff(expected: str, received: str) -> Iterator[str]:
    """A failed snapshot's whole unified diff, headed ``snapshot`` / ``received``, as the
    pytest plugin and ``workbench snapshot`` print it (uncut: the log is the record)."""
    yield from difflib.unified_diff(
        expected.splitlines(),
        received.splitlines(),
        fromfile="snapshot",
        tofile="received",
        lineterm="",
        n=3,
    )
