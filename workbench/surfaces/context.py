"""What a surface is given: the call state, the tool's manifest, the width and the colours."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from workbench.core.call_state import CallState, Phase
from workbench.core.manifest import ToolApi, ToolManifest
from workbench.core.output_buffer import OutputBuffer
from workbench.core.result import ToolError, ToolResult

if TYPE_CHECKING:
    from workbench.fixtures.catalog import Catalog, VariantRef


@dataclass(frozen=True, slots=True)
class Palette:
    """Theme colours as plain strings, so surfaces stay free of Textual.

    Every colour a surface writes text in (``primary`` to ``muted``) reaches 4.5:1 against
    ``background``, and ``divider`` reaches 3:1: ``palette_for`` derives them from the theme
    and ``workbench audit`` checks what was drawn.
    """

    primary: str = "#0180e1"
    secondary: str = "#0081df"
    accent: str = "#ffa62b"
    success: str = "#4ebf71"
    warning: str = "#ffa62b"
    error: str = "#c95974"
    foreground: str = "#e0e0e0"
    muted: str = "#8a8f98"
    panel: str = "#242f38"
    surface: str = "#1e1e1e"
    background: str = "#121212"
    """What surfaces are drawn on (the card's and the Portal's background)."""
    divider: str = "#6f6f6f"
    """Rules and other quiet decoration."""
    dark: bool = True

    @property
    def subject(self) -> str:
        """The colour of the object an Inspector names (a path, a query, a command)."""
        return self.primary if self.dark else self.secondary


DARK_PALETTE = Palette()
"""``palette_for`` of Textual's ``textual-dark`` theme (a test keeps them equal)."""
LIGHT_PALETTE = Palette(
    primary="#004578",
    secondary="#0164b0",
    accent="#905400",
    success="#286f3e",
    warning="#905400",
    error="#ac3854",
    foreground="#1f1f1f",
    muted="#5c636c",
    panel="#d0d0d0",
    surface="#d8d8d8",
    background="#e0e0e0",
    divider="#7d7d7d",
    dark=False,
)
"""``palette_for`` of Textual's ``textual-light`` theme (a test keeps them equal)."""


@dataclass(frozen=True, slots=True)
class SurfaceContext:
    """The props of every surface. Surfaces never learn whether a call was replayed or live."""

    state: CallState
    manifest: ToolManifest | None = None
    width: int = 80
    palette: Palette = field(default=DARK_PALETTE)
    frame: int = 0
    """Animation frame for spinners; 0 in snapshots so nothing moves."""

    @property
    def tool(self) -> str:
        return self.state.tool

    @property
    def api_name(self) -> str:
        return self.state.api

    @property
    def api(self) -> ToolApi | None:
        return self.manifest.get_api(self.state.api) if self.manifest is not None else None

    @property
    def title(self) -> str:
        return self.manifest.meta.title if self.manifest is not None else self.state.tool

    @property
    def emoji(self) -> str:
        return self.manifest.meta.emoji if self.manifest is not None else "🔧"

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def args(self) -> dict[str, Any]:
        """Final args when complete, else the partial args streamed so far."""
        return self.state.known_args

    def list_arg(self, name: str) -> list[Any]:
        """The argument ``name`` when it is a list (partial args may hold anything else)."""
        value = self.args.get(name)
        return value if isinstance(value, list) else []

    @property
    def is_loading(self) -> bool:
        return self.state.is_loading

    @property
    def is_active(self) -> bool:
        """Still going: args streaming or the call running ("-ing" wording applies)."""
        return self.state.is_args_streaming or self.state.is_loading

    @property
    def result(self) -> ToolResult | None:
        return self.state.result

    @property
    def content(self) -> str:
        return self.state.result.content if self.state.result is not None else ""

    @property
    def result_state(self) -> Any:
        """The result's ``state`` (the UI's structured data), or ``None``."""
        return self.state.result.state if self.state.result is not None else None

    @property
    def error(self) -> ToolError | None:
        return self.state.error

    @property
    def output(self) -> OutputBuffer:
        return self.state.output

    @property
    def inner_width(self) -> int:
        """Width available inside the card's border and padding."""
        return max(20, self.width - 4)


def variant_context(
    catalog: Catalog,
    ref: VariantRef,
    phase: Phase,
    *,
    width: int,
    palette: Palette = DARK_PALETTE,
    frame: int = 0,
) -> SurfaceContext:
    """The context ``ref``'s surfaces are drawn with at ``phase``: its call state then, its
    tool's manifest (``None`` for a tool the catalog does not know), ``width`` and ``palette``.

    The one place a fixture variant becomes surface props, so ``show``, the snapshot drawer,
    the tool card and the audit cannot disagree about what a case is drawn from.
    """
    return SurfaceContext(
        state=catalog.script_for(ref).state_at(phase),
        manifest=catalog.manifest_for(ref.tool),
        width=width,
        palette=palette,
        frame=frame,
    )
