"""Translate the active Textual theme into the plain palette surfaces draw with."""

from __future__ import annotations

from textual.theme import Theme

from workbench.surfaces.colors import (
    DECORATION_CONTRAST,
    PALETTE_MARGIN,
    TEXT_CONTRAST,
    blend,
    ensure_contrast,
)
from workbench.surfaces.context import DARK_PALETTE, LIGHT_PALETTE, Palette
from workbench.surfaces.themes import TEXTUAL_THEMES

_TEXT_ROLES = ("primary", "secondary", "accent", "success", "warning", "error", "muted")

CASE_THEMES = TEXTUAL_THEMES
"""The Textual theme a snapshot case's ``dark`` or ``light`` is drawn in (the theme table's)."""


def palette_for(theme: Theme | None) -> Palette:
    """A :class:`Palette` from ``theme``'s colours, each made to read on its background.

    Themes pick colours for Textual's own widgets, where an accent is often a fill; as text
    on the background some fall far below 4.5:1 (``textual-light``'s orange is 1.5:1). Each
    text colour is therefore darkened or lightened, keeping its hue, just enough to pass.
    """
    if theme is None:
        return DARK_PALETTE
    # Themes are unhashable dataclasses; their repr names every colour.
    key = repr(theme)
    palette = _CACHE.get(key)
    if palette is None:
        palette = _CACHE[key] = _derive(theme)
    return palette


_CACHE: dict[str, Palette] = {}


def _derive(theme: Theme) -> Palette:
    base = DARK_PALETTE if theme.dark else LIGHT_PALETTE
    variables = theme.to_color_system().generate()
    background = _hex(variables.get("background"), base.background)
    foreground = _hex(variables.get("foreground"), base.foreground)
    text_minimum = TEXT_CONTRAST + PALETTE_MARGIN
    picked = {
        "primary": theme.primary or base.primary,
        "secondary": theme.secondary or base.secondary,
        "accent": theme.accent or base.accent,
        "success": theme.success or base.success,
        "warning": theme.warning or base.warning,
        "error": theme.error or base.error,
        "muted": base.muted,
    }
    colours = {
        role: ensure_contrast(_hex(picked[role], getattr(base, role)), background, text_minimum)
        for role in _TEXT_ROLES
    }
    # A rule between the Inspector and the body: quiet, but visible (3:1).
    divider = ensure_contrast(
        blend(foreground, background, 0.55),
        background,
        DECORATION_CONTRAST + PALETTE_MARGIN,
    )
    return Palette(
        **colours,
        foreground=ensure_contrast(foreground, background, text_minimum),
        panel=_hex(variables.get("panel"), base.panel),
        surface=_hex(variables.get("surface"), base.surface),
        background=background,
        divider=divider,
        dark=theme.dark,
    )


def _hex(value: str | None, fallback: str) -> str:
    """A theme colour as ``#rrggbb`` (Textual may give ``#RRGGBBAA`` or names)."""
    if not value:
        return fallback
    from textual.color import Color

    try:
        return Color.parse(value).hex6.lower()
    except Exception:  # noqa: BLE001 - an odd theme value falls back; it never breaks drawing
        return fallback
