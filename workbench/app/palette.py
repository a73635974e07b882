"""Translate the active Textual theme into the plain palette surfaces draw with."""

from __future__ import annotations

from textual.theme import Theme

from workbench.surfaces.context import DARK_PALETTE, LIGHT_PALETTE, Palette


def palette_for(theme: Theme | None) -> Palette:
    """A :class:`Palette` from ``theme``'s colours, falling back to the defaults."""
    if theme is None:
        return DARK_PALETTE
    base = DARK_PALETTE if theme.dark else LIGHT_PALETTE
    return Palette(
        primary=theme.primary or base.primary,
        secondary=theme.secondary or base.secondary,
        accent=theme.accent or base.accent,
        success=theme.success or base.success,
        warning=theme.warning or base.warning,
        error=theme.error or base.error,
        foreground=theme.foreground or base.foreground,
        muted=base.muted,
        panel=theme.panel or base.panel,
        surface=theme.surface or base.surface,
        dark=theme.dark,
    )
