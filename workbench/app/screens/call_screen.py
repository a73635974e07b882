"""What every screen that shows a call shares: a sidebar, a ``CallView``, and their keys."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, Tree

from workbench.app.widgets.call_view import CallView, portal_layout

if TYPE_CHECKING:
    from workbench.config import WorkbenchConfig
    from workbench.hosts import HostSet

SHORT_SCREEN = 30
"""Below this many rows the details tabs start folded away: the card needs the rows."""


MIN_SIDEBAR = 20
"""The narrowest sidebar: narrower, its labels are all "…"."""
READABLE_CARD = 40
"""The card's width the sidebar gives way to: at 30 columns its title and lines were cut."""
STAGE_CHROME = 4
"""Columns of the call stage that are not the card's: padding (2 left, 1 right) and gutter."""


def sidebar_width(screen_width: int) -> int:
    """The sidebar's width on a screen ``screen_width`` columns wide."""
    if screen_width >= 160:
        return 40
    if screen_width >= 110:
        return 34
    # Narrow: the sidebar leaves the card a readable width (and the stage's padding and
    # scrollbar gutter) down to its own floor; its labels end in "…" instead.
    return max(MIN_SIDEBAR, min(30, screen_width - READABLE_CARD - STAGE_CHROME))


def sidebar_folds(screen_width: int) -> bool:
    """Whether the sidebar starts folded away: even at its floor the card would be cut short."""
    return screen_width - MIN_SIDEBAR - STAGE_CHROME < READABLE_CARD


class CallScreen(Screen[None]):
    """A screen with ``#sidebar`` on the left and a ``CallView`` (``#call``) in the middle.

    It answers the open Intervention (``y`` / ``n`` / ``escape``, shown in the footer only
    while one waits) and lays the screen out for its size: the sidebar narrows on small
    terminals and steps aside while the Portal is open when that lets the Portal sit beside
    the card instead of over it.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "y", "accept_intervention", "Approve", tooltip="Approve the call (with edited args)"
        ),
        Binding(
            "n",
            "decline_intervention",
            "Skip…",
            tooltip="Skip the call: type the reason told to the model, then enter",
        ),
        Binding(
            "escape",
            "cancel_intervention",
            "Cancel",
            tooltip="Cancel the call waiting for approval",
        ),
        Binding(
            "ctrl+b,f4",
            "toggle_tree",
            "Hide tree",
            tooltip="Hide or show the tree: the card gets the whole width (every width preset)",
        ),
    ]

    ANSWER_ACTIONS: ClassVar[tuple[str, ...]] = (
        "accept_intervention",
        "decline_intervention",
        "cancel_intervention",
    )
    """The keys that answer an open question: first in the footer while one waits."""

    tree_choice: bool | None = None
    """Whether the user hid (``True``) or showed the sidebar with ``ctrl+b``; ``None`` follows
    the size (folded on a narrow screen, as Review folds its queue)."""
    details_choice: bool | None = None
    """Whether the user showed (``True``) or hid the details; ``None`` follows the size."""
    _sidebar_focus: Widget | None = None
    """What had the focus in the sidebar when it stepped aside; it gets it back on return."""

    @property
    def call_view(self) -> CallView:
        return self.query_one("#call", CallView)

    @property
    def tree_hidden(self) -> bool:
        """Whether the sidebar is folded away (by ``ctrl+b``, or by a narrow screen): the card
        has the screen's whole width."""
        if self.tree_choice is not None:
            return self.tree_choice
        return sidebar_folds(self.size.width)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.ANSWER_ACTIONS:
            if self.call_view.intervention is None:
                return False
            # Typing in a field under the card: its keys type, the buttons still answer; the
            # footer keeps the keys (dimmed), so the way to answer never leaves the screen.
            # TextArea is imported here: only an open Intervention has one, and a start skips it.
            from textual.widgets import TextArea

            focused = self.focused
            if action != "cancel_intervention" and isinstance(focused, (Input, TextArea)):
                return None
        # The fold key is out of the footer (and a no-op) while the card cannot fold: only a
        # done card of an API that does not say alwaysExpand folds; approvals and errors never.
        return action != "toggle_folded" or self.call_view.card.can_fold

    # --- the footer ---------------------------------------------------------------------------

    def footer_first(self) -> tuple[str, ...]:
        """The actions whose keys lead the footer now: the answers while a question waits."""
        return self.ANSWER_ACTIONS if self.call_view.intervention is not None else ()

    def tree_first(self) -> tuple[str, ...]:
        """The tree key, to lead the footer while a narrow screen folded the tree by itself:
        else nothing on the screen says where the tree went."""
        return ("toggle_tree",) if self.tree_choice is None and self.tree_hidden else ()

    def footer_label(self, binding: Binding) -> str:
        """The footer's word for ``binding``: the tree key says what it will do."""
        if binding.action == "toggle_tree":
            return "Show tree" if self.tree_hidden else "Hide tree"
        if binding.action == "cycle_host_look":
            host = self.call_view.card.host_look
            return f"Look: {host.name}" if host is not None else binding.description
        if binding.action == "toggle_folded":
            return "Expand" if self.call_view.card.folded else "Fold"
        return binding.description

    def action_accept_intervention(self) -> None:
        intervention = self.call_view.intervention
        if intervention is not None:
            intervention.accept()

    def action_decline_intervention(self) -> None:
        intervention = self.call_view.intervention
        if intervention is not None:
            intervention.decline()

    def action_cancel_intervention(self) -> None:
        intervention = self.call_view.intervention
        if intervention is not None:
            intervention.cancel()

    def action_toggle_portal(self) -> None:
        """Open or close the Portal of the shown call."""
        self.call_view.toggle_portal()

    def action_cycle_width(self) -> None:
        """Frame the card at the next width: fit, 60, 80, 120 columns."""
        self.call_view.cycle_width()

    def action_cycle_host_look(self) -> None:
        """Show the card as the next host first shows it (folded), or whole again."""
        self.call_view.cycle_host_look()
        self.refresh_bindings()  # The footer names the host shown.

    @work(thread=True, exclusive=True, group="hosts")
    def load_hosts(self, config: WorkbenchConfig) -> None:
        """Read the project's host profiles and targets (off the UI thread: a project's
        profile file is read from disk) and offer them in the call view."""
        from workbench.hosts import load_hosts

        hosts = load_hosts(config)
        self.app.call_from_thread(self._use_hosts, hosts)

    def _use_hosts(self, hosts: HostSet) -> None:
        if self.is_attached:
            self.call_view.use_hosts(hosts)
            self.refresh_bindings()

    def action_toggle_folded(self) -> None:
        """Open the folded card (its Render) or fold it to the Inspector and one line."""
        self.call_view.toggle_folded()
        self.refresh_bindings()  # The footer's word follows: "Expand" or "Fold".

    def action_toggle_tree(self) -> None:
        """Hide the sidebar (the card gets the whole width) or bring it back."""
        self.tree_choice = not self.tree_hidden
        self.arrange_for_size()
        self.refresh_bindings()

    def show_tree(self) -> None:
        """Bring the sidebar back if it is folded away (for a key that works in it)."""
        if self.tree_hidden:
            self.action_toggle_tree()

    def focus_without_tree(self) -> None:
        """Where the focus goes when the sidebar it was in is hidden (nowhere: the screen's
        keys still work)."""
        self.set_focus(None)

    def action_toggle_details(self) -> None:
        """Show or hide the details tabs (args, content, state, error, manifest, schema)."""
        self.details_choice = not self.call_view.details_open
        self.call_view.show_details(self.details_choice)

    # --- layout ----------------------------------------------------------------------------

    def on_resize(self) -> None:
        self.arrange_for_size()

    def on_call_view_portal_toggled(self, message: CallView.PortalToggled) -> None:
        del message
        self.arrange_for_size()
        self.refresh_bindings()

    def arrange_for_size(self) -> None:
        """Size the sidebar for the terminal; fold it away if that lets the Portal dock. Fold
        the details away on a short terminal (unless the user asked for them)."""
        view = self.call_view
        short = self.size.height < SHORT_SCREEN
        self.set_class(short, "-short")
        view.show_details(self.details_choice if self.details_choice is not None else not short)
        self.refresh_bindings()  # The tree key's word and place follow the size.
        sidebar = self.query_one("#sidebar", Vertical)
        width = sidebar_width(self.size.width)
        sidebar.styles.width = width
        beside = self.size.width - width - self.reserved_width()
        hide = self.tree_hidden or (
            view.portal_open
            and portal_layout(beside)[0] == "overlay"
            and portal_layout(beside + width)[0] == "docked"
        )
        self.set_class(hide, "-tree-hidden")
        if hide and sidebar.has_focus_within:
            self._sidebar_focus = self.focused
            self.focus_without_tree()
        if not hide and not sidebar.display:
            self.call_after_refresh(self._scroll_trees_to_cursor)
        sidebar.display = not hide
        if not hide and self._sidebar_focus is not None:
            before, self._sidebar_focus = self._sidebar_focus, None
            if self.focused is None and before.is_attached:
                # Else the focus stays nowhere, and a closed modal hands it to the first
                # field (the filter), where the screen's keys type letters.
                before.focus()

    def _scroll_trees_to_cursor(self) -> None:
        """A tree that moved its cursor while folded scrolled in no room: scroll from the top
        only as far as its cursor needs."""
        for tree in self.query_one("#sidebar").query(Tree):
            tree.scroll_home(animate=False, immediate=True)
            tree.scroll_to_line(tree.cursor_line, animate=False)

    def reserved_width(self) -> int:
        """Columns other than the sidebar's that the call view cannot have (a side form)."""
        return 0
