"""Every theme's palette reads: text colours reach 4.5:1 on the background, the divider 3:1."""

from __future__ import annotations

import pytest
from textual.theme import BUILTIN_THEMES

from workbench.app.palette import palette_for
from workbench.surfaces.colors import DECORATION_CONTRAST, TEXT_CONTRAST, contrast, ensure_contrast
from workbench.surfaces.context import DARK_PALETTE, LIGHT_PALETTE

TEXT_ROLES = (
    "primary",
    "secondary",
    "accent",
    "success",
    "warning",
    "error",
    "foreground",
    "muted",
)


def test_the_default_palettes_are_what_the_default_themes_give() -> None:
    # Surfaces drawn without an app (workbench show) use the constants: they must match.
    assert palette_for(BUILTIN_THEMES["textual-dark"]) == DARK_PALETTE
    assert palette_for(BUILTIN_THEMES["textual-light"]) == LIGHT_PALETTE


@pytest.mark.parametrize("name", sorted(BUILTIN_THEMES))
def test_every_builtin_theme_gives_a_palette_that_passes_contrast(name: str) -> None:
    palette = palette_for(BUILTIN_THEMES[name])
    for role in TEXT_ROLES:
        ratio = contrast(getattr(palette, role), palette.background)
        assert ratio >= TEXT_CONTRAST, f"{name}: {role} {getattr(palette, role)} is {ratio:.2f}:1"
    assert contrast(palette.divider, palette.background) >= DECORATION_CONTRAST


def test_the_light_theme_keeps_its_hues_darker() -> None:
    # textual-light's orange is 1.48:1 on its background; the palette darkens it, same hue.
    assert contrast("#ffa62b", "#e0e0e0") < 1.5
    assert LIGHT_PALETTE.warning == ensure_contrast("#ffa62b", "#e0e0e0", TEXT_CONTRAST + 0.1)
    assert LIGHT_PALETTE.warning.startswith("#9")
