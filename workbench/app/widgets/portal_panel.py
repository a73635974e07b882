"""The Portal side panel: the tool's full view of the current call."""

from __future__ import annotations

from typing import Unpack

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.markup import escape as escape_markup
from textual.widgets import Static

from workbench.app.palette import palette_for
from workbench.app.widgets.options import WidgetOptions
from workbench.core.call_state import CallState
from workbench.core.manifest import ToolManifest
from workbench.surfaces.card import portal_renderable
from workbench.surfaces.context import SurfaceContext
from workbench.surfaces.registry import SurfaceKind, SurfaceRegistry

MIN_PORTAL_WIDTH = 40
"""The Portal is drawn at its panel's width, never narrower than this."""


class PortalPanel(VerticalScroll):
    """One Portal per tool, routed on the API; the generic one when a tool has none.

    The Portal is drawn at the panel's own width, which its ``CallView`` sets (docked beside
    the card, or over it when the pane is narrow).
    """

    DEFAULT_CSS = """
    PortalPanel {
        width: 64;
        height: 1fr;
        border-left: vkey $primary;
        border-top: hkey $primary;
        border-title-color: $text;
        padding: 0 1;
        display: none;
        scrollbar-gutter: stable;
        scrollbar-size-vertical: 1;
        &.-open { display: block; }
    }
    """

    def __init__(
        self,
        registry: SurfaceRegistry,
        **options: Unpack[WidgetOptions],
    ) -> None:
        super().__init__(**options)
        self.registry = registry
        self.fallback = True
        self._shown: tuple[CallState | None, ToolManifest | None] = (None, None)
        self._pinned: tuple[str, RenderableType] | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text(""), id="portal-body")

    @property
    def is_open(self) -> bool:
        return self.has_class("-open")

    def toggle(self) -> bool:
        self._pinned = None
        self.toggle_class("-open")
        return self.is_open

    def on_mount(self) -> None:
        self.watch(self.app, "theme", lambda _: self._redraw(), init=False)

    def on_resize(self) -> None:
        if self.is_open:
            self._redraw()

    @property
    def draw_width(self) -> int:
        """Columns the Portal surface is drawn at: the panel's, less its frame."""
        return max(MIN_PORTAL_WIDTH, self.scrollable_content_region.width)

    @property
    def pinned(self) -> bool:
        """The Portal shows a resource or a prompt; calls do not replace it until it is
        toggled or :meth:`unpin` is called."""
        return self._pinned is not None

    def show_renderable(self, title: str, renderable: RenderableType) -> None:
        """Show something other than a call (a resource, a prompt) and pin it."""
        self._pinned = (title, renderable)
        self.border_title = escape_markup(f"Portal · {title}")
        self.query_one("#portal-body", Static).update(renderable)

    def unpin(self) -> None:
        """Show the call again instead of the pinned resource or prompt."""
        if self._pinned is not None:
            self._pinned = None
            self.show(*self._shown)

    def _redraw(self) -> None:
        if self._pinned is not None:
            self.show_renderable(*self._pinned)
        else:
            self.show(*self._shown)

    def show(self, state: CallState | None, manifest: ToolManifest | None) -> None:
        """Draw ``state``'s Portal (only remembered while a resource or prompt is pinned)."""
        self._shown = (state, manifest)
        if self._pinned is not None:
            return
        body = self.query_one("#portal-body", Static)
        if state is None:
            body.update(Text("No call selected.", style="dim"))
            return
        self.fallback = not self.registry.has_own(state.tool, state.api, SurfaceKind.PORTAL)
        self.border_title = escape_markup(
            f"Portal · {state.tool}" + (" (generic)" if self.fallback else "")
        )
        ctx = SurfaceContext(
            state=state,
            manifest=manifest,
            width=self.draw_width,
            palette=palette_for(self.app.current_theme),
        )
        body.update(portal_renderable(ctx, self.registry))
