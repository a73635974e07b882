"""The fixture screen: browse tools and variants, step or replay their lifecycle."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Unpack

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Header, Input

from workbench.app.bindings import PHASE_BINDINGS
from workbench.app.screens.call_screen import CallScreen
from workbench.app.widgets.call_view import CallView
from workbench.app.widgets.key_footer import KeyFooter
from workbench.app.widgets.options import ScreenOptions
from workbench.app.widgets.problems_panel import ProblemsPanel
from workbench.app.widgets.status_line import StatusPart
from workbench.app.widgets.tool_tree import ToolTree
from workbench.app.widgets.tree_filter import TreeFilter
from workbench.config import ConfigError, WorkbenchConfig
from workbench.core import events as ev
from workbench.core.call_record import CallRecord
from workbench.core.call_state import CallState, Phase
from workbench.core.manifest import ToolManifest
from workbench.core.problems import Problem
from workbench.fixtures.catalog import Catalog, VariantRef
from workbench.fixtures.replay import (
    SPEEDS,
    FixtureReplayer,
    speed_label,
)
from workbench.fixtures.script import CallScript
from workbench.policy.verdict import ApprovalDecision
from workbench.project import Project
from workbench.surfaces.registry import SurfaceRegistry

if TYPE_CHECKING:
    from workbench.app.widgets.intervention_bar import InterventionBar
    from workbench.reload.reloader import ProjectReloader, ReloadOutcome


def load_or_report(load_project: Callable[[], Project]) -> Project:
    """``load_project()``, or an empty project whose problems say why the config did not load."""
    try:
        return load_project()
    except ConfigError as error:
        return Project(
            config=WorkbenchConfig(root=Path.cwd(), fixture_dirs=()),
            catalog=Catalog(problems=list(error.problems)),
            registry=SurfaceRegistry(),
        )


class FixtureScreen(CallScreen):
    """Sidebar of tools and variants; the stage shows the selected call as a tool card."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *PHASE_BINDINGS,
        Binding("p", "play_pause", "Play", tooltip="Play or pause the replay at its recorded pace"),
        Binding(
            "s",
            "cycle_speed",
            "Speed",
            show=False,
            tooltip="Replay speed: x0.5, x1, x2, x5, instant",
        ),
        Binding("r", "restart", "Replay", show=False, tooltip="Replay the call from its start"),
        Binding("o,f6", "toggle_portal", "Portal", tooltip="Open or close the tool's Portal"),
        Binding(
            "w,f7", "cycle_width", "Width", tooltip="Card width: fit the pane, 60, 80, 120 columns"
        ),
        Binding(
            "e,ctrl+o",
            "toggle_folded",
            "Expand",
            tooltip="Open a folded done card (its Render) or fold it to the Inspector and one line",
        ),
        Binding(
            "d,f8",
            "toggle_details",
            "Details",
            show=False,
            tooltip="Show or hide the details tabs: args, content, state, error, manifest",
        ),
        Binding(
            "h,f3",
            "cycle_host_look",
            "Host look",
            tooltip="Fold the card as each targeted host first shows it, then show it whole",
        ),
        Binding("slash", "focus_filter", "Filter", key_display="/", tooltip="Filter the tree"),
        Binding(
            "ctrl+r",
            "reload",
            "Reload",
            show=False,
            tooltip="Read the fixture files again, keeping the selected variant",
        ),
        Binding("t", "app.toggle_theme", "Theme", show=False, tooltip="Dark or light theme"),
        Binding("q", "app.quit", "Quit", show=False, tooltip="Quit Workbench"),
    ]

    @dataclass
    class CatalogLoaded(Message):
        """The project finished loading (in a worker thread); handled by
        ``on_fixture_screen_catalog_loaded``."""

        project: Project
        generation: int

    class CatalogShown(Message):
        """The tree shows the catalog; handled by ``on_fixture_screen_catalog_shown``."""

    @dataclass
    class ProjectReloaded(Message):
        """``workbench dev`` reloaded the project after a save; handled by
        ``on_fixture_screen_project_reloaded``."""

        outcome: ReloadOutcome

    def __init__(
        self,
        load_project: Callable[[], Project],
        *,
        animate: bool = True,
        select: str | None = None,
        watch: bool = False,
        project: Project | None = None,
        load: bool = True,
        **options: Unpack[ScreenOptions],
    ) -> None:
        super().__init__(**options)
        self._load_project = load_project
        self.animated = animate
        self.watching = watch
        """``workbench dev``: reload the project whenever its files are saved."""
        self.project: Project | None = None
        self.ref: VariantRef | None = None
        self.script: CallScript | None = None
        self.state: CallState | None = None
        self.phase_index = 0
        self.speed_index = SPEEDS.index(1.0)
        self._replayer: FixtureReplayer | None = None
        self._reselect: str | None = None
        self._open_address = select
        """A ``FILE#VARIANT`` address to open on, once the catalog is loaded."""
        self._generation = 0
        self._decision: asyncio.Future[ApprovalDecision] | None = None
        self._keep_phase: Phase | None = None
        self._lost: VariantRef | None = None
        """The variant a reload took away (its fixture broke); shown again once it is back."""
        self._reload_note: tuple[str, bool] | None = None
        self._preloaded = project
        """Loaded before the screen: shown in its first frame."""
        self._load_on_mount = load
        """``False``: the app is loading the project and posts :class:`CatalogLoaded`."""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="body"):
            with Vertical(id="sidebar"):
                yield TreeFilter(
                    placeholder="/ filter tools, APIs, variants…", id="filter", compact=True
                )
                yield ToolTree(id="tree")
                yield ProblemsPanel(id="problems")
            yield CallView(SurfaceRegistry(), animate=self.animated, id="call")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.call_view.stepper.speed = speed_label(SPEEDS[self.speed_index])
        if self._preloaded is not None:
            project, self._preloaded = self._preloaded, None
            self._loaded(project)
            return
        self.query_one("#tree", ToolTree).loading = True
        if self._load_on_mount:
            self._load()

    @work(thread=True, exclusive=True, group="load")
    def _load(self, generation: int = 0) -> None:
        # Fixture files and manifests are read off the UI thread.
        self.post_message(self.CatalogLoaded(load_or_report(self._load_project), generation))

    def on_fixture_screen_catalog_loaded(self, message: CatalogLoaded) -> None:
        if message.generation != self._generation:
            return  # A newer reload is on its way; a thread worker cannot be cancelled.
        self._loaded(message.project)

    def _loaded(self, project: Project) -> None:
        """Show the first load of ``project`` and start following its files if asked to."""
        self._show_project(project)
        self.query_one("#tree", ToolTree).focus()
        if self.watching:
            # Started once the first frame is out: the start waits for the card, not for it.
            self.call_after_refresh(self._start_watching, project)

    def _start_watching(self, project: Project) -> None:
        from workbench.reload.reloader import ProjectReloader

        self._watch(ProjectReloader(project))

    def _show_project(self, project: Project, *, fallback: VariantRef | None = None) -> None:
        """Show ``project``, selecting the variant that was selected (``_reselect``) again, or
        else the first variant of ``fallback``'s API."""
        self.project = project
        self.call_view.registry = project.registry
        # The host profiles are for `h` and the Model tab: read once the card is on screen,
        # so their thread does not slow the first frame down.
        self.call_after_refresh(self.load_hosts, project.config)
        tree = self.query_one("#tree", ToolTree)
        tree.loading = False
        tree.load(project.catalog, project.config.transcripts)
        self.query_one("#problems", ProblemsPanel).show(
            project.catalog.problems, root=project.config.root
        )
        previous = self._reselect
        self._reselect = None
        self.ref = None  # Whatever is selected now comes from the new catalog.
        if self._open_address is not None:
            address, self._open_address = self._open_address, None
            previous = self._key_for(address) or previous
        refs = list(project.catalog.all_variants())
        again = next((ref for ref in refs if ref.key == previous), None)
        if again is None and fallback is not None:
            # Its fixture no longer loads: stay on its API until the fix brings it back.
            self._lost = fallback
            api = (fallback.tool, fallback.api)
            again = next((ref for ref in refs if (ref.tool, ref.api) == api), None)
        elif again is None:
            # Nothing to select again (a start): the tree's first variant, drawn now too. Left
            # to the tree's messages, the screen first drew a frame with no card in it.
            self._keep_phase = None
            self._lost = None
            again = tree.first_variant()
        if again is not None:
            # Shown now, not after the tree's round of messages: a reload repaints at once.
            self._select(again)
        if again is None or not tree.select_ref(again.key):
            self._keep_phase = None
            tree.select_first()
        self.post_message(self.CatalogShown())

    def _key_for(self, address: str) -> str | None:
        """The tree key of the variant at ``address`` (``FILE#VARIANT``), or ``None`` after
        saying why there is none."""
        catalog = self.catalog
        if catalog is None:
            return None
        try:
            return catalog.resolve_ref(address).key
        except LookupError as error:
            self.notify(str(error), title="Cannot open", severity="error", markup=False)
            return None

    @work(exclusive=True, group="watch")
    async def _watch(self, reloader: ProjectReloader) -> None:
        # Imported here: the plain TUI never loads the watcher.
        from workbench.reload.watcher import reloads

        async for outcome in reloads(reloader):
            self.post_message(self.ProjectReloaded(outcome))

    def on_fixture_screen_project_reloaded(self, message: ProjectReloaded) -> None:
        """Show the reloaded project on the same variant, phase, width and theme."""
        self._stop_replay()
        wanted, self._lost = self._lost or self.ref, None
        if wanted is not None:
            self._reselect = wanted.key
            self._keep_phase = self.state.phase if self.state is not None else None
        outcome = message.outcome
        self._reload_note = (outcome.note(), outcome.failing)
        self._show_project(outcome.project, fallback=wanted)
        if outcome.failing:
            self.notify(outcome.summary(), severity="error", timeout=3, markup=False)

    @property
    def catalog(self) -> Catalog | None:
        return self.project.catalog if self.project is not None else None

    def _manifest(self) -> ToolManifest | None:
        catalog = self.catalog
        if catalog is None or self.ref is None:
            return None
        return catalog.manifest_for(self.ref.tool)

    # --- showing a call -------------------------------------------------------------------

    def show_state(self, state: CallState | None) -> None:
        """Draw ``state`` in the call view, asking for approval when it waits for one."""
        self.state = state
        view = self.call_view
        problems = self._fixture_problems()
        self.query_one("#problems", ProblemsPanel).show_in_card(problems)
        if problems:
            # Its fixture does not load: the card says why, and no stand-in plays.
            self.state = None
            view.show(None, self._manifest(), status=self._status())
            manifest = self._manifest()
            assert self.ref is not None
            title = manifest.meta.title if manifest is not None else self.ref.tool
            view.card.show_problems(f"{title} · {self.ref.api}", problems)
            return
        view.show(
            state,
            self._manifest(),
            phases=self.script.phases if self.script is not None else (),
            status=self._status(),
        )
        if state is not None and state.phase is Phase.AWAITING_APPROVAL:
            view.ask_approval(state)

    def _fixture_problems(self) -> list[Problem]:
        """Why the selected API shows a sample from its schema when that is because its
        fixture file does not load (the file a reload took the variant from, or one named
        after the API); empty otherwise."""
        ref, project = self.ref, self.project
        if ref is None or project is None or not ref.generated:
            return []
        root = project.config.root
        lost = self._lost
        files = set()
        if lost is not None and (lost.tool, lost.api) == (ref.tool, ref.api):
            files.add(lost.fixture.path.resolve())

        def path(problem: Problem) -> Path:
            file = Path(problem.file)
            return (file if file.is_absolute() else root / file).resolve()

        return [
            problem
            for problem in project.catalog.problems
            if problem.severity == "error"
            and (path(problem) in files or path(problem).stem == ref.api)
        ]

    def footer_first(self) -> tuple[str, ...]:
        # Stepping through the phases is what this screen is for; an open question's answers
        # lead while it waits.
        if isinstance(self.focused, TreeFilter):
            return ("leave",)  # Typing a filter: the way back to the tree's keys comes first.
        # A folded card's way to open it is next: what it hides is one key away.
        fold = ("toggle_folded",) if self.call_view.card.folded else ()
        first = ("prev_phase", "next_phase", *fold, "play_pause")
        return super().footer_first() or (*self.tree_first(), *first)

    def _status(self) -> list[StatusPart]:
        ref = self.ref
        catalog = self.catalog
        if ref is None or catalog is None:
            return []
        parts: list[StatusPart] = []
        if self._reload_note is not None:
            note, broken = self._reload_note
            # Kept longest: it is what the author just did; a failure is never left out.
            parts.append(
                StatusPart(
                    note,
                    style="bold red" if broken else "",
                    priority=70,
                    min_cells=14,
                    droppable=not broken,
                )
            )
        parts += [
            StatusPart(ref.variant.label, priority=1, min_cells=12),
            StatusPart(
                catalog.address(ref), priority=50, where="middle", min_cells=16, droppable=False
            ),
        ]
        if ref.generated and self._fixture_problems():
            parts[-1] = StatusPart(
                f"{ref.tool}/{ref.api}", priority=50, where="middle", min_cells=16, droppable=False
            )
            parts.append(
                StatusPart("its fixture does not load", style="bold red", priority=60, min_cells=9)
            )
        elif ref.generated:
            parts.append(
                StatusPart(
                    "generated sample: no fixture", style="bold red", priority=60, min_cells=9
                )
            )
        return parts

    def on_problems_panel_edited(self, message: ProblemsPanel.Edited) -> None:
        self.action_reload()

    def on_tool_tree_broken_variant_selected(self, message: ToolTree.BrokenVariantSelected) -> None:
        # A variant that did not load has nothing to replay: its problem is what to look at.
        self.query_one("#problems", ProblemsPanel).focus_problem(message.path, message.line)

    def on_tool_tree_transcript_selected(self, message: ToolTree.TranscriptSelected) -> None:
        """Open the session in the conversation view (``backspace`` comes back here), drawn
        by the project already loaded."""
        from workbench.app.screens.conversation_screen import ConversationScreen

        project = self.project
        if project is None:
            return
        self._stop_replay()
        self.app.push_screen(
            ConversationScreen(message.path, lambda: project, animate=self.animated)
        )

    def on_tool_tree_variant_selected(self, message: ToolTree.VariantSelected) -> None:
        if self.catalog is None or message.ref == self.ref:
            return
        self._lost = None  # The author moved on: a fixed fixture no longer takes them back.
        self._select(message.ref)

    def _select(self, ref: VariantRef) -> None:
        assert self.catalog is not None
        self._stop_replay()
        self.ref = ref
        self.script = self.catalog.script_for(ref)
        # Open on the ending (the Render is what most reviews start from), unless a reload
        # keeps the phase that was on screen.
        keep, self._keep_phase = self._keep_phase, None
        phases = self.script.phases
        self.phase_index = phases.index(keep) if keep in phases else len(phases) - 1
        self.show_state(self.script.state_at(self.script.phases[self.phase_index]))

    def _show_phase_index(self, index: int) -> None:
        if self.script is None or not self.script.phases:
            return
        self._stop_replay()
        self.phase_index = max(0, min(index, len(self.script.phases) - 1))
        self.show_state(self.script.state_at(self.script.phases[self.phase_index]))

    # --- replay -----------------------------------------------------------------------------

    def _stop_replay(self) -> None:
        self.workers.cancel_group(self, "replay")
        self._replayer = None
        if self._decision is not None and not self._decision.done():
            self._decision.cancel()
        self._decision = None
        self.call_view.stepper.playing = False

    async def _approval_gate(self, request: ev.ApprovalRequested) -> ApprovalDecision:
        del request
        self._decision = asyncio.get_running_loop().create_future()
        return await self._decision

    @work(exclusive=True, group="replay")
    async def _replay(self, start_index: int, state: CallState) -> None:
        assert self.script is not None
        stepper = self.call_view.stepper
        stepper.playing = True
        self._replayer = FixtureReplayer(
            self.script,
            speed=SPEEDS[self.speed_index],
            approval_gate=self._approval_gate,
            start_index=start_index,
        )
        # The replay continues the call from ``state``; only the state is shown, so no events kept.
        record = CallRecord(state, keep_events=False)
        try:
            async for event in self._replayer.events():
                state = record.add(event)
                if self.script is not None and state.phase in self.script.phases:
                    self.phase_index = self.script.phases.index(state.phase)
                self.show_state(state)
        finally:
            stepper.playing = False
            self._replayer = None

    def _start_index_for(self, phase: Phase) -> int:
        assert self.script is not None
        for index, step in enumerate(self.script.steps):
            if step.checkpoint is phase:
                return index + 1
        return 0

    def on_intervention_bar_decided(self, message: InterventionBar.Decided) -> None:
        decision = ApprovalDecision(message.action, message.args, message.reason)
        if self._decision is not None and not self._decision.done():
            self._decision.set_result(decision)
            return
        state = self.state
        if state is None or state.phase is not Phase.AWAITING_APPROVAL or self.script is None:
            return
        decided = CallRecord(state, keep_events=False).add(
            decision.event(state.timings.last_event_ms + 1)
        )
        if decision.action == "approve":
            self._replay(self._start_index_for(Phase.AWAITING_APPROVAL) + 1, decided)
        else:
            self.show_state(decided)

    # --- actions -----------------------------------------------------------------------------

    def action_prev_phase(self) -> None:
        self._show_phase_index(self.phase_index - 1)

    def action_next_phase(self) -> None:
        self._show_phase_index(self.phase_index + 1)

    def action_play_pause(self) -> None:
        if self.script is None:
            return
        if self._replayer is not None:
            if self._replayer.paused:
                self._replayer.resume()
                self.call_view.stepper.playing = True
            else:
                self._replayer.pause()
                self.call_view.stepper.playing = False
            return
        phase = self.script.phases[self.phase_index]
        if phase.is_terminal or self.state is None or self.state.phase.is_terminal:
            self._replay(0, self.script.initial_state())
        elif phase is Phase.AWAITING_APPROVAL:
            # Replay the request itself so the approval gate (the buttons) decides what follows.
            index = self._start_index_for(phase) - 1
            self._replay(index, self.script.state_before(index))
        else:
            self._replay(self._start_index_for(phase), self.script.state_at(phase))

    def action_restart(self) -> None:
        if self.script is None:
            return
        self._stop_replay()
        self._replay(0, self.script.initial_state())

    def action_cycle_speed(self) -> None:
        self.speed_index = (self.speed_index + 1) % len(SPEEDS)
        speed = SPEEDS[self.speed_index]
        self.call_view.stepper.speed = speed_label(speed)
        if self._replayer is not None:
            self._replayer.speed = speed
        self.notify(f"Replay speed {speed_label(speed)}", timeout=1.5, markup=False)

    def set_width(self, width: int | None) -> None:
        """Frame the card at ``width`` columns (``None``: fit the pane)."""
        self.call_view.width_preset = width

    def action_reload(self) -> None:
        """Read the fixture files again (after editing them), keeping the selected variant."""
        self._stop_replay()
        self._reselect = self.ref.key if self.ref is not None else None
        self._keep_phase = self.state.phase if self.state is not None else None
        self.query_one("#tree", ToolTree).loading = True
        self._generation += 1
        self._load(self._generation)
        self.notify("Reloading fixtures…", timeout=1.5, markup=False)

    def action_focus_filter(self) -> None:
        self.show_tree()  # The filter is for the tree.
        self.query_one("#filter", Input).focus()

    def on_tree_filter_left(self, message: TreeFilter.Left) -> None:
        self.query_one("#tree", ToolTree).focus()

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.query_one("#tree", ToolTree).set_filter(event.value)

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        tree = self.query_one("#tree", ToolTree)
        tree.focus()
        if "#" in event.value:
            # An address (calculator/calculate.yaml#arithmetic) opens that variant.
            key = self._key_for(event.value.strip())
            with event.input.prevent(Input.Changed):
                event.input.value = ""
            if key is not None:
                tree.set_filter("")
                tree.select_ref(key)
            return
        # Keep the variant on the stage if the filter still shows it; else take the first match.
        if self.ref is None or not tree.select_ref(self.ref.key):
            tree.select_first()
