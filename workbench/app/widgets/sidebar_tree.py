"""What the sidebar trees share: no root row, shallow guides, and a walk over every node."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar, TypeVar

from rich.style import Style
from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

NodeDataT = TypeVar("NodeDataT")


def fit_label(tree: Tree[Any], node: TreeNode[Any], label: Text) -> Text:
    """``label`` cut with ``…`` to the room its row has, so a long name never just stops."""
    depth = 0
    parent = node.parent
    while parent is not None and parent is not tree.root:
        depth += 1
        parent = parent.parent
    room = tree.scrollable_content_region.width - depth * tree.guide_depth - 1
    if room <= 4 or label.cell_len <= room:
        return label
    cut = label.copy()
    cut.truncate(room, overflow="ellipsis")
    return cut


class SidebarTree(Tree[NodeDataT]):
    """A tree filling the sidebar (tools, sources, review cases), its root hidden.

    Labels are literal text, never markup.
    """

    DEFAULT_CSS = """
    SidebarTree {
        width: 1fr;
        height: 1fr;
        background: $surface;
    }
    """

    FIT_LABELS: ClassVar[bool] = True
    """Cut each label with ``…`` to its row (names from tools can be any length)."""

    def __init__(
        self,
        label: str,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(Text(label), name=name, id=id, classes=classes, disabled=disabled)
        self.show_root = False
        self.guide_depth = 2

    def render_label(self, node: TreeNode[NodeDataT], base_style: Style, style: Style) -> Text:
        label = super().render_label(node, base_style, style)
        return fit_label(self, node, label) if self.FIT_LABELS else label

    def nodes(self) -> list[TreeNode[NodeDataT]]:
        """Every node, depth first."""
        return list(self._walk(self.root))

    def _walk(self, node: TreeNode[NodeDataT]) -> Iterator[TreeNode[NodeDataT]]:
        yield node
        for child in node.children:
            yield from self._walk(child)
