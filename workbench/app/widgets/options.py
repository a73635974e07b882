"""The options every Textual widget takes, named once for the widgets that pass them on."""

from __future__ import annotations

from typing import TypedDict


class WidgetOptions(TypedDict, total=False):
    """``name``, ``id``, ``classes`` and ``disabled``, as :class:`textual.widget.Widget` takes
    them: a widget's ``__init__(..., **options: Unpack[WidgetOptions])`` hands them on whole."""

    name: str | None
    id: str | None
    classes: str | None
    disabled: bool


class ScreenOptions(TypedDict, total=False):
    """``name``, ``id`` and ``classes``, as :class:`textual.screen.Screen` takes them."""

    name: str | None
    id: str | None
    classes: str | None
