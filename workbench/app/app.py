"""The Workbench app."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from functools import partial
from itertools import takewhile
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.console import RenderableType
from textual import events, work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.screen import Screen
from textual.timer import Timer

from workbench.app.first_screen import FirstScreenStore, KeptFrame
from workbench.app.screens.start_screen import StartScreen

# The fixture screen, the project and what they import (models, surfaces) load behind the
# first frame: a start whose first screen was kept shows it before importing them.
if TYPE_CHECKING:
    from workbench.app.screens.fixture_screen import FixtureScreen
    from workbench.app.screens.review_screen import ReviewLoader
    from workbench.project import Project
    from workbench.session import LiveSession

PRELOAD_WAIT_S = 0.3
"""How long a start waits for the project before it shows a loading tree instead."""

# The Textual themes of `surfaces.themes.THEME_TABLE`, named here so that the start need not
# import the surfaces to set its theme (tests/app/test_palette.py holds the two equal).
DARK_THEME = "textual-dark"
LIGHT_THEME = "textual-light"
PASSED_WHILE_STARTING = frozenset({"ctrl+q"})
"""Keys acted on at once while the kept first screen shows: the rest wait for the real one."""
REPLAY_GAP_S = 0.03
"""The pause between two held keys as they are replayed."""
SETTLE_S = 0.02
"""How often a start looks whether its screen has stopped changing (its first frame is then
the one to keep)."""
SETTLE_ROUNDS = 150
"""After this many looks (3 s), the screen as it is then is the first frame."""


def _open_project() -> Project:
    from workbench.project import open_project

    return open_project()


def picture_of(screen: Screen[Any], theme: str) -> KeptFrame:
    """What ``screen`` shows now, cell for cell, as a :class:`KeptFrame` to keep."""
    # The compositor's full render is what the terminal shows (Textual's own screenshots
    # read it the same way); meta (mouse offsets) is left out: a picture is not clicked.
    strips = screen._compositor.render_strips()
    styles: dict[str, int] = {}
    lines = tuple(
        tuple(
            (
                segment.text,
                styles.setdefault(str(segment.style) if segment.style else "", len(styles)),
            )
            for segment in strip
            if segment.text
        )
        for strip in strips
    )
    width, height = screen.size
    return KeptFrame(width, height, theme, tuple(styles), lines)


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
        first_screen: FirstScreenStore | None = None,
    ) -> None:
        super().__init__()
        self._load_project = load_project or _open_project
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
        self.first_screen = first_screen
        """Where the start's first screen is kept between starts (``None``: it is not)."""
        self.first_frame: KeptFrame | None = None
        """The fixture screen's first frame with the project shown (what the next start
        shows first), once it is out."""
        self.theme = DARK_THEME
        self._fixture_screen: FixtureScreen | None = None
        self._start_screen: StartScreen | None = None
        self._preload_timer: Timer | None = None
        self._load_began = 0
        """When the project began to load (ns): a file changed since may be drawn as it was."""
        self._held: list[events.Key | events.Paste] | None = None
        """Keys typed (and text pasted) while the kept first screen shows, for the real one
        once it is out."""
        self._replay: list[events.Key | events.Paste] | None = None
        """Held keys not yet replayed on the real screen (and keys typed meanwhile)."""
        self._replaying: events.Key | events.Paste | None = None
        self._frames = 0
        """Updates sent to the terminal (or, while the real screen takes over, held back)."""
        self._touched = False
        """A key or the mouse acted before the first frame was kept (it is then not the
        first frame any more)."""
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
            kept = self.first_screen
            picture = kept.picture(*self.size, self.theme) if kept is not None else None
            if picture is not None:
                # The last start's first frame, drawn from the same files: shown now, and the
                # project (with the modules that draw it) loads once it is out.
                self._held = []
                self._start_screen = StartScreen(picture)
                self.push_screen(self._start_screen)
                self.call_after_refresh(self._preload)
                return
            # The project loads off the UI thread; a quick load (the catalog cache is warm) is
            # waited for, so the first frame shows the card rather than a loading tree.
            self._preload()
            self._preload_timer = self.set_timer(PRELOAD_WAIT_S, self._open_fixture_screen)

    async def on_event(self, event: events.Event) -> None:
        # The kept first screen is a picture: what is typed (a paste too, though it is no
        # InputEvent) waits for the real screen, then for the keys typed before it.
        waiting = self._held if self._held is not None else self._replay
        if (
            waiting is not None
            and isinstance(event, events.Key | events.Paste)
            and not event.is_forwarded
            and event is not self._replaying
            and not (isinstance(event, events.Key) and event.key in PASSED_WHILE_STARTING)
        ):
            waiting.append(event)
            return
        if isinstance(event, events.InputEvent) and not event.is_forwarded:
            if self._held is not None and isinstance(event, events.MouseEvent):
                return  # A click has nothing under it yet.
            if self.first_frame is None:
                self._touched = True
        await super().on_event(event)

    @work(thread=True, exclusive=True, group="preload")
    def _preload(self) -> None:
        from workbench.app.screens.fixture_screen import load_or_report

        self._load_began = time.time_ns()
        project = load_or_report(self._load_project)
        self.call_from_thread(self._open_fixture_screen, project)

    def _open_fixture_screen(self, project: Project | None = None) -> None:
        """Open the fixture screen on ``project`` (loaded in time), or loading (a slow load);
        deliver a project that comes after the screen to it."""
        from workbench.app.screens.fixture_screen import FixtureScreen

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
        if self._start_screen is not None and self.screen is self._start_screen:
            self.switch_screen(self._fixture_screen)
        else:
            self.push_screen(self._fixture_screen)

    def _display(self, screen: Screen[Any], renderable: RenderableType | None) -> None:
        # While the real screen takes over from the kept one, its partial frames (the tabs,
        # the footer and the tree's scroll come a moment after the card) stay off the
        # terminal, which keeps showing the picture: the settled frame replaces it at once.
        self._frames += 1
        if self._handing_over and screen is not self._start_screen:
            return
        super()._display(screen, renderable)

    @property
    def _handing_over(self) -> bool:
        return self._held is not None

    def on_fixture_screen_catalog_shown(self, message: FixtureScreen.CatalogShown) -> None:
        screen = self._fixture_screen
        if screen is None or self.first_frame is not None:
            return
        if self._touched and not self._handing_over:
            return  # A key acted already: this frame is not the first one to keep.
        if screen.project is not None and self.screenshot_dir is None:
            self.screenshot_dir = screen.project.config.screenshot_dir
        # Keys typed before the frame settles are held only while a kept picture covers the
        # screen; otherwise they act at once and this start keeps nothing (`_touched`).
        self.call_after_refresh(self._settle, -1, 0)

    def _settle(self, frames: int, rounds: int) -> None:
        """Keep the first frame once the screen stopped changing: nothing drawn since the last
        look and the host profiles (which the footer names) read."""
        screen = self._fixture_screen
        hosts = screen is not None and any(
            worker.group == "hosts" and not worker.is_finished for worker in screen.workers
        )
        if (frames != self._frames or hosts) and rounds < SETTLE_ROUNDS:
            self.set_timer(
                SETTLE_S, partial(self.call_after_refresh, self._settle, self._frames, rounds + 1)
            )
            return
        self._first_frame_out()

    def _first_frame_out(self) -> None:
        """The fixture screen has drawn the project and settled: keep that frame for the next
        start (unless a key or the mouse changed it first), show it if the kept one covers it,
        then replay the keys held meanwhile."""
        screen = self._fixture_screen
        if screen is None or self.first_frame is not None:
            return
        self.first_frame = picture_of(screen, self.theme)
        handing_over = self._handing_over
        kept = self._start_screen.picture if self._start_screen is not None else None
        project = screen.project
        if (
            self.first_screen is not None
            and project is not None
            and not self._touched
            and self.screen is screen
            and self.first_frame != kept
        ):
            self._keep_first_frame(self.first_screen, self.first_frame, project)
        held, self._held = self._held or [], None
        if handing_over and self.screen is screen:
            update = screen._compositor.render_update(
                full=True, screen_stack=self._background_screens
            )
            self._display(screen, update)
        self._replay = held
        self._replay_next()

    def _replay_next(self) -> None:
        """Send the next held key once the last one has acted and the screen refreshed: sent
        in one burst, a key typed after "/" reached the tree before the filter had focus
        (where "t" switched the theme)."""
        waiting = self._replay
        if not waiting:
            self._replay = self._replaying = None
            return
        self._replaying = waiting.pop(0)
        self.post_message(self._replaying)
        # The focused widget handles the key in its own task, and a focus change it makes
        # comes a message later still: a refresh alone can come before both.
        self.set_timer(REPLAY_GAP_S, partial(self.call_after_refresh, self._replay_next))

    # A cache: should keeping the frame fail, the session goes on (the next start draws).
    @work(thread=True, group="first-screen", exit_on_error=False)
    def _keep_first_frame(
        self, store: FirstScreenStore, picture: KeptFrame, project: Project
    ) -> None:
        import workbench
        from workbench.config import find_pyproject, pyproject_candidates
        from workbench.reload.reloader import ProjectReloader

        config = project.config
        inputs = [
            *ProjectReloader(project).watched_paths(),
            *config.transcripts,
            *config.transcript_folders,
        ]
        # Workbench's own files that are not modules: the app's CSS, the bundled hosts'
        # profiles (the status line and the footer follow them), the agents' manifests.
        inputs.append(Path(workbench.__file__).parent)
        if config.host_file is not None:
            inputs.append(config.host_file)
        # Where a config file would change what the start shows, were one written there.
        start = Path.cwd().resolve()
        found = find_pyproject(start)
        absent = list(takewhile(lambda path: path != found, pyproject_candidates(start)))
        store.save(picture, inputs, absent, unchanged_since=self._load_began)

    def open_transcript(self, path: Path, transcript_format: str = "auto") -> None:
        """Show the session at ``path`` as its conversation, drawn by the project's tools."""
        from workbench.app.screens.conversation_screen import ConversationScreen
        from workbench.app.screens.fixture_screen import load_or_report

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
