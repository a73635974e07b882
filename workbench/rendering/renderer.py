"""Draw snapshot cases directly, without laying out a screen.

A tool card is one Rich renderable (``card_renderable``), so it is drawn the way Textual
draws a widget — the widget's text and background colours as the base style, then the app's
ANSI-to-truecolour filter — in a single Rich render. A Portal is its body drawn the same way
inside the side panel's frame (a left border, padding, and a scrollbar when the body is
taller than the panel: the body is then drawn again, narrower by the bar, as Textual's second
layout pass does).

The slow, obviously right way (a headless app showing the ``ToolCard``, drawn once the
screen stops changing) lives in the tests, which prove this way draws the same: nothing here
imports the app, so the audit and the snapshot run do not depend on the TUI package.

The same :class:`CardDrawer` feeds ``workbench audit``, which checks each drawing's segments.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from rich.console import Console, ConsoleDimensions, ConsoleOptions, RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.styled import Styled
from rich.text import Text
from textual._ansi_theme import ALABASTER, MONOKAI  # App's defaults; no public name.
from textual.color import Color
from textual.filter import ANSIToTruecolor
from textual.scrollbar import ScrollBarRender
from textual.strip import Strip
from textual.theme import BUILTIN_THEMES, Theme

from workbench.fixtures.catalog import Catalog
from workbench.hosts import bundled_hosts
from workbench.rendering.environment import PINNED_ENVIRON, ansi_filter
from workbench.rendering.fingerprint import picture_hash
from workbench.rendering.matrix import COLLAPSED, LOOK, SnapshotCase
from workbench.rendering.svg import export_svg
from workbench.surfaces.card import CardView, card_renderable, compose_card, portal_renderable
from workbench.surfaces.context import Palette, SurfaceContext, variant_context
from workbench.surfaces.host_look import HostFirstLook, model_view_renderable
from workbench.surfaces.registry import SurfaceRegistry
from workbench.surfaces.themes import TEXTUAL_THEMES, theme_facts

if TYPE_CHECKING:
    from workbench.rendering.cache import RenderCache

THEMES = TEXTUAL_THEMES
"""Kept for callers of the old name: the Textual theme of ``dark`` and ``light``."""
SCREEN_SIZE = (140, 60)
PORTAL_VIEW_HEIGHT = 40
PORTAL_CHROME = 3
"""Columns the Portal frame takes from its width: a border and one cell of padding a side."""
PORTAL_BORDER = "\u258f"
"""The frame's ``border-left: vkey`` glyph (textual._border.BORDER_CHARS)."""
SCROLLBAR_WIDTH = 2
"""Textual's ``scrollbar-size-vertical`` for every widget."""


def normalise_svg(svg: str) -> str:
    """Kept for callers of the old name: ids are normalised by :func:`export_svg` already."""
    return svg


@dataclass(frozen=True)
class ThemeColours:
    """How Textual draws a widget in one theme: its palette, base style and ANSI filter."""

    name: str
    theme: Theme
    palette: Palette
    base_style: Style
    """The widget's own text colour on the screen background."""
    ansi_filter: ANSIToTruecolor
    background: Color
    primary: Color
    """The Portal frame's left border."""
    scrollbar: Style
    """A vertical scrollbar at rest: ``$scrollbar`` on ``$scrollbar-background``."""


@lru_cache(maxsize=8)
def theme_colours(name: str) -> ThemeColours:
    """``dark`` or ``light``, as the snapshot app (and the Workbench app) draws them."""
    facts = theme_facts(name)
    theme = BUILTIN_THEMES[facts.textual_name]
    variables = theme.to_color_system().generate()
    background = Color.parse(variables["background"])
    foreground = Color.parse(variables["foreground"])
    # Textual maps ANSI and "default" colours through the terminal theme it pairs with the
    # app theme (App.ansi_theme_dark / ansi_theme_light).
    terminal_theme = MONOKAI if theme.dark else ALABASTER
    # As ScrollBar.render mixes them: a translucent background over the widget's, the thumb
    # over that.
    bar_background = background + Color.parse(variables["scrollbar-background"])
    bar_colour = bar_background + Color.parse(variables["scrollbar"])
    return ThemeColours(
        name=name,
        theme=theme,
        palette=facts.palette,
        base_style=Style(color=foreground.rich_color, bgcolor=background.rich_color),
        ansi_filter=ansi_filter(terminal_theme),
        background=background,
        primary=Color.parse(variables["primary"]),
        scrollbar=Style.from_color(bar_colour.rich_color, bar_background.rich_color),
    )


@dataclass(frozen=True)
class Drawing:
    """One case drawn: its rows of segments, and what the card was composed from."""

    case: SnapshotCase
    strips: list[Strip]
    ctx: SurfaceContext
    view: CardView | None
    """The card's parts (``None`` for a Portal)."""

    @property
    def lines(self) -> list[str]:
        return [strip.text for strip in self.strips]


class CardDrawer:
    """Draws cards and Portal bodies in one Rich render each, exactly as Textual shows them."""

    def __init__(self, catalog: Catalog, registry: SurfaceRegistry) -> None:
        self.catalog = catalog
        self.registry = registry
        # The console Textual's App builds (markup on, emoji codes off, no highlighting).
        self.console = Console(
            color_system="truecolor",
            file=io.StringIO(),
            markup=True,
            highlight=False,
            emoji=False,
            legacy_windows=False,
            force_terminal=True,
            safe_box=False,
            soft_wrap=False,
            width=SCREEN_SIZE[0],
            height=SCREEN_SIZE[1],
            no_color=False,
            _environ=PINNED_ENVIRON,
        )
        self._options = ConsoleOptions(
            max_height=SCREEN_SIZE[1],
            size=ConsoleDimensions(*SCREEN_SIZE),
            legacy_windows=False,
            min_width=1,
            max_width=SCREEN_SIZE[0],
            encoding="utf-8",
            is_terminal=True,
        )

    def context(self, case: SnapshotCase) -> SurfaceContext:
        width = case.width - 2 if case.surface == "portal" else case.width
        return variant_context(
            self.catalog,
            case.ref,
            case.phase,
            width=width,
            palette=theme_colours(case.theme).palette,
        )

    def draw(self, case: SnapshotCase) -> Drawing:
        """The card (or, for a Portal case, the whole Portal body, not one panel-height)."""
        ctx = self.context(case)
        view: CardView | None
        host = bundled_hosts().get(case.host) if case.host is not None else None
        if case.surface == "portal":
            view = None
            renderable: RenderableType = portal_renderable(ctx, self.registry)
            width = case.width - PORTAL_CHROME
        elif host is not None and case.surface.startswith(LOOK):
            # The host folds the open card (its own collapsed lines), not Workbench's fold.
            view = compose_card(ctx, self.registry, expanded=True)
            renderable = HostFirstLook(card_renderable(ctx, self.registry, view=view), host)
            width = case.width
        elif host is not None:
            view = None
            result = ctx.state.result
            renderable = (
                model_view_renderable(result, host, ctx.palette)
                if result is not None
                else Text("no result at this phase: nothing reaches the model")
            )
            width = case.width
        else:
            # A card case is drawn open, a collapsed case folded, whatever the manifest asks.
            view = compose_card(ctx, self.registry, expanded=case.surface != COLLAPSED)
            renderable = card_renderable(ctx, self.registry, view=view)
            width = case.width
        return Drawing(case, self.draw_renderable(renderable, width, case.theme), ctx, view)

    def draw_portal_frame(self, case: SnapshotCase) -> list[Strip]:
        """A Portal case as the snapshot app's side panel shows it: one panel-height of the
        body in its frame (left border, padding), with a scrollbar when the body is taller.

        The app decides on the scrollbar in a second layout pass (the body, narrower by the
        bar, is laid out again); here the same two steps are two renders, the first one
        stopped as soon as the body proves taller than the panel.
        """
        ctx = self.context(case)
        colours = theme_colours(case.theme)
        renderable = portal_renderable(ctx, self.registry)
        inner = case.width - PORTAL_CHROME
        body, rows = self._draw_lines(renderable, inner, case.theme, stop=PORTAL_VIEW_HEIGHT + 1)
        bar: list[Strip] = []
        if rows > PORTAL_VIEW_HEIGHT:
            body, rows = self._draw_lines(
                renderable, inner - SCROLLBAR_WIDTH, case.theme, keep=PORTAL_VIEW_HEIGHT
            )
            bar = self._scrollbar(rows, colours)
        blank = Style(bgcolor=colours.background.rich_color)
        edge = Strip(
            [
                Segment(PORTAL_BORDER, Style.from_color(colours.primary.rich_color, blank.bgcolor)),
                Segment(" ", blank),
            ]
        )
        pad = Strip([Segment(" ", blank)])
        framed = []
        for index, line in enumerate(body):
            parts = [edge, line, pad]
            if bar:
                parts.append(bar[index])
            framed.append(Strip.join(parts).apply_filter(colours.ansi_filter, colours.background))
        return framed

    def _scrollbar(self, virtual_height: int, colours: ThemeColours) -> list[Strip]:
        """The frame's vertical scrollbar, scrolled to the top, one strip per row."""
        bar = ScrollBarRender(
            virtual_size=virtual_height,
            window_size=PORTAL_VIEW_HEIGHT,
            position=0,
            thickness=SCROLLBAR_WIDTH,
            vertical=True,
            style=colours.scrollbar,
        )
        segments = Segment.apply_style(
            self.console.render(
                bar, self._options.update(width=SCROLLBAR_WIDTH, height=PORTAL_VIEW_HEIGHT)
            ),
            # The bar widget's own base style, as for any widget: text colour on background.
            colours.base_style,
        )
        return [
            Strip(line, SCROLLBAR_WIDTH)
            for line in Segment.split_and_crop_lines(
                segments, SCROLLBAR_WIDTH, include_new_lines=False
            )
        ]

    def draw_renderable(self, renderable: RenderableType, width: int, theme: str) -> list[Strip]:
        return self._draw_lines(renderable, width, theme)[0]

    def _draw_lines(
        self,
        renderable: RenderableType,
        width: int,
        theme: str,
        *,
        keep: int | None = None,
        stop: int | None = None,
    ) -> tuple[list[Strip], int]:
        """The first ``keep`` rows drawn (all by default), and how many rows there are,
        counted up to ``stop``: a tall Portal body needs its height, not its hidden rows."""
        colours = theme_colours(theme)
        base = colours.base_style
        segments = self.console.render(
            Styled(renderable, base),  # What Widget.post_render wraps a renderable in.
            self._options.update(highlight=False, width=width, height=None),
        )
        # Textual pads a widget's short lines with its background alone (no text colour).
        pad = Style(bgcolor=base.bgcolor)
        strips = []
        count = 0
        for line in Segment.split_and_crop_lines(
            segments, width, style=pad, include_new_lines=False
        ):
            if keep is None or count < keep:
                strip = Strip(line).adjust_cell_length(width, base)
                strips.append(strip.apply_filter(colours.ansi_filter, colours.background))
            count += 1
            if stop is not None and count >= stop:
                break
        return strips, count


@dataclass(frozen=True)
class RenderedSnapshot:
    text: str
    svg: str
    picture: str = ""
    """The drawing's content hash (:func:`~workbench.rendering.fingerprint.picture_hash`)."""


def export_snapshot(strips: list[Strip], width: int, title: str) -> RenderedSnapshot:
    """Drawn rows as a snapshot: their text, the SVG and the picture hash."""
    text = "\n".join(strip.text.rstrip() for strip in strips) + "\n"
    return RenderedSnapshot(
        text=text, svg=export_svg(strips, width, title), picture=picture_hash(strips)
    )


class SnapshotRenderer:
    """Draws :class:`SnapshotCase` objects directly (:class:`CardDrawer`). Use as a context
    manager (it holds nothing to release; callers written for an app-drawn renderer do).

    With a ``cache``, a case whose inputs did not change is read back, not drawn."""

    def __init__(
        self, catalog: Catalog, registry: SurfaceRegistry, *, cache: RenderCache | None = None
    ) -> None:
        self.catalog = catalog
        self.registry = registry
        self.drawer = CardDrawer(catalog, registry)
        self.cache = cache

    def __enter__(self) -> SnapshotRenderer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def render(self, case: SnapshotCase) -> RenderedSnapshot:
        """Draw one case: a Portal as its panel shows it, anything else as :meth:`draw`."""
        if self.cache is not None:
            value = self.cache.remember(
                self.cache.inputs.case(case), lambda: vars(self._render(case))
            )
            return RenderedSnapshot(value["text"], value["svg"], value["picture"])
        return self._render(case)

    def _render(self, case: SnapshotCase) -> RenderedSnapshot:
        if case.surface == "portal":
            return export_snapshot(self.drawer.draw_portal_frame(case), case.width, case.title)
        return self.draw(case)[0]

    def draw(self, case: SnapshotCase) -> tuple[RenderedSnapshot, Drawing]:
        """A card case drawn directly: the snapshot and the drawing it was made from."""
        drawing = self.drawer.draw(case)
        return export_snapshot(drawing.strips, case.width, case.title), drawing

    def close(self) -> None:
        """Nothing to release (kept so ``with`` and explicit closes keep working)."""
