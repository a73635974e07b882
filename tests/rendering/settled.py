"""The settle oracle: snapshot cases drawn the slow, obviously right way.

One headless app shows the real ``ToolCard`` (and the Portal in its side-panel frame) for
each case in turn and reads the composited screen once it stops changing. The renderer's
direct drawing must equal this; it lives here, not in ``workbench.rendering``, so the
renderer never imports the app.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.reactive import reactive
from textual.widget import Widget

from workbench.app.palette import palette_for
from workbench.app.widgets.tool_card import ToolCard
from workbench.fixtures.catalog import Catalog
from workbench.rendering.environment import PinnedColours
from workbench.rendering.matrix import COLLAPSED, SnapshotCase
from workbench.rendering.renderer import (
    PORTAL_VIEW_HEIGHT,
    SCREEN_SIZE,
    RenderedSnapshot,
    SnapshotRenderer,
    export_snapshot,
)
from workbench.rendering.screen import screen_strips, settle
from workbench.surfaces.card import portal_renderable
from workbench.surfaces.context import variant_context
from workbench.surfaces.registry import SurfaceRegistry
from workbench.surfaces.themes import CaseTheme, theme_facts


class PortalView(Widget):
    """The Portal body as the side panel draws it (a Static caches too eagerly for reuse)."""

    DEFAULT_CSS = """
    PortalView { width: 1fr; height: auto; padding: 0 1; }
    """

    body: reactive[RenderableType] = reactive(Text(""), layout=True, always_update=True)

    def render(self) -> RenderableType:
        return self.body


class SettleApp(PinnedColours):
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
        self.theme = theme_facts(CaseTheme.DARK).textual_name  # Whatever TEXTUAL_THEME says.

    def compose(self) -> ComposeResult:
        yield ToolCard(self.registry, animate=False, id="card")
        with VerticalScroll(id="portal-frame"):
            yield PortalView(id="portal")


async def _draw(app: SettleApp, catalog: Catalog, case: SnapshotCase) -> RenderedSnapshot:
    target: Widget
    # Both widgets stay displayed (toggling display would need a stylesheet pass); only the
    # target's lines are read.
    if case.surface == "portal":
        frame = app.query_one("#portal-frame")
        frame.styles.width = case.width
        frame.scroll_home(animate=False)
        ctx = variant_context(
            catalog,
            case.ref,
            case.phase,
            width=case.width - 2,
            palette=palette_for(app.current_theme),
        )
        app.query_one("#portal", PortalView).body = portal_renderable(ctx, app.registry)
        target = frame
    else:
        card = app.query_one(ToolCard)
        card.show_variant(catalog, case.ref, case.phase)
        card.expanded = case.surface != COLLAPSED
        card.card_width = case.width
        target = card
    # Wait until the screen stops changing (the Portal's frame decides on a scrollbar in a
    # later layout pass), then read the composited screen.
    pilot = Pilot(app)
    await settle(pilot)
    if target.region.bottom > app.size.height:
        await pilot.resize_terminal(SCREEN_SIZE[0], target.region.bottom + 1)
        await settle(pilot)
    region = target.region
    strips = [
        strip.crop(region.x, region.right) for strip in screen_strips(app)[region.y : region.bottom]
    ]
    return export_snapshot(strips, region.width, case.title)


async def _draw_all(
    catalog: Catalog, registry: SurfaceRegistry, cases: Sequence[SnapshotCase]
) -> list[RenderedSnapshot]:
    direct = SnapshotRenderer(catalog, registry)
    drawn: list[RenderedSnapshot] = []
    app = SettleApp(registry)
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        await pilot.pause()
        theme = CaseTheme.DARK
        for case in cases:
            if case.host is not None:
                # A host's view is a drawing of the card (or of text), not a widget's.
                drawn.append(direct.render(case))
                continue
            if case.theme != theme:
                app.theme = theme_facts(case.theme).textual_name
                theme = case.theme
                for _ in range(3):
                    await asyncio.sleep(0.01)
            drawn.append(await _draw(app, catalog, case))
    return drawn


def settled_snapshots(
    catalog: Catalog, registry: SurfaceRegistry, cases: Sequence[SnapshotCase]
) -> list[RenderedSnapshot]:
    """Each case as the app shows it once its screen settles, in order (one app for all)."""
    return asyncio.run(_draw_all(catalog, registry, cases))
