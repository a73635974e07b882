"""The review screen: walk the snapshot cases, see each live beside its committed picture
with the diff, and accept or reject what it draws now."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.theme import BUILTIN_THEMES, Theme
from textual.widgets import Header, Input, ProgressBar, Static

from workbench.app.palette import CASE_THEMES, palette_for
from workbench.app.screens.note_screen import NoteAnswer, NoteScreen
from workbench.app.screens.review_help_screen import ReviewHelpScreen
from workbench.app.widgets.case_card import CaseCard
from workbench.app.widgets.diff_view import DiffView
from workbench.app.widgets.key_footer import KeyFooter
from workbench.app.widgets.review_queue import ReviewQueue
from workbench.app.widgets.snapshot_picture import SnapshotPicture
from workbench.core.call_state import Phase
from workbench.project import Project
from workbench.review.board import ReviewBoard, ReviewItem
from workbench.review.case_filter import CaseFilter
from workbench.review.decisions import Status
from workbench.surfaces.registry import SurfaceRegistry

DrawProgressCallback = Callable[[int, int], None]
VIEWS: tuple[str, ...] = ("side", "now", "committed")
"""Both pictures side by side, or one of them (``f`` flips between the two)."""
PROGRESS_INTERVAL = 0.1
NARROW = 110
"""Below this many columns the queue is narrower."""
TINY = 100
"""Below this many columns the queue starts hidden (s shows it)."""
SHORT = 30
"""Below this many rows the case's description is left out of its summary."""
_MOVE = Binding.Group("Move", compact=True)
_PHASE = Binding.Group("Phase", compact=True)


@dataclass(frozen=True)
class LoadedReview:
    project: Project
    board: ReviewBoard
    reviewer: str


ReviewLoader = Callable[[DrawProgressCallback], LoadedReview]
"""Draws every case (in a worker thread), reporting (done, total) as it goes."""


class ReviewScreen(Screen[None]):
    """The queue on the left; the selected case, its committed picture and its diff."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "accept", "Accept"),
        Binding("r", "reject", "Reject…"),
        Binding("n", "note", "Note…"),
        Binding("u", "next_open", "Next to decide"),
        Binding("j", "next_case", "Next case", group=_MOVE),
        Binding("k", "previous_case", "Previous case", group=_MOVE),
        Binding(
            "left_square_bracket", "previous_phase", "Previous phase", key_display="[", group=_PHASE
        ),
        Binding("right_square_bracket", "next_phase", "Next phase", key_display="]", group=_PHASE),
        Binding("w", "cycle_width", "Width"),
        Binding("t", "toggle_case_theme", "Case theme"),
        Binding("v", "cycle_view", "View"),
        Binding("f", "flip", "Flip now / committed"),
        Binding("slash", "focus_filter", "Filter", key_display="/"),
        Binding("s", "toggle_queue", "Queue"),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("ctrl+r", "reload", "Draw every case again", show=False),
        Binding("q", "app.quit", "Quit", show=False),
    ]

    @dataclass
    class Loaded(Message):
        """Every case is drawn; handled by ``on_review_screen_loaded``."""

        loaded: LoadedReview

    @dataclass
    class LoadFailed(Message):
        """Drawing the cases failed; handled by ``on_review_screen_load_failed``."""

        error: str

    @dataclass
    class DrawProgress(Message):
        """``done`` of ``total`` cases drawn; handled by ``on_review_screen_draw_progress``."""

        done: int
        total: int

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, ReviewScreen.DrawProgress)

    @dataclass
    class Decided(Message):
        """A decision is written; handled by ``on_review_screen_decided``."""

        items: list[ReviewItem]
        status: Status
        then: str | None

    @dataclass
    class DecisionFailed(Message):
        """The review file could not be written; handled by
        ``on_review_screen_decision_failed``."""

        error: str

    def __init__(
        self,
        load: ReviewLoader,
        *,
        animate: bool = True,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._load_review = load
        self.animated = animate
        self.loaded: LoadedReview | None = None
        self.item: ReviewItem | None = None
        """The case on the stage (the queue's cursor, or a phase/width/theme switched to)."""
        self.view = "side"
        """One of :data:`VIEWS`."""
        self.view_chosen = False
        """The reviewer picked the view (v, f); until then each case gets what fits."""
        self.filter = CaseFilter()

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="review-body"):
            with Vertical(id="review-sidebar"):
                yield Input(placeholder="filter: status:changed tool:… phase:… text", id="filter")
                yield ReviewQueue(id="queue")
                yield Static("", id="review-counts")
            with Vertical(id="review-main"):
                with Vertical(id="review-loading"):
                    yield Static("Drawing every case…", id="loading-label")
                    yield ProgressBar(id="loading-bar", show_eta=False)
                yield Static("", id="case-summary")
                with ScrollableContainer(id="pictures"), Horizontal(id="picture-row"):
                    with Vertical(id="now-pane", classes="picture-pane"):
                        yield Static("", id="now-title", classes="pane-title")
                        yield CaseCard(SurfaceRegistry(), animate=False, id="now")
                    with Vertical(id="committed-pane", classes="picture-pane"):
                        yield Static("", id="committed-title", classes="pane-title")
                        yield SnapshotPicture(id="committed")
                with ScrollableContainer(id="diff-scroll"):
                    yield DiffView(id="diff")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.sub_title = "review"
        self.set_class(True, "-loading")
        # The queue's marks, the summary and the diff are drawn in the app theme's palette.
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)
        self._load()

    def _theme_changed(self, _theme: Theme) -> None:
        self._show_queue(self.item.id if self.item is not None else None)
        self.show_item(self.item, again=True)

    # --- loading ------------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="load")
    def _load(self) -> None:
        last = 0.0

        def progress(done: int, total: int) -> None:
            nonlocal last
            now = time.monotonic()
            if now - last >= PROGRESS_INTERVAL or done == total:
                last = now
                self.post_message(self.DrawProgress(done, total))

        try:
            loaded = self._load_review(progress)
        except Exception as error:  # noqa: BLE001 - any failure is shown, never a crash
            self.post_message(self.LoadFailed(f"{type(error).__name__}: {error}"))
            return
        self.post_message(self.Loaded(loaded))

    def on_review_screen_draw_progress(self, message: DrawProgress) -> None:
        self.query_one("#loading-bar", ProgressBar).update(
            total=message.total, progress=message.done
        )
        self.query_one("#loading-label", Static).update(
            f"Drawing every case… {message.done} of {message.total}"
        )

    def on_review_screen_load_failed(self, message: LoadFailed) -> None:
        self.query_one("#loading-label", Static).update(
            Text(f"Could not draw the cases: {message.error}", style="bold red")
        )

    def on_review_screen_loaded(self, message: Loaded) -> None:
        keep = self.item.id if self.item is not None else None
        self.loaded = message.loaded
        self.set_class(False, "-loading")
        registry = message.loaded.project.registry
        self.query_one("#now", CaseCard).registry = registry
        problems = message.loaded.board.review_file.problems
        if problems:
            self.notify(
                "\n".join(problem.format() for problem in problems[:5]),
                title="The review file has problems",
                severity="error" if message.loaded.board.file_errors else "warning",
                timeout=12,
                markup=False,
            )
        if message.loaded.board.stale:
            self.notify(
                f"{len(message.loaded.board.stale)} decision(s) about cases that no longer exist "
                "(`workbench review --prune` drops them)",
                severity="warning",
                timeout=8,
                markup=False,
            )
        self._show_queue(keep)
        self.query_one("#queue", ReviewQueue).focus()

    # --- the queue --------------------------------------------------------------------------

    @property
    def board(self) -> ReviewBoard | None:
        return self.loaded.board if self.loaded is not None else None

    def _show_queue(self, keep: str | None = None) -> None:
        board = self.board
        if board is None:
            return
        items = [item for item in board.items if self.filter.matches(item)]
        queue = self.query_one("#queue", ReviewQueue)
        shown = queue.show(items, keep=keep)
        counts = board.counts()
        # The queue's groups, as its sections count them: no case in two of them.
        groups = board.group_counts()
        line = Text()
        line.append(f"{groups['to review']} to review", style="bold")
        line.append(
            f" · {counts['new']} new · {groups['rejected']} rejected · "
            f"{groups['accepted']} accepted · {groups['never reviewed']} never reviewed",
        )
        if not self.filter.empty:
            line.append(f"\nshowing {len(items)} of {counts['cases']}", style="dim")
        if self.filter.problems:
            line.append("\n" + "; ".join(self.filter.problems), style="red")
        self.query_one("#review-counts", Static).update(line)
        self.show_item(shown)

    def on_review_queue_case_highlighted(self, message: ReviewQueue.CaseHighlighted) -> None:
        self.show_item(message.item)

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.filter = CaseFilter.parse(event.value)
        self._show_queue(self.item.id if self.item is not None else None)

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self) -> None:
        self.query_one("#queue", ReviewQueue).focus()

    # --- the stage ----------------------------------------------------------------------------

    def show_item(self, item: ReviewItem | None, *, again: bool = False) -> None:
        """Put ``item`` on the stage: live, committed, diff and what was decided (``again``:
        even if it is there already, after a decision)."""
        if item is self.item and item is not None and not again:
            return
        self.item = item
        summary = self.query_one("#case-summary", Static)
        card = self.query_one("#now", CaseCard)
        committed = self.query_one("#committed", SnapshotPicture)
        palette = palette_for(self.app.current_theme)
        self.query_one("#diff", DiffView).show(item, palette)
        if item is None or self.loaded is None:
            summary.update(Text("No case to show.", style="dim"))
            card.show(None, None)
            committed.show(None, None, None)
            return
        key = item.key
        card.case_theme = key.theme
        card.surface = key.surface
        card.card_width = key.width
        card.show_variant(self.loaded.project.catalog, item.ref, Phase(key.phase))
        card.expanded = key.surface != "collapsed"  # As the snapshot draws it.
        theme = BUILTIN_THEMES[CASE_THEMES[key.theme]]
        background = theme.to_color_system().generate()["background"]
        committed.show(item.committed_svg, item.committed_text, background)
        summary.update(self._summary(item))
        self._update_titles(item)
        if not self.view_chosen:
            self.view = "side" if self._fits_side_by_side(key.width) else "now"
        self._apply_view()

    def _update_titles(self, item: ReviewItem) -> None:
        flip = "  (f: the committed snapshot)" if self.view == "now" else ""
        self.query_one("#now-title", Static).update(
            Text.assemble(("now", "bold"), (" · drawn live", "dim"), (flip, "dim italic"))
        )
        committed_note = {
            "unchanged": " · the same as now",
            "changed": " · differs from now" if item.text_changed else " · colours differ",
            "new": " · none yet",
        }[item.snapshot]
        back = "  (f: now)" if self.view == "committed" else ""
        self.query_one("#committed-title", Static).update(
            Text.assemble(("committed", "bold"), (committed_note, "dim"), (back, "dim italic"))
        )

    def _summary(self, item: ReviewItem) -> Text:
        """Where the case is, its statuses and decision, and (when there is room) what a
        reviewer should see in it."""
        palette = palette_for(self.app.current_theme)
        key = item.key
        text = Text()
        text.append(f"{key.tool} › {key.api} › {key.variant}", style="bold")
        where = {
            "portal": "Portal",
            "card": key.phase,
            "collapsed": f"{key.phase}, folded",
        }.get(key.surface, key.surface)
        text.append(f" · {where} · {key.width} columns · {key.theme}\n")
        if item.snapshot != "unchanged":
            what = "changed" if item.text_changed or item.snapshot == "new" else "colours changed"
            text.append(
                f"{what if item.snapshot == 'changed' else 'new'} · ", style=palette.warning
            )
        review_colour = {
            "accepted": palette.success,
            "rejected": palette.error,
            "outdated": palette.warning,
            "unreviewed": palette.muted,
        }[item.review]
        decision = item.decision
        if decision is None:
            text.append("nobody has decided about it yet", style=review_colour)
        else:
            earlier = " an earlier picture of it" if item.review == "outdated" else ""
            text.append(
                f"{decision.status}{earlier} by {decision.reviewer} on {decision.at}",
                style=review_colour,
            )
            if decision.note:
                text.append(f": {decision.note}")
        if not self.has_class("-short"):
            text.append(f"\n{item.description}", style=palette.muted)
        return text

    def _fits_side_by_side(self, width: int) -> bool:
        main = self.query_one("#review-main").size.width
        return main >= 2 * (width + 4)

    def _apply_view(self) -> None:
        now, committed = self.query_one("#now-pane"), self.query_one("#committed-pane")
        now.display = self.view in ("side", "now")
        committed.display = self.view in ("side", "committed")
        if self.item is not None:
            self._update_titles(self.item)

    def on_resize(self) -> None:
        width, height = self.size
        self.set_class(width < NARROW, "-narrow")
        self.set_class(height < SHORT, "-short")
        if width < TINY and not self.has_class("-queue-chosen"):
            self.set_class(True, "-queue-hidden")
        if self.item is not None and not self.view_chosen:
            self.view = "side" if self._fits_side_by_side(self.item.key.width) else "now"
            self._apply_view()

    # --- deciding -----------------------------------------------------------------------------

    def _decide(self, status: Status, note: str = "", *, advance: bool = True) -> None:
        item, loaded = self.item, self.loaded
        if item is None or loaded is None:
            return
        then = None
        if advance:
            following = self.query_one("#queue", ReviewQueue).step(1, only_open=True)
            then = following.id if following is not None and following is not item else None
        self._write_decision(loaded, [item], status, note, then)

    @work(thread=True, group="decide")
    def _write_decision(
        self,
        loaded: LoadedReview,
        items: list[ReviewItem],
        status: Status,
        note: str,
        then: str | None,
    ) -> None:
        # The review file (and, on accepting, the snapshot files) are written off the UI thread.
        try:
            loaded.board.decide(items, status, loaded.reviewer, note)
        except OSError as error:
            self.post_message(self.DecisionFailed(f"{error.strerror or error}: {error.filename}"))
            return
        self.post_message(self.Decided(items, status, then))

    def on_review_screen_decided(self, message: Decided) -> None:
        [item] = message.items
        self.notify(f"{message.status.capitalize()}: {item.id}", timeout=2, markup=False)
        target_id = message.then or item.id
        self._show_queue(target_id)
        board = self.board
        target = (
            next((other for other in board.items if other.id == target_id), item) if board else item
        )
        self.show_item(target)

    def on_review_screen_decision_failed(self, message: DecisionFailed) -> None:
        self.notify(
            f"Could not write the review file: {message.error}",
            severity="error",
            timeout=10,
            markup=False,
        )

    def action_accept(self) -> None:
        """Accept what the case draws now (and make it the committed snapshot)."""
        self._decide("accepted")

    def action_reject(self) -> None:
        """Reject what the case draws now, with a note saying why."""
        if self.item is None:
            return
        self.app.push_screen(NoteScreen(self.item.id, mode="reject", decided=False), self._noted)

    def action_note(self) -> None:
        """Write a note with a decision (or on the one already made about this picture)."""
        item = self.item
        if item is None:
            return
        decided = item.review in ("accepted", "rejected")
        note = item.decision.note if decided and item.decision is not None else ""
        self.app.push_screen(
            NoteScreen(item.id, mode="note", decided=decided, note=note), self._noted
        )

    def _noted(self, answer: NoteAnswer | None) -> None:
        item = self.item
        if answer is None or item is None:
            return
        if answer.status is None:
            if item.decision is None:
                return
            self._decide(item.decision.status, answer.note, advance=False)
        else:
            self._decide(answer.status, answer.note)

    # --- moving -------------------------------------------------------------------------------

    def _go(self, item: ReviewItem | None) -> None:
        if item is None:
            return
        self.query_one("#queue", ReviewQueue).select_case(item.id)
        self.show_item(item)

    def action_next_case(self) -> None:
        self._go(self.query_one("#queue", ReviewQueue).step(1))

    def action_previous_case(self) -> None:
        self._go(self.query_one("#queue", ReviewQueue).step(-1))

    def action_next_open(self) -> None:
        """The next case nobody has decided about as it draws now."""
        found = self.query_one("#queue", ReviewQueue).step(1, only_open=True)
        if found is None:
            self.notify("Every case shown is decided.", timeout=2, markup=False)
        self._go(found)

    def _siblings(self) -> list[ReviewItem]:
        """The cases of the current variant and surface."""
        board, item = self.board, self.item
        if board is None or item is None:
            return []
        return [
            other
            for other in board.items
            if other.key.variant_id == item.key.variant_id and other.key.surface == item.key.surface
        ]

    def _switch(self, *, phase: int = 0, width: bool = False, theme: bool = False) -> None:
        item = self.item
        if item is None or self.loaded is None:
            return
        key = item.key
        siblings = self._siblings()
        if phase:
            phases = self.loaded.project.catalog.script_for(item.ref).phases
            names = [
                value.value for value in phases if any(s.key.phase == value.value for s in siblings)
            ]
            if key.surface != "card" or key.phase not in names:
                return
            index = names.index(key.phase) + phase
            if not 0 <= index < len(names):
                return
            wanted = [s for s in siblings if s.key.phase == names[index]]
            wanted = [s for s in wanted if s.key.surface == "card"] or wanted
            preferred = [s for s in wanted if s.key.theme == key.theme] or wanted
            choice = next((s for s in preferred if s.key.width == key.width), preferred[0])
        elif width:
            options = sorted(
                (s for s in siblings if s.key.phase == key.phase and s.key.theme == key.theme),
                key=lambda s: s.key.width,
            )
            if len(options) < 2:
                self.notify(f"{key.phase} in the {key.theme} theme has one width", timeout=2)
                return
            position = next(i for i, s in enumerate(options) if s is item)
            choice = options[(position + 1) % len(options)]
        else:
            other = "light" if key.theme == "dark" else "dark"
            options = [s for s in siblings if s.key.phase == key.phase and s.key.theme == other]
            if not options:
                self.notify(f"no {other} case of {key.phase}", timeout=2)
                return
            choice = next((s for s in options if s.key.width == key.width), options[0])
        self._go(choice)

    def action_next_phase(self) -> None:
        self._switch(phase=1)

    def action_previous_phase(self) -> None:
        self._switch(phase=-1)

    def action_cycle_width(self) -> None:
        self._switch(width=True)

    def action_toggle_case_theme(self) -> None:
        self._switch(theme=True)

    def action_cycle_view(self) -> None:
        """Side by side, the live case only, or the committed snapshot only."""
        self.view = VIEWS[(VIEWS.index(self.view) + 1) % len(VIEWS)]
        self.view_chosen = True
        self._apply_view()

    def action_flip(self) -> None:
        """Show the committed snapshot in place of the live case, or back."""
        self.view = "committed" if self.view != "committed" else "now"
        self.view_chosen = True
        self._apply_view()

    def action_focus_filter(self) -> None:
        self.set_class(False, "-queue-hidden")
        self.query_one("#filter", Input).focus()

    def action_toggle_queue(self) -> None:
        """Show or hide the queue (the keys that move through it work either way)."""
        self.set_class(True, "-queue-chosen")
        self.toggle_class("-queue-hidden")
        if self.has_class("-queue-hidden"):
            self.query_one("#pictures").focus()
        else:
            self.query_one("#queue", ReviewQueue).focus()

    def action_help(self) -> None:
        board = self.board
        if board is None:
            self.app.push_screen(ReviewHelpScreen(self.BINDINGS))
        else:
            self.app.push_screen(ReviewHelpScreen(self.BINDINGS, board.review_file.display_path))

    def action_reload(self) -> None:
        """Draw every case again (after changing a tool's surfaces or a fixture)."""
        self.set_class(True, "-loading")
        self._load()
