"""One line of chrome that shortens part by part, so what tells cases apart stays visible."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rich.cells import cell_len
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from workbench.core.sanitize import clean
from workbench.surfaces.kit import shorten

SEPARATOR = "  ·  "
NARROW_SEPARATOR = " · "


@dataclass(frozen=True)
class StatusPart:
    """One piece of a status line.

    Parts give way in order of ``priority`` (lowest first): each is shortened with ``…``
    (``where``: at its ``end`` or in its ``middle``, which keeps a ``file#variant``'s
    variant) down to ``min_cells`` and then, if ``droppable`` and the line is still too
    long, left out, before the next part gives anything.
    """

    text: str
    style: str = ""
    priority: int = 0
    where: Literal["end", "middle"] = "end"
    min_cells: int = 8
    droppable: bool = True


def fit_parts(parts: Sequence[StatusPart], width: int) -> Text:
    """``parts`` joined on one line of at most ``width`` cells, lowest priorities giving way."""
    texts = [clean(part.text) for part in parts]
    kept = [bool(text) for text in texts]
    separator = SEPARATOR

    def total() -> int:
        shown = [text for text, keep in zip(texts, kept, strict=True) if keep]
        return sum(cell_len(text) for text in shown) + cell_len(separator) * max(0, len(shown) - 1)

    order = sorted(range(len(parts)), key=lambda index: parts[index].priority)
    if total() > width:
        separator = NARROW_SEPARATOR
    # Lowest priority first, each part shortens to its minimum, then (if it may) goes; only
    # then are the parts left shortened below their minimums.
    for index in order:
        excess = total() - width
        if excess <= 0:
            break
        length = cell_len(texts[index])
        target = max(parts[index].min_cells, length - excess)
        if target < length:
            texts[index] = shorten(texts[index], target, where=parts[index].where)
        if total() > width and parts[index].droppable:
            kept[index] = False
    for index in order:
        excess = total() - width
        if excess <= 0:
            break
        if kept[index]:
            length = cell_len(texts[index])
            texts[index] = shorten(texts[index], max(1, length - excess), where=parts[index].where)
    line = Text(no_wrap=True, overflow="ellipsis", end="")
    first = True
    for part, text, keep in zip(parts, texts, kept, strict=True):
        if not keep:
            continue
        if not first:
            line.append(separator, style="dim")
        line.append(text, style=part.style)
        first = False
    return line


class StatusLine(Widget):
    """A status line of :class:`StatusPart`; redrawn to fit whenever its width changes."""

    DEFAULT_CSS = """
    StatusLine {
        height: 1;
        width: 1fr;
        padding: 0 1;
        background: $boost;
        color: $text-muted;
    }
    """

    parts: reactive[tuple[StatusPart, ...]] = reactive(())
    """What the line says, in reading order."""

    def render(self) -> Text:
        return fit_parts(self.parts, max(1, self.content_size.width))

    @property
    def plain(self) -> str:
        """The whole line, unshortened (for tests and copying)."""
        return SEPARATOR.join(clean(part.text) for part in self.parts if part.text)
