"""Render snapshot cases to text and SVG with one headless app, reused for every snapshot.

Starting an app and waiting for its screen to settle costs far more than drawing a card, so
one app runs (in a background thread, with its own event loop) for the whole run, and each
snapshot only swaps the call state in, lays the screen out once, and reads the widget's lines.
"""

from __future__ import annotations

import asyncio
import io
import re
import threading
from concurrent.futures import Future
from dataclasses import dataclass

from rich.console import Console, RenderableType
from rich.segment import Segment, Segments
from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.geometry import Region
from textual.pilot import Pilot
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from workbench.app.palette import palette_for
from workbench.app.widgets.tool_card import ToolCard
from workbench.fixtures.catalog import Catalog
from workbench.surfaces.card import portal_renderable
from workbench.surfaces.context import SurfaceContext
from workbench.surfaces.registry import SurfaceRegistry
from workbench.testing.matrix import SnapshotCase
from workbench.testing.screen import screen_strips, settle

THEMES = {"dark": "textual-dark", "light": "textual-light"}
SCREEN_SIZE = (140, 60)
PORTAL_VIEW_HEIGHT = 40
_SVG_ID = re.compile(r"terminal-\d+")


def normalise_svg(svg: str) -> str:
    """Replace Rich's content-hash ids so a one-cell change is a one-line diff."""
    return _SVG_ID.sub("terminal", svg)


@dataclass(frozen=True)
class RenderedSnapshot:
    text: str
    svg: str


class _PortalView(Widget):
    """The Portal body as the side panel draws it (a Static caches too eagerly for reuse)."""

    DEFAULT_CSS = """
    _PortalView { width: 1fr; height: auto; padding: 0 1; }
    """

    body: reactive[RenderableType] = reactive(Text(""), layout=True, always_update=True)

    def render(self) -> RenderableType:
        return self.body


class _SnapshotApp(App[None]):
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

    def compose(self) -> ComposeResult:
        yield ToolCard(self.registry, animate=False, id="card")
        with VerticalScroll(id="portal-frame"):
            yield _PortalView(id="portal")


def _export(strips: list[Strip], width: int, title: str) -> RenderedSnapshot:
    text = "\n".join(strip.text.rstrip() for strip in strips) + "\n"
    console = Console(
        width=width,
        height=max(1, len(strips)),
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    segments: list[Segment] = []
    for strip in strips:
        # Merging runs of one style keeps the SVG (and its diffs) small.
        segments.extend(Segment.simplify(strip))
        segments.append(Segment.line())
    console.print(Segments(segments), end="")
    return RenderedSnapshot(text=text, svg=normalise_svg(console.export_svg(title=title)))


class SnapshotRenderer:
    """Draws :class:`SnapshotCase` objects; one app for its whole life. Use as a context manager."""

    def __init__(
        self, catalog: Catalog, registry: SurfaceRegistry, *, settle: bool = False
    ) -> None:
        self.catalog = catalog
        self.registry = registry
        self.settle = settle
        self._loop = asyncio.new_event_loop()
        self._queue: asyncio.Queue[tuple[SnapshotCase, Future[RenderedSnapshot]] | None] | None = (
            None
        )
        self._ready: Future[None] = Future()
        self._thread = threading.Thread(target=self._run, name="snapshot-renderer", daemon=True)
        self._theme = "dark"

    def __enter__(self) -> SnapshotRenderer:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def start(self) -> None:
        self._thread.start()
        self._ready.result(timeout=60)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._serve())
        except BaseException as error:  # noqa: BLE001 - reported to whoever waits
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
                except Exception as error:  # noqa: BLE001 - the caller re-raises it
                    future.set_exception(error)

    async def _render(self, app: App[None], case: SnapshotCase) -> RenderedSnapshot:
        if case.theme != self._theme:
            app.theme = THEMES[case.theme]
            self._theme = case.theme
            for _ in range(3):
                await asyncio.sleep(0.01)
        script = self.catalog.script_for(case.ref)
        state = script.state_at(case.phase)
        manifest = (
            self.catalog.tools[case.tool].manifest if case.tool in self.catalog.tools else None
        )
        card = app.query_one(ToolCard)
        portal = app.query_one("#portal", _PortalView)
        target: Widget
        # Both widgets stay displayed (toggling display would need a stylesheet pass);
        # only the target's lines are read.
        if case.surface == "portal":
            frame = app.query_one("#portal-frame")
            frame.styles.width = case.width
            frame.scroll_home(animate=False)
            ctx = SurfaceContext(
                state=state,
                manifest=manifest,
                width=case.width - 2,
                palette=palette_for(app.current_theme),
            )
            portal.body = portal_renderable(ctx, self.registry)
            target = frame
        else:
            card.show(state, manifest)
            card.card_width = case.width
            target = card
        if self.settle or case.surface == "portal":
            # The slow, obviously right way (and the Portal's way: its scroll frame decides on
            # a scrollbar in a later layout pass): wait until the screen stops changing, then read
            # the composited screen. Kept to prove the fast way draws the same.
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
        # One turn of the loop lets the widgets process their refresh; then lay out once,
        # synchronously, and read only the target widget's lines.
        await asyncio.sleep(0)
        app.screen._refresh_layout()
        size = target.outer_size  # Padding included, as the screen shows it.
        strips = target.render_lines(Region(0, 0, size.width, size.height))
        return _export(strips, size.width, case.title)

    def render(self, case: SnapshotCase, timeout: float = 30.0) -> RenderedSnapshot:
        """Draw one case (thread-safe; calls are served in order)."""
        if self._queue is None:
            raise RuntimeError("the renderer is not started")
        future: Future[RenderedSnapshot] = Future()
        self._loop.call_soon_threadsafe(self._queue.put_nowait, (case, future))
        return future.result(timeout=timeout)

    def close(self) -> None:
        if self._thread.is_alive() and self._queue is not None:
            self._loop.call_soon_threadsafe(self._queue.put_nowait, None)
            self._thread.join(timeout=30)
