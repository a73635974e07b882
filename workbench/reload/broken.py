"""What a tool whose code no longer loads shows: its error, in every surface.

After an edit that breaks a tool's module (a syntax error, an exception at import), the card
must neither die nor keep drawing the previous version as if nothing happened. The tool keeps
its last manifest (so its fixtures stay where they were in the tree) and gets these surfaces:
one line in the Inspector, and in every other place a box with the error, the file and line,
and that line of code.
"""

from __future__ import annotations

import linecache
from collections.abc import Iterable

from rich.console import RenderableType
from rich.text import Text

from workbench.core.problems import Problem
from workbench.surfaces import kit
from workbench.surfaces.context import SurfaceContext
from workbench.surfaces.registry import Surface, SurfaceSet


def _where(problem: Problem) -> str:
    name = problem.file.replace("\\", "/").rsplit("/", 1)[-1]
    return f"{name}:{problem.line}" if problem.line is not None else name


def _reason(problem: Problem) -> str:
    """``SyntaxError: invalid syntax`` out of the load problem's message."""
    return problem.message.rsplit("): ", 1)[-1]


def _first_line(problem: Problem) -> str:
    """The reason's first line: pydantic's errors run over several."""
    return _reason(problem).strip().splitlines()[0] if _reason(problem).strip() else ""


def broken_inspector(problem: Problem) -> Surface:
    def inspector(ctx: SurfaceContext) -> RenderableType:
        palette = ctx.palette
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append("✗ Does not load", style=f"bold {palette.error}")
        line.append_text(kit.text(f": {_first_line(problem)}", palette.error))
        line.append(f" at {_where(problem)}", style=palette.muted)
        return line

    return inspector


def broken_surface(problem: Problem) -> Surface:
    def surface(ctx: SurfaceContext) -> RenderableType:
        palette = ctx.palette
        details: list[RenderableType] = []
        # The line of code first: a short card clips the box, and the code is what an author
        # needs to see; the full path comes after it.
        if problem.line is not None:
            linecache.checkcache(problem.file)
            code = linecache.getline(problem.file, problem.line).rstrip()
            if code:
                line = kit.text(f"{problem.line:>4} │ {code}")
                line.no_wrap, line.overflow = True, "ellipsis"
                details.append(line)
        where = problem.file if problem.line is None else f"{problem.file}:{problem.line}"
        details.append(kit.text(f"at {where}", palette.muted))
        details.append(
            Text(
                "the previous version is not shown: save a fix and this card redraws",
                style=f"italic {palette.muted}",
            )
        )
        return kit.error_box(
            f"{ctx.title} does not load", _reason(problem), palette, details=details
        )

    return surface


def broken_surfaces(problem: Problem, apis: Iterable[str]) -> SurfaceSet:
    """Every surface of every API (and the Portal) showing ``problem``."""
    names = list(apis)
    inspector = broken_inspector(problem)
    surface = broken_surface(problem)
    return SurfaceSet(
        inspectors=dict.fromkeys(names, inspector),
        placeholders=dict.fromkeys(names, surface),
        streamings=dict.fromkeys(names, surface),
        renders=dict.fromkeys(names, surface),
        interventions=dict.fromkeys(names, surface),
        portal=surface,
    )
