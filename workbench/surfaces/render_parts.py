"""The steps every tool's Render repeats, in one place a tool imports through ``workbench.api``.

A Render draws a result, but first it gives way to how the call ended (skipped, blocked,
cancelled, timed out: :func:`outcome_view`), then to an error view, then reads the result's
``state`` (:func:`result_state`) and draws nothing until the key it needs is there.
:func:`result_render` does all four, so the function it wraps starts at the drawing. A
Placeholder leads with a spinner line (:func:`pending_line`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from workbench.surfaces import kit
from workbench.surfaces.context import SurfaceContext

ErrorView = Callable[[SurfaceContext], RenderableType | None]
"""Draws a failed call's error, or returns ``None`` when there is no error to draw."""
Render = Callable[[SurfaceContext], RenderableType | None]
StateRender = Callable[[SurfaceContext, dict[str, Any]], RenderableType | None]
"""A Render's drawing part: given the context and the result's ``state``."""


def outcome_view(
    ctx: SurfaceContext, what: str, error_view: ErrorView | None = None
) -> RenderableType | None:
    """What a Render shows instead of a result, or ``None`` when there is a result to draw.

    The ending notice comes first (:func:`kit.ending_notice <workbench.surfaces.kit.ending_notice>`
    with ``what``, e.g. ``"the search"``), then ``error_view(ctx)`` when one is given.
    """
    notice = kit.ending_notice(ctx, what=what)
    if notice is not None:
        return notice
    return error_view(ctx) if error_view is not None else None


def result_state(ctx: SurfaceContext) -> dict[str, Any]:
    """The result's ``state`` when it is an object, else ``{}`` (no result yet, or another
    shape): a Render reads keys from it without checking its type first."""
    state = ctx.result_state
    return state if isinstance(state, dict) else {}


def pending_line(ctx: SurfaceContext, verb: str, subject: str) -> Text:
    """A spinner, ``verb`` muted and ``subject`` in bold, on one line cut with an ellipsis
    (``⠋ reading notes.md``)."""
    line = kit.join(
        (f"{kit.spinner(ctx.frame)} {verb} ", ctx.palette.muted), kit.text(subject, "bold")
    )
    line.no_wrap = True
    line.overflow = "ellipsis"
    return line


def result_render(
    what: str, *, needs: str | None = None, error_view: ErrorView | None = None
) -> Callable[[StateRender], Render]:
    """Make a Render from the function that draws a result's ``state``.

    The Render returns :func:`outcome_view` when there is one (the ending notice for
    ``what``, then ``error_view``), ``None`` while ``state`` lacks the key ``needs``, and
    otherwise what the decorated function draws::

        @result_render("the search", needs="results", error_view=search_error)
        def search_render(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
            ...
    """

    def decorate(draw: StateRender) -> Render:
        @functools.wraps(draw)
        def render(ctx: SurfaceContext) -> RenderableType | None:
            shown = outcome_view(ctx, what, error_view)
            if shown is not None:
                return shown
            state = result_state(ctx)
            if needs is not None and needs not in state:
                return None
            return draw(ctx, state)

        return render

    return decorate
