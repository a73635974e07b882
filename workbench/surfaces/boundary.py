"""The crash boundary: a surface that raises becomes an error box, never a dead app.

Surfaces can fail twice: when called (building the renderable) and later when Rich renders
what they returned. :func:`run_surface` catches the first; :class:`SurfaceBoundary` renders
eagerly inside its own ``try`` so the second is caught too.
"""

from __future__ import annotations

import inspect
import sysconfig
import traceback
from pathlib import Path
from types import CodeType

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from rich.text import Text

from workbench.core.sanitize import clean, is_safe
from workbench.surfaces.context import Palette, SurfaceContext
from workbench.surfaces.kit import error_box
from workbench.surfaces.registry import ResolvedSurface

_LIBRARIES = tuple(
    {Path(sysconfig.get_path(name)).resolve() for name in ("stdlib", "purelib", "platlib")}
)
_KIT = Path(__file__).resolve().parent
"""The surface kit and this boundary: Workbench's frames, never the author's mistake."""


def _home(surface: object) -> tuple[Path, str] | None:
    """The folder and ``name (file:line)`` of the function that is ``surface``."""
    code = getattr(inspect.unwrap(surface) if callable(surface) else surface, "__code__", None)
    if not isinstance(code, CodeType) or code.co_filename.startswith("<"):
        return None
    name = getattr(surface, "__qualname__", code.co_name)
    where = f"{name} ({Path(code.co_filename).name}:{code.co_firstlineno})"
    return Path(code.co_filename).resolve().parent, where


def _under(filename: str, folder: Path) -> bool:
    return Path(filename).resolve().is_relative_to(folder)


def crash_place(error: BaseException, surface: object = None) -> list[str]:
    """Where ``error`` happened, as the author looks for it: the innermost frame in the
    surface's own folder, else outside Rich, the standard library and the kit, else the
    innermost; and when the author's code is not on the stack at all (a bad style met while
    drawing), which surface returned what was being drawn."""
    frames = traceback.extract_tb(error.__traceback__)
    home = _home(surface)
    in_home = [frame for frame in frames if home and _under(frame.filename, home[0])]
    own = [
        frame
        for frame in frames
        if not any(_under(frame.filename, folder) for folder in (*_LIBRARIES, _KIT))
    ]
    places: list[str] = []
    for found in (in_home, own, frames):
        if found:
            frame = found[-1]
            places.append(f"at {frame.name} ({Path(frame.filename).name}:{frame.lineno})")
            break
    if home and not in_home:
        places.append(f"while drawing what {home[1]} returned")
    return places


def crash_box(
    tool: str,
    api: str,
    kind: str,
    error: BaseException,
    palette: Palette,
    *,
    surface: object = None,
) -> RenderableType:
    """The box shown in place of a surface that raised (``surface`` is the function, to point
    at the author's line rather than at Rich's)."""
    return error_box(
        f"{kind} surface of {tool}/{api} crashed",
        f"{type(error).__name__}: {error}",
        palette,
        details=[Text(place, style=palette.muted) for place in crash_place(error, surface)],
    )


class SurfaceBoundary:
    """Renders ``renderable`` in full, or an error box if rendering raises."""

    def __init__(
        self,
        renderable: RenderableType,
        *,
        tool: str,
        api: str,
        kind: str,
        palette: Palette,
        surface: object = None,
    ) -> None:
        self.renderable = renderable
        self.surface = surface
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
                crash_box(
                    self.tool, self.api, self.kind, error, self.palette, surface=self.surface
                ),
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
        return crash_box(
            ctx.tool,
            ctx.api_name,
            resolved.kind.value,
            error,
            ctx.palette,
            surface=resolved.surface,
        )
    if renderable is None:
        return None
    return SurfaceBoundary(
        renderable,
        tool=ctx.tool,
        api=ctx.api_name,
        kind=resolved.kind.value,
        palette=ctx.palette,
        surface=resolved.surface,
    )
