"""The address of a snapshot case: tool, API, variant, phase, width, theme (and surface).

It is the snapshot's path under ``snapshots/`` without the suffix, and the pytest id:
``calculator/calculate/add/done-60-dark``; a Portal case names no phase
(``.../portal-80-dark``: it is drawn at the variant's ending), nor does a host's view
(``.../look-codex-100-dark``: the card as Codex first shows it; ``.../model-codex-100-dark``:
what Codex's model reads), drawn at the ending too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_PART = r"[A-Za-z0-9_][A-Za-z0-9_.-]*"
_CASE_ID = re.compile(
    rf"^(?P<tool>{_PART})/(?P<api>{_PART})/(?P<variant>{_PART})/"
    r"(?P<prefix>[a-z][a-z-]*)-(?P<width>[1-9][0-9]{0,3})-(?P<theme>[a-z]+)$"
)


@dataclass(frozen=True, order=True)
class CaseKey:
    """Where a snapshot case sits in the matrix."""

    tool: str
    api: str
    variant: str
    phase: str
    """The lifecycle phase (``done``, ``args-streaming``...); for a Portal, the ending shown."""
    width: int
    theme: str
    surface: str = "card"
    """``card``, ``collapsed`` (the card folded, at the ending), ``portal``, or a host's view:
    ``look-HOST`` or ``model-HOST``."""

    @property
    def name(self) -> str:
        """The snapshot file's stem."""
        prefix = self.phase if self.surface == "card" else self.surface
        return f"{prefix}-{self.width}-{self.theme}"

    @property
    def id(self) -> str:
        return f"{self.tool}/{self.api}/{self.variant}/{self.name}"

    @property
    def variant_id(self) -> str:
        """``tool/api/variant``: the group a case belongs to."""
        return f"{self.tool}/{self.api}/{self.variant}"


@dataclass(frozen=True)
class ParsedId:
    """A case id read from a file: everything but a Portal's phase, which the id leaves out."""

    tool: str
    api: str
    variant: str
    prefix: str
    """The phase, ``portal``, ``look-HOST`` or ``model-HOST``."""
    width: int
    theme: str


def parse_case_id(text: str) -> ParsedId | None:
    """``tool/api/variant/phase-width-theme`` split into its parts; ``None`` if it is not one."""
    match = _CASE_ID.match(text)
    if match is None:
        return None
    return ParsedId(
        tool=match["tool"],
        api=match["api"],
        variant=match["variant"],
        prefix=match["prefix"],
        width=int(match["width"]),
        theme=match["theme"],
    )
