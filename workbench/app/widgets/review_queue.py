"""The review queue: cases to review first, then never reviewed, rejected, accepted; each
section grouped by tool, API and variant."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from workbench.app.palette import palette_for
from workbench.app.widgets.messages import WidgetMessage
from workbench.app.widgets.sidebar_tree import SidebarTree
from workbench.review.board import GROUPS, ReviewItem, queue_order
from workbench.surfaces.context import Palette

SECTION_TITLES = {
    "to review": "To review",
    "never reviewed": "Never reviewed",
    "rejected": "Rejected",
    "accepted": "Accepted",
}
OPEN_SECTIONS = ("to review", "rejected")
"""Sections shown unfolded down to their cases; the others open at their tools."""

MARKS: dict[str, tuple[str, str]] = {
    # review status: (mark, palette colour)
    "accepted": ("✓", "success"),
    "rejected": ("✗", "error"),
    "outdated": ("↻", "warning"),
    "unreviewed": ("○", "muted"),
}


class ReviewQueue(SidebarTree[ReviewItem | None]):
    """Every case of the board in queue order. Labels are literal text, never markup."""

    FIT_LABELS = False
    """Case labels are drawn whole, as the queue has always drawn them."""

    @dataclass
    class CaseHighlighted(WidgetMessage["ReviewQueue"]):
        """The cursor is on a case; handled by ``on_review_queue_case_highlighted``."""

        item: ReviewItem

    def __init__(
        self,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__("cases", name=name, id=id, classes=classes, disabled=disabled)
        self.ordered: list[ReviewItem] = []
        """The cases shown, in queue order (what next and previous walk)."""
        self._leaves: dict[str, TreeNode[ReviewItem | None]] = {}

    def show(self, items: list[ReviewItem], *, keep: str | None = None) -> ReviewItem | None:
        """Show ``items`` (already filtered) in queue order with the cursor on ``keep`` (else
        the first); returns the case the cursor is on."""
        self.ordered = queue_order(items)
        self._leaves = {}
        self.clear()
        palette = palette_for(self.app.current_theme)
        by_group: dict[int, list[ReviewItem]] = {}
        for item in self.ordered:
            by_group.setdefault(item.group, []).append(item)
        for group, members in sorted(by_group.items()):
            name = GROUPS[group]
            is_open = name in OPEN_SECTIONS
            title = Text(f"{SECTION_TITLES[name]} ", style="bold")
            title.append(f"{len(members)}", style="dim")
            section = self.root.add(title, expand=True)
            path: tuple[str, ...] = ()
            nodes: dict[tuple[str, ...], TreeNode[ReviewItem | None]] = {}
            for item in members:
                key = item.key
                for depth, part in enumerate((key.tool, key.api, key.variant)):
                    path = (key.tool, key.api, key.variant)[: depth + 1]
                    if path in nodes:
                        continue
                    parent = nodes[path[:-1]] if depth else section
                    label = Text(part)
                    if depth == 2:
                        label.append(f"  {item.ref.variant.label}", style="dim")
                    nodes[path] = parent.add(label, expand=is_open or depth == 0)
                leaf = nodes[path].add_leaf(self._label(item, palette), data=item)
                self._leaves[item.id] = leaf
        if not self.ordered:
            self.root.add_leaf(Text("No case matches the filter.", style="dim italic"))
            return None
        wanted = self._leaves.get(keep or "") or self._leaves[self.ordered[0].id]
        self.reveal(wanted)
        return wanted.data

    @staticmethod
    def _label(item: ReviewItem, palette: Palette) -> Text:
        mark, colour = MARKS[item.review]
        label = Text()
        label.append(f"{mark} ", style=getattr(palette, colour))
        label.append(item.key.name)
        if item.snapshot != "unchanged":
            label.append(f"  {item.snapshot}", style=palette.warning)
        return label

    def reveal(self, node: TreeNode[ReviewItem | None]) -> None:
        """Unfold ``node``'s parents and put the cursor on it (once the tree has numbered its
        lines again)."""
        parent = node.parent
        while parent is not None:
            parent.expand()
            parent = parent.parent
        self.call_after_refresh(self.move_cursor, node)

    def select_case(self, case_id: str) -> bool:
        leaf = self._leaves.get(case_id)
        if leaf is None:
            return False
        self.reveal(leaf)
        return True

    @property
    def current(self) -> ReviewItem | None:
        node = self.cursor_node
        return node.data if node is not None else None

    def step(self, offset: int, *, only_open: bool = False) -> ReviewItem | None:
        """The case ``offset`` places from the current one in queue order (wrapping when
        ``only_open``: the next case still to decide, from anywhere)."""
        if not self.ordered:
            return None
        current = self.current
        index = self.ordered.index(current) if current in self.ordered else -1
        count = len(self.ordered)
        for step in range(1, count + 1):
            position = index + offset * step
            if not only_open and not 0 <= position < count:
                return None
            candidate = self.ordered[position % count]
            if not only_open or candidate.review in ("unreviewed", "outdated"):
                if candidate is current:
                    return None
                return candidate
        return None

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[ReviewItem | None]) -> None:
        event.stop()
        if event.node.data is not None:
            self.post_message(self.CaseHighlighted(self, event.node.data))
