"""The Workbench app."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.screen import Screen
from textual.timer import Timer

from workbench.app.screens.fixture_screen import FixtureScreen, load_or_report
from workbench.project import Project, open_project
from workbench.surfaces.themes import THEME_TABLE, CaseTheme

if TYPE_CHECKING:
    from workbench.app.screens.review_screen import ReviewLoader
    from workbench.session import LiveSession

PRELOAD_WAIT_S = 0.3
"""How long a start waits for the project before it shows a loading tree instead."""

DARK_THEME = THEME_TABLE[CaseTheme.DARK].textual_name
LIGHT_THEME = THEME_TABLE[CaseTheme.LIGHT].textual_name


class WorkbenchApp(App[None]):
    """Preview every UI surface of every tool in every phase of a call."""

    CSS_PATH = Path(__file__).with_name("workbench.tcss")
    TITLE = "Workbench"
    SUB_TITLE = "tool UI surfaces"

    # Chords and function keys, and "?" (which a text field types instead): live mode has
    # text inputs, where a bare "q" must type a "q".
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Keys", key_display="?", tooltip="List every key here"),
        # Shown where "?" types (a text field): the footer then names F1 instead.
        Binding("f1", "help", "Keys", tooltip="List every key here"),
        Binding("ctrl+q", "quit", "Quit", tooltip="Quit Workbench"),
        Binding("ctrl+t", "toggle_theme", "Theme", show=False, tooltip="Switch dark / light theme"),
    ]

    def __init__(
        self,
        load_project: Callable[[], Project] | None = None,
        *,
        live_session: LiveSession | None = None,
        review: ReviewLoader | None = None,
        animate: bool = True,
        select: str | None = None,
        screenshot_dir: Path | None = None,
        watch: bool = False,
        transcript: Path | None = None,
        transcript_format: str = "auto",
    ) -> None:
        super().__init__()
        self._load_project = load_project or open_project
        self.live_session = live_session
        self.review = review
        self.animated = animate
        self.select = select
        """A ``FILE#VARIANT`` to open on (the fixture screen)."""
        self.screenshot_dir = screenshot_dir
        """Where screenshots go; ``None``: the working directory."""
        self.reload_on_save = watch
        """``workbench dev``: reload tools and fixtures as their files are saved."""
        self.transcript = transcript
        """``workbench open TRANSCRIPT``: the conversation view on this session."""
        self.transcript_format = transcript_format
        self.theme = DARK_THEME
        self._fixture_screen: FixtureScreen | None = None
        self._preload_timer: Timer | None = None
        if live_session is not None:
            self.sub_title = "live calls"
        elif watch:
            self.sub_title = "tool UI surfaces · reloading on save"

    def on_mount(self) -> None:
        if self.review is not None:
            from workbench.app.screens.review_screen import ReviewScreen

            self.push_screen(ReviewScreen(self.review, animate=self.animated))
        elif self.transcript is not None:
            self.open_transcript(self.transcript, self.transcript_format)
        elif self.live_session is not None:
            from workbench.app.screens.live_screen import LiveScreen

            self.push_screen(LiveScreen(self.live_session, animate=self.animated))
        else:
            # The project loads off the UI thread; a quick load (the catalog cache is warm) is
            # waited for, so the first frame shows the card rather than a loading tree.
            self._preload()
            self._preload_timer = self.set_timer(PRELOAD_WAIT_S, self._open_fixture_screen)

    @work(thread=True, exclusive=True, group="preload")
    def _preload(self) -> None:
        project = load_or_report(self._load_project)
        self.call_from_thread(self._open_fixture_screen, project)

    def _open_fixture_screen(self, project: Project | None = None) -> None:
        """Open the fixture screen on ``project`` (loaded in time), or loading (a slow load);
        deliver a project that comes after the screen to it."""
        screen = self._fixture_screen
        if screen is not None:
            if project is not None:
                screen.post_message(FixtureScreen.CatalogLoaded(project, generation=0))
            return
        if self._preload_timer is not None:
            self._preload_timer.stop()
        self._fixture_screen = FixtureScreen(
            self._load_project,
            project=project,
            load=False,
            animate=self.animated,
            select=self.select,
            watch=self.reload_on_save,
        )
        self.push_screen(self._fixture_screen)

    def open_transcript(self, path: Path, transcript_format: str = "auto") -> None:
        """Show the session at ``path`` as its conversation, drawn by the project's tools."""
        from workbench.app.screens.conversation_screen import ConversationScreen

        self.push_screen(
            ConversationScreen(
                path,
                lambda: load_or_report(self._load_project),
                transcript_format=transcript_format,
                animate=self.animated,
            )
        )

    def action_toggle_theme(self) -> None:
        """Switch between the dark and the light theme."""
        self.theme = LIGHT_THEME if self.theme == DARK_THEME else DARK_THEME

    def action_help(self) -> None:
        """Show every key of the current screen."""
        from workbench.app.screens.help_screen import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss()
            return
        from workbench.app.screens.conversation_screen import ConversationScreen

        title = "Keys · live calls" if self.live_session is not None else "Keys · fixtures"
        if isinstance(self.screen, ConversationScreen):
            title = "Keys · conversation"
        self.push_screen(HelpScreen(self.screen, title))

    def action_save_screenshot(self) -> None:
        """Save an SVG of the screen in the screenshot folder and say where it went."""
        folder = self.screenshot_dir or Path.cwd()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            saved = Path(self.save_screenshot(path=str(folder)))
        except OSError as error:
            self.notify(
                f"Could not save the screenshot in {folder}: {error.strerror or error}",
                severity="error",
                markup=False,
            )
            return
        self.notify(f"Screenshot saved: {saved.resolve()}", timeout=6, markup=False)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Each action once, described by what it does: the screen's keys, then the app's."""
        actions: dict[str, tuple[Any, Binding, list[str]]] = {}
        from workbench.app.bindings import own_bindings

        owned: list[tuple[DOMNode, Binding]] = [(screen, b) for b in own_bindings(screen)]
        owned += [(self, binding) for binding in own_bindings(self)]
        for node, binding in owned:
            if not binding.description:
                continue
            if binding.action.endswith("_intervention"):
                continue  # Approvals are answered where they are asked, not from the palette.
            target: DOMNode = node
            action = binding.action
            if action.startswith("app."):
                target, action = self, action.removeprefix("app.")
            _, _, keys = actions.setdefault(action, (target, binding, []))
            key = self.get_key_display(binding)
            if key not in keys:
                keys.append(key)
        for action, (target, binding, keys) in actions.items():
            yield SystemCommand(
                binding.description,
                f"{binding.tooltip or binding.description} (key: {' / '.join(keys)})",
                lambda target=target, action=action: target.call_later(target.run_action, action),
            )
        yield SystemCommand(
            "Screenshot",
            "Save an SVG picture of the screen (in the working directory or [tool.workbench] "
            "screenshots) and say where",
            lambda: self.set_timer(0.1, self.action_save_screenshot),
        )
