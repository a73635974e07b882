"""The crash boundary: a surface that raises becomes an error box, never a dead app.

Surfaces can fail twice: when called (building the renderable) and later when Rich renders
what they returned. :func:`run_surface` catches the first; :class:`SurfaceBoundary` renders
eagerly inside its own ``try`` so the second is caught too.
"""

from __future__ import annotations

import traceback

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from rich.text import Text

from workbench.core.sanitize import clean, is_safe
from workbench.surfaces.context import Palette, SurfaceContext
from workbench.surfaces.kit import error_box
from workbench.surfaces.registry import ResolvedSurface


def crash_box(
    tool: str, api: str, kind: str, error: BaseException, palette: Palette
) -> RenderableType:
    """The box shown in place of a surface that raised."""
    frames = traceback.extract_tb(error.__traceback__)
    where = (
        f"{frames[-1].name} ({frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno})"
        if frames
        else ""
    )
    detail = Text(f"at {where}", style=palette.muted) if where else Text("")
    return error_box(
        f"{kind} surface of {tool}/{api} crashed",
        f"{type(error).__name__}: {error}",
        palette,
        details=[detail],
    )


class SurfaceBoundary:
    """Renders ``renderable`` in full, or an error box if rendering raises."""

    def __init__(
        self, renderable: RenderableType, *, tool: str, api: str, kind: str, palette: Palette
    ) -> None:
        self.renderable = renderable
        self.tool = tool
        self.api = api
        self.kind = kind
        self.palette = palette

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        try:
            lines = console.render_lines(
                self.renderable, options.update(height=None), pad=False, new_lines=False
            )
        except Exception as error:  # noqa: BLE001 - any surface bug must be contained
            lines = console.render_lines(
                crash_box(self.tool, self.api, self.kind, error, self.palette),
                options.update(height=None),
                pad=False,
            )
        for line in lines:
            for segment in line:
                # The last line of defence: whatever a surface built, no control or escape
                # sequence leaves this boundary.
                if segment.text and not is_safe(segment.text):
                    segment = Segment(
                        clean(segment.text).replace("\n", " "), segment.style, segment.control
                    )
                yield segment
            yield Segment.line()


def run_surface(resolved: ResolvedSurface, ctx: SurfaceContext) -> RenderableType | None:
    """Call a surface inside the boundary; ``None`` means it has nothing to show."""
    try:
        renderable = resolved.surface(ctx)
    except Exception as error:  # noqa: BLE001 - any surface bug must be contained
        return crash_box(ctx.tool, ctx.api_name, resolved.kind.value, error, ctx.palette)
    if renderable is None:
        return None
    return SurfaceBoundary(
        renderable, tool=ctx.tool, api=ctx.api_name, kind=resolved.kind.value, palette=ctx.palette
    )
