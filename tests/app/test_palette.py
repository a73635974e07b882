"""Every theme's palette reads: text colours reach 4.5:1 on the background, the divider 3:1."""

from __future__ import annotations

import pytest
from textual.theme import BUILTIN_THEMES

from workbench.app.app import DARK_THEME, LIGHT_THEME
from workbench.app.palette import CASE_THEMES, palette_for
from workbench.rendering.renderer import THEMES, theme_colours
from workbench.surfaces.colors import DECORATION_CONTRAST, TEXT_CONTRAST, contrast, ensure_contrast
from workbench.surfaces.context import DARK_PALETTE, LIGHT_PALETTE
from workbench.surfaces.themes import THEME_TABLE, CaseTheme, theme_facts

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


@pytest.mark.parametrize("theme", list(CaseTheme))
def test_the_theme_table_is_what_the_app_and_the_renderer_draw_with(theme: CaseTheme) -> None:
    # The renderer and the audit take a case theme's palette from the table, the app derives
    # it from the Textual theme: the same colours, whichever draws.
    facts = THEME_TABLE[theme]
    assert palette_for(BUILTIN_THEMES[facts.textual_name]) == facts.palette
    assert theme_colours(theme).palette == facts.palette
    assert CASE_THEMES[theme.value] == THEMES[theme.value] == facts.textual_name
    assert facts.palette.dark is (theme is CaseTheme.DARK)
    assert {DARK_THEME, LIGHT_THEME} == {row.textual_name for row in THEME_TABLE.values()}


def test_a_theme_outside_the_table_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="'solarized' is not a valid CaseTheme"):
        theme_facts("solarized")


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
