"""The steps every tool's Render repeats, in one place a tool imports through ``workbench.api``.

A Render draws a result, but first it gives way to how the call ended (skipped, blocked,
cancelled, timed out: :func:`outcome_view`), then to an error view, then reads the result's
``state`` (:func:`result_state`). A Placeholder leads with a spinner line
(:func:`pending_line`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from workbench.surfaces import kit
from workbench.surfaces.context import SurfaceContext

ErrorView = Callable[[SurfaceContext], RenderableType | None]
"""Draws a failed call's error, or returns ``None`` when there is no error to draw."""


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
