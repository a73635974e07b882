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
from pathlib import PurePosixPath

_PART = r"[A-Za-z0-9_][A-Za-z0-9_.-]*"
_CASE_ID = re.compile(
    rf"^(?P<tool>{_PART})/(?P<api>{_PART})/(?P<variant>{_PART})/"
    r"(?P<prefix>[a-z][a-z-]*)-(?P<width>[1-9][0-9]{0,3})-(?P<theme>[a-z]+)$"
)


@dataclass(frozen=True, order=True)
class CaseAddress:
    """A case's address: what its id and its files' path say, and nothing more.

    A Portal's or a host's view names no phase (``prefix`` is ``portal``, ``look-HOST`` or
    ``model-HOST``), so an address read back from a file is this, not a :class:`CaseKey`.
    """

    tool: str
    api: str
    variant: str
    prefix: str
    """The phase, ``collapsed``, ``portal``, ``look-HOST`` or ``model-HOST``."""
    width: int
    theme: str

    @classmethod
    def parse(cls, text: str) -> CaseAddress | None:
        """``tool/api/variant/prefix-width-theme`` split into its parts; ``None`` if it is
        not one."""
        match = _CASE_ID.match(text)
        if match is None:
            return None
        return cls(
            tool=match["tool"],
            api=match["api"],
            variant=match["variant"],
            prefix=match["prefix"],
            width=int(match["width"]),
            theme=match["theme"],
        )

    @property
    def name(self) -> str:
        """The snapshot file's stem, unique within the variant's folder."""
        return f"{self.prefix}-{self.width}-{self.theme}"

    @property
    def variant_id(self) -> str:
        """``tool/api/variant``: the group a case belongs to."""
        return f"{self.tool}/{self.api}/{self.variant}"

    @property
    def id(self) -> str:
        """The pytest id and the review decisions' name; the files' path without suffix."""
        return f"{self.variant_id}/{self.name}"

    @property
    def relative_dir(self) -> PurePosixPath:
        """The variant's folder under the snapshot root."""
        return PurePosixPath(self.tool, self.api, self.variant)


ParsedId = CaseAddress
"""The old name of a case id read from a file."""


@dataclass(frozen=True, order=True)
class CaseKey:
    """Where a snapshot case sits in the matrix: its address and the phase it is drawn at."""

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
    def address(self) -> CaseAddress:
        """The id and path: a card is named by its phase, any other surface by itself."""
        prefix = self.phase if self.surface == "card" else self.surface
        return CaseAddress(self.tool, self.api, self.variant, prefix, self.width, self.theme)

    @property
    def name(self) -> str:
        """The snapshot file's stem."""
        return self.address.name

    @property
    def id(self) -> str:
        return self.address.id

    @property
    def variant_id(self) -> str:
        """``tool/api/variant``: the group a case belongs to."""
        return self.address.variant_id


def parse_case_id(text: str) -> CaseAddress | None:
    """``tool/api/variant/phase-width-theme`` split into its parts; ``None`` if it is not one."""
    return CaseAddress.parse(text)
