"""The crash box points at the author's line: a surface that fails inside Rich, the standard
library or the surface kit is located where the author's code called it."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.text import Text

from tests.surfaces.test_registry import done_state, render_text
from workbench.surfaces import kit
from workbench.surfaces.card import card_renderable
from workbench.surfaces.context import SurfaceContext
from workbench.surfaces.registry import SurfaceKind, SurfaceRegistry

HERE = Path(__file__)


def line_of(marker: str) -> int:
    """The line of this file that ends with ``# marker``."""
    lines = HERE.read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if line.endswith(f"# {marker}"))


def card_text(kind: SurfaceKind, surface: object) -> str:
    registry = SurfaceRegistry()
    registry.register("demo", "run", kind, surface)  # type: ignore[arg-type]
    return render_text(card_renderable(SurfaceContext(state=done_state()), registry), width=120)


class Malformed:
    """A renderable whose drawing fails in the standard library, called from the author's."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Text(json.loads("{broken"))  # author-line


def test_a_failure_while_drawing_names_the_authors_frame_not_the_librarys() -> None:
    text = card_text(SurfaceKind.RENDER, lambda ctx: Malformed())
    assert "render surface of demo/run crashed" in text
    assert f"at __rich_console__ (test_boundary.py:{line_of('author-line')})" in text
    assert "decoder.py" not in text


def plural_of_a_word(ctx: SurfaceContext) -> Text:
    return kit.text(kit.plural(ctx.args["q"], "item"))  # type: ignore[arg-type]  # kit-call


def test_a_failure_inside_the_kit_names_the_surface_line_that_called_it() -> None:
    text = card_text(SurfaceKind.INSPECTOR, plural_of_a_word)
    assert "inspector surface of demo/run crashed" in text
    assert f"at plural_of_a_word (test_boundary.py:{line_of('kit-call')})" in text
    assert "kit.py" not in text


def not_renderable(ctx: SurfaceContext) -> Group:  # returns-a-bad-group
    return Group(Text("a row"), ctx.args)


def test_a_failure_with_no_author_frame_names_the_surface_that_returned_it() -> None:
    # Rich finds the dict it cannot draw only when it draws: the surface has returned by then.
    text = card_text(SurfaceKind.RENDER, not_renderable)
    assert "render surface of demo/run crashed" in text
    assert "NotRenderableError" in text
    line = line_of("returns-a-bad-group")
    assert f"while drawing what not_renderable (test_boundary.py:{line}) returned" in text
