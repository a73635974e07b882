"""The phase stepper: the variant's lifecycle phases, the current one marked, and replay state."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from workbench.core.call_state import Phase


class PhaseStepper(Widget):
    """Shows ``args-streaming › executing › done`` with the current phase highlighted."""

    DEFAULT_CSS = """
    PhaseStepper {
        height: 1;
        width: 1fr;
        padding: 0 1;
        background: $boost;
    }
    """

    phases: reactive[tuple[Phase, ...]] = reactive(())
    """The phases the current call goes through."""
    current: reactive[Phase | None] = reactive(None)
    """The phase shown on the stage (may be one the list lacks, e.g. live cancellations)."""
    playing: reactive[bool] = reactive(False)
    """Whether a replay or live call is running."""
    speed: reactive[str] = reactive("x1")
    """Replay speed label, or ``live`` for live calls."""

    def render(self) -> Text:
        theme = self.app.current_theme
        accent = theme.accent or "yellow"
        muted = "dim"
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append(
            "▶ playing " if self.playing else "⏸ ",
            style=f"bold {accent}" if self.playing else muted,
        )
        line.append(f"{self.speed} ", style=muted)
        phases = list(self.phases)
        if self.current is not None and self.current not in phases:
            phases.append(self.current)
        for index, phase in enumerate(phases):
            if index:
                line.append(" › ", style=muted)
            if phase == self.current:
                line.append(f" {phase.value} ", style=f"bold reverse {theme.primary or 'blue'}")
            else:
                line.append(phase.value, style=muted)
        return line
