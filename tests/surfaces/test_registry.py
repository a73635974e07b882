"""The surface registry: per tool and API, injectable, with fallbacks and a crash boundary."""

from __future__ import annotations

import pytest
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from workbench.core import events as ev
from workbench.core.call_state import CallState, Phase
from workbench.core.reducer import reduce_all
from workbench.core.result import to_result
from workbench.surfaces.card import card_renderable, compose_card, surface_kind_for
from workbench.surfaces.context import SurfaceContext
from workbench.surfaces.registry import (
    GENERIC_SURFACES,
    SURFACE_KINDS,
    SurfaceKind,
    SurfaceRegistry,
    SurfaceSet,
)


def render_text(renderable: object, width: int = 70) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def done_state(content: str = "hello", state: object = None) -> CallState:
    return reduce_all(
        CallState(tool="demo", api="run"),
        [
            ev.ArgsComplete(args={"q": "x"}),
            ev.Started(),
            ev.Completed(to_result(success=True, content=content, state=state)),
        ],
    )


def test_every_kind_has_a_generic_fallback() -> None:
    registry = SurfaceRegistry()
    for kind in SURFACE_KINDS:
        resolved = registry.resolve("unknown-tool", "any", kind)
        assert resolved.fallback and resolved.surface is GENERIC_SURFACES[kind]


def test_registries_are_independent_objects() -> None:
    first, second = SurfaceRegistry(), SurfaceRegistry()
    first.register("demo", "run", SurfaceKind.RENDER, lambda ctx: Text("mine"))
    assert not first.resolve("demo", "run", SurfaceKind.RENDER).fallback
    assert second.resolve("demo", "run", SurfaceKind.RENDER).fallback


def test_registered_surfaces_win_per_tool_and_api_and_portal_per_tool() -> None:
    registry = SurfaceRegistry()
    registry.register_set(
        "demo",
        SurfaceSet(
            renders={"run": lambda ctx: Text("custom render")},
            portal=lambda ctx: Text(f"portal for {ctx.api_name}"),
        ),
    )
    ctx = SurfaceContext(state=done_state())
    assert "custom render" in render_text(card_renderable(ctx, registry))
    assert registry.resolve("demo", "other", SurfaceKind.RENDER).fallback
    assert not registry.resolve("demo", "any-api", SurfaceKind.PORTAL).fallback
    with pytest.raises(ValueError):
        registry.register("demo", "run", SurfaceKind.PORTAL, lambda ctx: None)


def test_surface_returning_none_falls_back_to_generic() -> None:
    registry = SurfaceRegistry()
    registry.register("demo", "run", SurfaceKind.RENDER, lambda ctx: None)
    view = compose_card(SurfaceContext(state=done_state("generic content")), registry)
    assert view.body_fallback
    assert "generic content" in render_text(view.body)


def test_a_surface_that_raises_becomes_an_error_box() -> None:
    def broken(ctx: SurfaceContext) -> Text:
        raise KeyError("results")

    registry = SurfaceRegistry()
    registry.register("demo", "run", SurfaceKind.RENDER, broken)
    text = render_text(card_renderable(SurfaceContext(state=done_state()), registry))
    assert "render surface of demo/run crashed" in text
    assert "KeyError: 'results'" in text


def test_a_renderable_that_raises_while_rendering_is_contained() -> None:
    class Exploding:
        def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
            raise ZeroDivisionError("late failure")
            yield  # pragma: no cover

    registry = SurfaceRegistry()
    registry.register("demo", "run", SurfaceKind.INSPECTOR, lambda ctx: Exploding())
    text = render_text(card_renderable(SurfaceContext(state=done_state()), registry))
    assert (
        "inspector surface of demo/run crashed" in text
        and "ZeroDivisionError: late failure" in text
    )


@pytest.mark.parametrize(
    ("phase", "kind"),
    [
        (Phase.ARGS_STREAMING, None),
        (Phase.AWAITING_APPROVAL, SurfaceKind.INTERVENTION),
        (Phase.EXECUTING, SurfaceKind.PLACEHOLDER),
        (Phase.STREAMING_OUTPUT, SurfaceKind.STREAMING),
        (Phase.DONE, SurfaceKind.RENDER),
        (Phase.TIMED_OUT, SurfaceKind.RENDER),
    ],
)
def test_phase_picks_the_surface(phase: Phase, kind: SurfaceKind | None) -> None:
    assert surface_kind_for(phase) is kind


HOSTILE = ["[bold]x[/]", "[@click=app.quit]q[/]", "[/bold]", "before\x1b]52;c;aGk=\x07after"]


@pytest.mark.parametrize("content", HOSTILE)
def test_hostile_content_shows_literally_in_generic_surfaces(content: str) -> None:
    registry = SurfaceRegistry()
    ctx = SurfaceContext(state=done_state(content, state={"title": content}))
    text = render_text(card_renderable(ctx, registry), width=100)
    assert "\x1b" not in text
    # Shown as it is (what the model reads), with the escape made visible, never acted on.
    expected = content.replace("\x1b", "␛").replace("\x07", "␇")
    assert expected in text
    portal = render_text(GENERIC_SURFACES[SurfaceKind.PORTAL](ctx), width=100)
    assert expected in portal and "\x1b" not in portal
