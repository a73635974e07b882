"""What a drawing could take from the environment, pinned: snapshots are the same everywhere.

Rich reads ``NO_COLOR``, ``FORCE_COLOR``, ``TERM``, ``COLUMNS``, ``LINES``, ``TTY_COMPATIBLE``
and more when a console is made; Textual reads ``NO_COLOR`` (a monochrome filter),
``TEXTUAL_FILTERS`` (a dim filter), ``TEXTUAL_THEME`` (the first theme) and
``TEXTUAL_DIM_FACTOR`` (how dim text is blended, bound as a default argument when Textual is
imported). A snapshot, an audit or a review decision must not change with any of them, so
every console here gets an empty environment and a headless app that draws a snapshot (a
tool card, or the whole app) pins its filters with :class:`PinnedColours`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from rich.color import Color as RichColor
from rich.style import Style
from rich.terminal_theme import TerminalTheme
from textual.app import App
from textual.filter import NO_DIM, ANSIToTruecolor, LineFilter, dim_color

PINNED_ENVIRON: Mapping[str, str] = {}
"""What Rich consoles that draw snapshots see of the environment: nothing."""

DIM_FACTOR = 0.66
"""Textual's own default for blending dim text into its background (``TEXTUAL_DIM_FACTOR``)."""


class PinnedANSIToTruecolor(ANSIToTruecolor):
    """Textual's ANSI-to-truecolour filter with the dim factor fixed, not read from the
    environment. The body follows Textual 8.2.8's (Textual is pinned exactly)."""

    @lru_cache(1024)  # noqa: B019 - one filter per theme lives as long as the process anyway
    def truecolor_style(self, style: Style, background: RichColor) -> Style:
        terminal_theme = self._terminal_theme
        changed = False
        color = style.color
        if color is not None and color.triplet is None:
            color = RichColor.from_triplet(color.get_truecolor(terminal_theme, foreground=True))
            changed = True
        bgcolor = style.bgcolor
        if bgcolor is not None and bgcolor.triplet is None:
            bgcolor = RichColor.from_triplet(
                bgcolor.get_truecolor(terminal_theme, foreground=False)
            )
            changed = True
        if style.dim and color is not None:
            color = dim_color(background if bgcolor is None else bgcolor, color, DIM_FACTOR)
            style += NO_DIM
            changed = True
        return style + Style.from_color(color, bgcolor) if changed else style


@lru_cache(maxsize=8)
def ansi_filter(terminal_theme: TerminalTheme) -> PinnedANSIToTruecolor:
    """The one filter a snapshot's lines go through, for the terminal theme of its app theme."""
    return PinnedANSIToTruecolor(terminal_theme)


class PinnedColours(App[Any]):
    """Put first among an app's bases to draw snapshots: whatever ``NO_COLOR``,
    ``TEXTUAL_FILTERS`` and ``TEXTUAL_DIM_FACTOR`` say, its lines go through one filter, the
    ANSI-to-truecolour one of its theme with the fixed dim factor, and ``:nocolor`` never
    matches. (Textual reads them into ``App.__init__`` and its imports, not per frame.)"""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.no_color = False

    def get_line_filters(self) -> Sequence[LineFilter]:
        return [ansi_filter(self.ansi_theme)]
