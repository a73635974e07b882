"""A snapshot case drawn live: the tool card (or Portal) at the case's width, in the case's
theme, whatever theme the app is in, exactly as the snapshot renderer draws it."""

from __future__ import annotations

from rich.console import RenderableType
from textual.reactive import reactive
from textual.theme import BUILTIN_THEMES, Theme

from workbench.app.palette import CASE_THEMES, palette_for
from workbench.app.widgets.tool_card import ToolCard
from workbench.hosts import HostProfile, bundled_hosts
from workbench.surfaces.card import portal_renderable
from workbench.surfaces.context import Palette, SurfaceContext
from workbench.surfaces.host_look import model_view_renderable

PORTAL_CHROME = 3
"""Columns the Portal frame takes: its left border and one cell of padding a side."""


class CaseCard(ToolCard):
    """The card of one review case. The widget's own colours are the case theme's screen
    colours, which is the base style snapshots are drawn on."""

    DEFAULT_CSS = """
    CaseCard {
        height: auto;
        &.-portal { padding: 0 1; }
    }
    """

    case_theme: reactive[str] = reactive("dark", layout=True)
    """``dark`` or ``light``: the theme the case is drawn in."""
    surface: reactive[str] = reactive("card", layout=True)
    """``card``, ``portal`` for the tool's Portal, or a host's view (``look-HOST``: the card
    as HOST first shows it; ``model-HOST``: what its model reads)."""

    @property
    def theme(self) -> Theme:
        return BUILTIN_THEMES[CASE_THEMES.get(self.case_theme, CASE_THEMES["dark"])]

    @property
    def palette(self) -> Palette:
        return palette_for(self.theme)

    def on_mount(self) -> None:
        super().on_mount()
        self._paint()

    def watch_case_theme(self) -> None:
        self._paint()

    def watch_surface(self, surface: str) -> None:
        self.set_class(surface == "portal", "-portal")
        self.show_as(_host(surface, "look-"))
        self._paint()

    def _paint(self) -> None:
        colours = self.theme.to_color_system().generate()
        self.styles.background = colours["background"]
        self.styles.color = colours["foreground"]
        if self.surface == "portal":
            self.styles.border_left = ("vkey", colours["primary"])
        else:
            self.styles.border_left = None

    def render(self) -> RenderableType:
        model_host = _host(self.surface, "model-")
        if model_host is not None and self.call_state is not None:
            result = self.call_state.result
            if result is not None:
                return model_view_renderable(result, model_host, self.palette)
        if self.surface != "portal" or self.call_state is None:
            return super().render()
        ctx = SurfaceContext(
            state=self.call_state,
            manifest=self.manifest,
            width=self.card_width - 2,
            palette=self.palette,
        )
        return portal_renderable(ctx, self.registry)


def _host(surface: str, prefix: str) -> HostProfile | None:
    """The bundled host a ``prefix``-HOST surface names (the snapshot matrix draws those)."""
    if not surface.startswith(prefix):
        return None
    return bundled_hosts().profiles.get(surface.removeprefix(prefix))
