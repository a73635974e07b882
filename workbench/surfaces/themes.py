"""The themes a card is drawn in: one table of what each one is.

A snapshot case, the audit, the review board and the app all name a theme ``dark`` or
``light``; this table says which Textual theme that is and which palette surfaces get in it
(the palette ``palette_for`` derives from that Textual theme: a test keeps them equal). It is
plain data, so the renderer and the audit read it without importing the app.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from workbench.surfaces.context import DARK_PALETTE, LIGHT_PALETTE, Palette


class CaseTheme(StrEnum):
    """A theme as a snapshot case, a file name and the CLI spell it."""

    DARK = "dark"
    LIGHT = "light"


@dataclass(frozen=True)
class ThemeFacts:
    """What a :class:`CaseTheme` is drawn with."""

    textual_name: str
    """The Textual theme (``App.theme``) the app and the snapshot renderer use."""
    palette: Palette
    """The colours surfaces write in, on that theme's background."""


THEME_TABLE: MappingProxyType[CaseTheme, ThemeFacts] = MappingProxyType(
    {
        CaseTheme.DARK: ThemeFacts("textual-dark", DARK_PALETTE),
        CaseTheme.LIGHT: ThemeFacts("textual-light", LIGHT_PALETTE),
    }
)

TEXTUAL_THEMES: MappingProxyType[str, str] = MappingProxyType(
    {theme.value: facts.textual_name for theme, facts in THEME_TABLE.items()}
)
"""The Textual theme of each case theme, by name: ``{"dark": "textual-dark", ...}``."""


def theme_facts(theme: str) -> ThemeFacts:
    """The table's row for ``theme`` (``dark`` or ``light``); ``ValueError`` otherwise."""
    return THEME_TABLE[CaseTheme(theme)]
