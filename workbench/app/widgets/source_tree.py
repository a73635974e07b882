"""The live sidebar: source -> tool -> API, with each source's connection state."""

from __future__ import annotations

from collections.abc import Iterator

from rich.style import Style
from rich.text import Text
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from workbench.app.widgets.tool_tree import fit_label
from workbench.core.sanitize import clean
from workbench.sources.manager import ToolManager

ApiAddress = tuple[str, str, str]
"""(source name, tool identifier, API name)."""

STATE_STYLES = {"ready": "green", "starting": "yellow", "failed": "bold red", "stopped": "dim"}


class SourceTree(Tree[ApiAddress | str | None]):
    """Every tool of every source, grouped by source; conflicts are marked."""

    DEFAULT_CSS = """
    SourceTree {
        width: 1fr;
        height: 1fr;
        background: $surface;
    }
    """

    class ApiSelected(Message):
        """An API was picked; handled by ``on_source_tree_api_selected``."""

        def __init__(self, control: SourceTree, address: ApiAddress, picked: bool = False) -> None:
            super().__init__()
            self._control = control
            self.address = address
            self.picked = picked
            """Chosen with enter (go fill in its form), not only moved onto."""

        @property
        def control(self) -> SourceTree:
            return self._control

    def __init__(
        self,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(Text("sources"), name=name, id=id, classes=classes, disabled=disabled)
        self.show_root = False
        self.guide_depth = 2

    def render_label(
        self, node: TreeNode[ApiAddress | str | None], base_style: Style, style: Style
    ) -> Text:
        return fit_label(self, node, super().render_label(node, base_style, style))

    def load(self, manager: ToolManager) -> None:
        """Rebuild from the manager's sources and their tools."""
        self.clear()
        conflicts = manager.conflicts()
        entries = manager.entries()
        for source in manager.sources:
            state = source.status.state.value
            label = Text("● ", style=STATE_STYLES.get(state, ""))
            label.append(clean(source.name), style="bold")
            label.append(f"  {source.kind} · {state}", style="dim")
            source_node = self.root.add(label, data=source.name, expand=True)
            if state == "failed" and source.status.detail:
                source_node.add_leaf(
                    Text(clean(source.status.detail.splitlines()[0])[:120], style="red"), data=None
                )
            for entry in entries:
                if entry.source is not source:
                    continue
                manifest = entry.manifest
                tool_label = Text(f"{manifest.meta.emoji} {manifest.meta.title}")
                tool_label.append(f"  {manifest.identifier}", style="dim")
                if entry.tool in conflicts:
                    tool_label.append("  ⚠ conflict", style="bold yellow")
                tool_node = source_node.add(tool_label, data=None, expand=True)
                for api in manifest.api:
                    tool_node.add_leaf(Text(api.name), data=(source.name, entry.tool, api.name))

    def select_first_api(self) -> None:
        for node in self._walk(self.root):
            if isinstance(node.data, tuple):
                self.move_cursor(node)
                # Shown, not picked: the focus stays in the tree.
                self.post_message(self.ApiSelected(self, node.data))
                self.call_after_refresh(self._reveal, node)
                return

    def _reveal(self, node: TreeNode[ApiAddress | str | None]) -> None:
        """Show ``node`` below its source and tool rows (moving the cursor before the tree had
        a height scrolled them out of view), with the cursor on it (a node added in this
        refresh has no line yet, so the first move left the cursor on the top row)."""
        self.move_cursor(node, animate=False)
        self.scroll_home(animate=False, immediate=True)
        self.scroll_to_node(node, animate=False)

    def _walk(
        self, node: TreeNode[ApiAddress | str | None]
    ) -> Iterator[TreeNode[ApiAddress | str | None]]:
        yield node
        for child in node.children:
            yield from self._walk(child)

    def on_tree_node_selected(self, event: Tree.NodeSelected[ApiAddress | str | None]) -> None:
        event.stop()
        if isinstance(event.node.data, tuple):
            self.post_message(self.ApiSelected(self, event.node.data, picked=True))

    def on_tree_node_highlighted(
        self, event: Tree.NodeHighlighted[ApiAddress | str | None]
    ) -> None:
        event.stop()
        if isinstance(event.node.data, tuple):
            self.post_message(self.ApiSelected(self, event.node.data))
