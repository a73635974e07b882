"""The phase stepper: a call's lifecycle phases in order, the current one always in view."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from workbench.core.call_state import Phase

ARROW = " › "
GAP = "…"


def visible_window(labels: Sequence[str], current: int, width: int) -> tuple[int, int]:
    """The slice ``[start, end)`` of ``labels`` that fits ``width`` cells with ``current`` in it.

    Neighbours are added nearest first (the next phase before the previous one); a ``…``
    stands for each side that was left out.
    """
    if not labels:
        return 0, 0
    current = max(0, min(current, len(labels) - 1))

    def cost(start: int, end: int) -> int:
        shown = sum(cell_len(label) for label in labels[start:end])
        shown += cell_len(ARROW) * (end - start - 1)
        if start > 0:
            shown += cell_len(GAP + ARROW)
        if end < len(labels):
            shown += cell_len(ARROW + GAP)
        return shown

    start, end = current, current + 1
    grew = True
    while grew:
        grew = False
        if end < len(labels) and cost(start, end + 1) <= width:
            end += 1
            grew = True
        if start > 0 and cost(start - 1, end) <= width:
            start -= 1
            grew = True
    return start, end


class PhaseStepper(Widget):
    """``▷ x1  args-streaming › executing › done``, the current phase highlighted.

    When the line is too narrow, phases far from the current one give way to ``…``; the
    current phase is always shown.
    """

    DEFAULT_CSS = """
    PhaseStepper {
        height: 1;
        width: 1fr;
        padding: 0 1;
        background: $boost;
    }
    """

    phases: reactive[tuple[Phase, ...]] = reactive(())
    """The phases of the call, in the order they happen."""
    current: reactive[Phase | None] = reactive(None)
    """The phase shown on the stage."""
    playing: reactive[bool] = reactive(False)
    """Whether a replay or live call is running."""
    speed: reactive[str] = reactive("x1")
    """Replay speed label, or ``live`` for live calls."""

    def render(self) -> Text:
        theme = self.app.current_theme
        accent = theme.accent or "yellow"
        primary = theme.primary or "blue"
        line = Text(no_wrap=True, overflow="ellipsis", end="")
        # Same width playing or not, so the phases never shift when a replay starts ("⏸" is
        # drawn two cells wide by many terminals: the paused mark is a hollow triangle).
        line.append("▶ " if self.playing else "▷ ", style=f"bold {accent}" if self.playing else "")
        line.append(f"{self.speed}  ", style="dim")
        phases = list(self.phases)
        if self.current is not None and self.current not in phases:
            phases.append(self.current)
        labels = [f" {phase.value} " if phase == self.current else phase.value for phase in phases]
        current = phases.index(self.current) if self.current in phases else 0
        room = self.content_size.width - line.cell_len
        start, end = visible_window(labels, current, room)
        if start > 0:
            line.append(GAP + ARROW, style="dim")
        for index in range(start, end):
            if index > start:
                line.append(ARROW, style="dim")
            if phases[index] == self.current:
                line.append(labels[index], style=f"bold reverse {primary}")
            else:
                line.append(labels[index], style="dim")
        if end < len(labels):
            line.append(ARROW + GAP, style="dim")
        return line
