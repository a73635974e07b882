"""The Workbench app."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

from workbench.app.screens.fixture_screen import FixtureScreen
from workbench.project import Project, open_project

if TYPE_CHECKING:
    from workbench.session import LiveSession

DARK_THEME = "textual-dark"
LIGHT_THEME = "textual-light"


class WorkbenchApp(App[None]):
    """Preview every UI surface of every tool in every phase of a call."""

    CSS_PATH = Path(__file__).with_name("workbench.tcss")
    TITLE = "Workbench"
    SUB_TITLE = "tool UI surfaces"

    # Only chorded keys here: live mode has text inputs, where a bare "q" must type a "q".
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+t", "toggle_theme", "Theme"),
        Binding("ctrl+q", "quit", "Quit"),
    ]

    def __init__(
        self,
        load_project: Callable[[], Project] | None = None,
        *,
        live_session: LiveSession | None = None,
        animate: bool = True,
        watch: bool = False,
    ) -> None:
        super().__init__()
        self._load_project = load_project or open_project
        self.live_session = live_session
        self.animated = animate
        self.reload_on_save = watch
        """``workbench dev``: reload tools and fixtures as their files are saved."""
        self.theme = DARK_THEME
        if live_session is not None:
            self.sub_title = "live calls"
        elif watch:
            self.sub_title = "tool UI surfaces · reloading on save"

    def on_mount(self) -> None:
        if self.live_session is not None:
            from workbench.app.screens.live_screen import LiveScreen

            self.push_screen(LiveScreen(self.live_session, animate=self.animated))
        else:
            self.push_screen(
                FixtureScreen(self._load_project, animate=self.animated, watch=self.reload_on_save)
            )

    def action_toggle_theme(self) -> None:
        """Switch between the dark and the light theme."""
        self.theme = LIGHT_THEME if self.theme == DARK_THEME else DARK_THEME

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand(
            "Toggle dark/light theme",
            "Switch between the dark and light theme",
            self.action_toggle_theme,
        )
        # Every screen binding is offered in the palette too, with its footer description.
        for binding in getattr(screen, "BINDINGS", []):
            if isinstance(binding, Binding) and binding.description:
                action = binding.action
                yield SystemCommand(
                    binding.description,
                    f"{binding.description} (key: {binding.key_display or binding.key})",
                    lambda action=action: screen.call_later(screen.run_action, action),
                )
