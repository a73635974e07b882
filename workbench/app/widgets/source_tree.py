"""The live sidebar: source -> tool -> API, with each source's connection state; and for an
MCP server, what else it publishes: resources, resource templates and prompts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from workbench.app.widgets.messages import WidgetMessage
from workbench.app.widgets.sidebar_tree import SidebarTree
from workbench.core.sanitize import clean
from workbench.sources.base import SourceState
from workbench.sources.manager import ToolManager

ApiAddress = tuple[str, str, str]
"""(source name, tool identifier, API name)."""
MAX_CATALOG_NODES = 200
MAX_ROOTS_SHOWN = 3
"""Roots named on the server's row before "showing N of M"."""
"""Resources (or templates, prompts) shown per server; the rest are counted."""


@dataclass(frozen=True)
class CatalogAddress:
    """A resource, resource template or prompt of an MCP server (``key``: URI, template or
    prompt name)."""

    kind: Literal["resource", "template", "prompt"]
    source: str
    key: str


NodeData = ApiAddress | CatalogAddress | str | None

STATE_STYLES = {
    SourceState.READY: "green",
    SourceState.STARTING: "yellow",
    SourceState.FAILED: "bold red",
    SourceState.STOPPED: "dim",
}


class SourceTree(SidebarTree[NodeData]):
    """Every tool of every source, grouped by source; conflicts are marked."""

    @dataclass
    class ApiSelected(WidgetMessage["SourceTree"]):
        """An API was picked; handled by ``on_source_tree_api_selected``."""

        address: ApiAddress
        picked: bool = False
        """Chosen with enter (go fill in its form), not only moved onto."""

    @dataclass
    class CatalogSelected(WidgetMessage["SourceTree"]):
        """A resource, template or prompt was chosen (enter or click); handled by
        ``on_source_tree_catalog_selected``."""

        address: CatalogAddress

    def __init__(
        self,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__("sources", name=name, id=id, classes=classes, disabled=disabled)

    def load(self, manager: ToolManager) -> None:
        """Rebuild from the manager's sources and their tools."""
        self.clear()
        conflicts = manager.conflicts()
        entries = manager.entries()
        ui_only = manager.ui_only()
        for source in manager.sources:
            state = source.status.state
            label = Text("● ", style=STATE_STYLES.get(state, ""))
            label.append(clean(source.name), style="bold")
            label.append(f"  {source.kind} · {state.value}", style="dim")
            source_node = self.root.add(label, data=source.name, expand=True)
            if state is SourceState.FAILED and source.status.detail:
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
                    label = Text(api.name)
                    if api.ui is not None:
                        label.append("  app UI", style="dim")
                        if not api.ui.model_visible:
                            # _meta.ui.visibility leaves the model out: only the app calls it.
                            label.append(" · app only", style="dim italic")
                    tool_node.add_leaf(label, data=(source.name, entry.tool, api.name))
            for entry in ui_only:
                if entry.source is not source:
                    continue
                # Folded: an agent's own tools are here only to say they cannot be called.
                manifest = entry.manifest
                tool_label = Text(f"{manifest.meta.emoji} {manifest.meta.title}", style="dim")
                tool_label.append(f"  {manifest.identifier} · UI only, not callable", style="dim")
                tool_node = source_node.add(tool_label, data=None, expand=False)
                for api in manifest.api:
                    data = (source.name, entry.tool, api.name)
                    tool_node.add_leaf(Text(api.name, style="dim"), data=data)
            roots = getattr(source, "roots", None)
            if roots is not None:
                # Which folders this server may learn of (roots/list): none unless named.
                source_node.add_leaf(roots_label(roots), data=None)
            if state is SourceState.READY:
                self._add_catalog(source_node, source)

    def _add_catalog(self, node: TreeNode[NodeData], source: object) -> None:
        """An MCP server's resources, templates and prompts, each under its own branch."""
        name = getattr(source, "name", "")
        resources = [
            (self._leaf(item.label, item.uri), CatalogAddress("resource", name, item.uri))
            for item in getattr(source, "resources", None) or []
        ]
        templates = [
            (
                self._leaf(item.name, item.uri_template),
                CatalogAddress("template", name, item.uri_template),
            )
            for item in getattr(source, "templates", None) or []
        ]
        prompts = [
            (self._leaf(item.label, item.description), CatalogAddress("prompt", name, item.name))
            for item in getattr(source, "prompts", None) or []
        ]
        for title, leaves in (
            ("resources", resources),
            ("resource templates", templates),
            ("prompts", prompts),
        ):
            if not leaves:
                continue
            branch = node.add(Text(f"{title} ({len(leaves)})", style="italic"), data=None)
            for label, address in leaves[:MAX_CATALOG_NODES]:
                branch.add_leaf(label, data=address)
            if len(leaves) > MAX_CATALOG_NODES:
                more = f"showing {MAX_CATALOG_NODES} of {len(leaves):,} {title}"
                branch.add_leaf(Text(more, style="dim italic"), data=None)

    @staticmethod
    def _leaf(label: str, detail: str) -> Text:
        text = Text(clean(label)[:60])
        if detail and detail != label:
            text.append(f"  {clean(detail)[:60]}", style="dim")
        return text

    def select_first_api(self) -> None:
        for node in self.nodes():
            if isinstance(node.data, tuple):
                self.move_cursor(node)
                # Shown, not picked: the focus stays in the tree.
                self.post_message(self.ApiSelected(self, node.data))
                self.call_after_refresh(self._reveal, node)
                return

    def _reveal(self, node: TreeNode[NodeData]) -> None:
        """Show ``node`` below its source and tool rows (moving the cursor before the tree had
        a height scrolled them out of view), with the cursor on it (a node added in this
        refresh has no line yet, so the first move left the cursor on the top row)."""
        self.move_cursor(node, animate=False)
        self.scroll_home(animate=False, immediate=True)
        self.scroll_to_node(node, animate=False)

    def on_tree_node_selected(self, event: Tree.NodeSelected[NodeData]) -> None:
        event.stop()
        if isinstance(event.node.data, tuple):
            self.post_message(self.ApiSelected(self, event.node.data, picked=True))
        elif isinstance(event.node.data, CatalogAddress):
            self.post_message(self.CatalogSelected(self, event.node.data))

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[NodeData]) -> None:
        event.stop()
        if isinstance(event.node.data, tuple):
            self.post_message(self.ApiSelected(self, event.node.data))


def roots_label(roots: Sequence[Path]) -> Text:
    """``roots offered: none``, or the folders a server is told about (``--root``, mcp.json)."""
    if not roots:
        return Text("roots offered: none", style="dim italic")
    shown = ", ".join(clean(str(root)) for root in roots[:MAX_ROOTS_SHOWN])
    if len(roots) > MAX_ROOTS_SHOWN:
        shown += f" (showing {MAX_ROOTS_SHOWN} of {len(roots)})"
    return Text(f"roots offered: {shown}", style="dim")
