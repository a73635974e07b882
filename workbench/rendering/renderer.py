"""Draw snapshot cases directly, without laying out a screen.

A tool card is one Rich renderable (``card_renderable``), so it is drawn the way Textual
draws a widget — the widget's text and background colours as the base style, then the app's
ANSI-to-truecolour filter — in a single Rich render. A Portal is its body drawn the same way
inside the side panel's frame (a left border, padding, and a scrollbar when the body is
taller than the panel: the body is then drawn again, narrower by the bar, as Textual's second
layout pass does).

``settle=True`` draws every case with one headless app that runs (in a background thread,
with its own event loop) for the whole run, and waits for the screen to stop changing: the
slow, obviously right way, kept so a test can prove the fast way draws the same.

The same :class:`CardDrawer` feeds ``workbench audit``, which checks each drawing's segments.
"""

from __future__ import annotations

import asyncio
import io
import threading
from concurrent.futures import Future
from dataclasses import dataclass
from functools import lru_cache

from rich.console import Console, ConsoleDimensions, ConsoleOptions, RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.styled import Styled
from rich.text import Text
from textual._ansi_theme import ALABASTER, MONOKAI  # App's defaults; no public name.
from textual.app import App, ComposeResult
from textual.color import Color
from textual.containers import VerticalScroll
from textual.filter import ANSIToTruecolor
from textual.pilot import Pilot
from textual.reactive import reactive
from textual.scrollbar import ScrollBarRender
from textual.strip import Strip
from textual.theme import BUILTIN_THEMES, Theme
from textual.widget import Widget

from workbench.app.palette import CASE_THEMES, palette_for
from workbench.app.widgets.tool_card import ToolCard
from workbench.fixtures.catalog import Catalog
from workbench.hosts import bundled_hosts
from workbench.rendering.environment import PINNED_ENVIRON, PinnedColours, ansi_filter
from workbench.rendering.fingerprint import picture_hash
from workbench.rendering.matrix import COLLAPSED, LOOK, SnapshotCase
from workbench.rendering.screen import screen_strips, settle
from workbench.rendering.svg import export_svg
from workbench.surfaces.card import CardView, card_renderable, compose_card, portal_renderable
from workbench.surfaces.context import Palette, SurfaceContext, variant_context
from workbench.surfaces.host_look import HostFirstLook, model_view_renderable
from workbench.surfaces.registry import SurfaceRegistry

THEMES = CASE_THEMES
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
    theme = BUILTIN_THEMES[THEMES[name]]
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
        palette=palette_for(theme),
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


class _PortalView(Widget):
    """The Portal body as the side panel draws it (a Static caches too eagerly for reuse)."""

    DEFAULT_CSS = """
    _PortalView { width: 1fr; height: auto; padding: 0 1; }
    """

    body: reactive[RenderableType] = reactive(Text(""), layout=True, always_update=True)

    def render(self) -> RenderableType:
        return self.body


class _SnapshotApp(PinnedColours):
    # The Portal is a scrolling side panel: its snapshot is what one panel-height shows.
    CSS = f"""
    Screen {{ overflow: hidden; }}
    #portal-frame {{
        width: 80; height: auto; max-height: {PORTAL_VIEW_HEIGHT}; border-left: vkey $primary;
    }}
    """

    def __init__(self, registry: SurfaceRegistry) -> None:
        super().__init__()
        self.registry = registry
        self.animation_level = "none"
        self.theme = THEMES["dark"]  # Whatever TEXTUAL_THEME says.

    def compose(self) -> ComposeResult:
        yield ToolCard(self.registry, animate=False, id="card")
        with VerticalScroll(id="portal-frame"):
            yield _PortalView(id="portal")


def _export(strips: list[Strip], width: int, title: str) -> RenderedSnapshot:
    text = "\n".join(strip.text.rstrip() for strip in strips) + "\n"
    return RenderedSnapshot(
        text=text, svg=export_svg(strips, width, title), picture=picture_hash(strips)
    )


class SnapshotRenderer:
    """Draws :class:`SnapshotCase` objects. Use as a context manager.

    Cases are drawn directly (:class:`CardDrawer`); with ``settle=True`` a headless app
    draws them instead, started on the first case.
    """

    def __init__(
        self, catalog: Catalog, registry: SurfaceRegistry, *, settle: bool = False
    ) -> None:
        self.catalog = catalog
        self.registry = registry
        self.settle = settle
        self.drawer = CardDrawer(catalog, registry)
        self._loop = asyncio.new_event_loop()
        self._queue: asyncio.Queue[tuple[SnapshotCase, Future[RenderedSnapshot]] | None] | None = (
            None
        )
        self._ready: Future[None] = Future()
        self._thread = threading.Thread(target=self._run, name="snapshot-renderer", daemon=True)
        self._lock = threading.Lock()
        self._theme = "dark"

    def __enter__(self) -> SnapshotRenderer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def start(self) -> None:
        """Start the headless app (done on demand; call it to pay the start-up up front)."""
        with self._lock:
            if not self._thread.is_alive() and not self._ready.done():
                self._thread.start()
        self._ready.result(timeout=60)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._serve())
        except BaseException as error:  # noqa: BLE001 - handed to the thread that waits
            if not self._ready.done():
                self._ready.set_exception(error)
        finally:
            self._loop.close()

    async def _serve(self) -> None:
        self._queue = asyncio.Queue()
        app = _SnapshotApp(self.registry)
        async with app.run_test(size=SCREEN_SIZE) as pilot:
            await pilot.pause()
            self._ready.set_result(None)
            while True:
                item = await self._queue.get()
                if item is None:
                    break
                case, future = item
                try:
                    future.set_result(await self._render(pilot.app, case))
                except Exception as error:  # noqa: BLE001 - re-raised in the caller's thread
                    future.set_exception(error)

    async def _render(self, app: App[None], case: SnapshotCase) -> RenderedSnapshot:
        if case.theme != self._theme:
            app.theme = THEMES[case.theme]
            self._theme = case.theme
            for _ in range(3):
                await asyncio.sleep(0.01)
        card = app.query_one(ToolCard)
        portal = app.query_one("#portal", _PortalView)
        target: Widget
        # Both widgets stay displayed (toggling display would need a stylesheet pass);
        # only the target's lines are read.
        if case.surface == "portal":
            frame = app.query_one("#portal-frame")
            frame.styles.width = case.width
            frame.scroll_home(animate=False)
            ctx = variant_context(
                self.catalog,
                case.ref,
                case.phase,
                width=case.width - 2,
                palette=palette_for(app.current_theme),
            )
            portal.body = portal_renderable(ctx, self.registry)
            target = frame
        else:
            card.show_variant(self.catalog, case.ref, case.phase)
            card.expanded = case.surface != COLLAPSED
            card.card_width = case.width
            target = card
        # Wait until the screen stops changing (the Portal's frame decides on a scrollbar in
        # a later layout pass), then read the composited screen.
        pilot = Pilot(app)
        await settle(pilot)
        if target.region.bottom > app.size.height:
            await pilot.resize_terminal(SCREEN_SIZE[0], target.region.bottom + 1)
            await settle(pilot)
        region = target.region
        strips = [
            strip.crop(region.x, region.right)
            for strip in screen_strips(app)[region.y : region.bottom]
        ]
        return _export(strips, region.width, case.title)

    def render(self, case: SnapshotCase, timeout: float = 30.0) -> RenderedSnapshot:
        """Draw one case (thread-safe; with ``settle=True`` served in order by the app)."""
        if not self.settle or case.host is not None:
            # A host's view is a drawing of the card (or of text), not a widget's: drawn
            # directly in both modes.
            if case.surface == "portal":
                return _export(self.drawer.draw_portal_frame(case), case.width, case.title)
            return self.draw(case)[0]
        self.start()
        assert self._queue is not None
        future: Future[RenderedSnapshot] = Future()
        self._loop.call_soon_threadsafe(self._queue.put_nowait, (case, future))
        return future.result(timeout=timeout)

    def draw(self, case: SnapshotCase) -> tuple[RenderedSnapshot, Drawing]:
        """A card case drawn directly: the snapshot and the drawing it was made from."""
        drawing = self.drawer.draw(case)
        return _export(drawing.strips, case.width, case.title), drawing

    def close(self) -> None:
        if self._thread.is_alive() and self._queue is not None:
            self._loop.call_soon_threadsafe(self._queue.put_nowait, None)
            self._thread.join(timeout=30)
        elif not self._thread.is_alive() and not self._loop.is_closed():
            self._loop.close()
