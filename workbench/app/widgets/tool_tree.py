"""The sidebar tree: tool -> API -> fixture variant, filterable."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Unpack

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from workbench.app.widgets.messages import WidgetMessage
from workbench.app.widgets.options import WidgetOptions
from workbench.app.widgets.sidebar_tree import SidebarTree
from workbench.fixtures.catalog import ApiEntry, Catalog, VariantRef

NodeData = VariantRef | tuple[str, ...] | None


class ToolTree(SidebarTree[NodeData]):
    """Tools, their APIs and each API's variants. Labels are literal text, never markup."""

    @dataclass
    class VariantSelected(WidgetMessage["ToolTree"]):
        """A variant was picked; handled by ``on_tool_tree_variant_selected``."""

        ref: VariantRef

    @dataclass
    class TranscriptSelected(WidgetMessage["ToolTree"]):
        """A transcript was picked (enter); handled by ``on_tool_tree_transcript_selected``."""

        path: Path

    @dataclass
    class BrokenVariantSelected(WidgetMessage["ToolTree"]):
        """A variant that did not load was picked: show its problem."""

        path: Path
        line: int

    def __init__(self, **options: Unpack[WidgetOptions]) -> None:
        super().__init__("tools", **options)
        self._catalog: Catalog | None = None
        self._transcripts: tuple[Path, ...] = ()
        self._filter = ""

    def load(self, catalog: Catalog, transcripts: tuple[Path, ...] = ()) -> None:
        """Fill the tree from ``catalog``, and the ``transcripts`` after its tools."""
        self._catalog = catalog
        self._transcripts = transcripts
        self._rebuild()

    def set_filter(self, text: str) -> None:
        """Keep only variants (and their API and tool) whose names contain ``text``."""
        self._filter = text.strip().lower()
        self._rebuild()

    def _matches(self, *names: str) -> bool:
        return not self._filter or any(self._filter in name.lower() for name in names)

    def _rebuild(self) -> None:
        self.clear()
        catalog = self._catalog
        if catalog is None:
            return
        for tool in sorted(catalog.tools.values(), key=lambda entry: entry.identifier):
            manifest = tool.manifest
            tool_label = Text(f"{manifest.meta.emoji} {manifest.meta.title}")
            tool_label.append(f"  {tool.identifier}", style="dim")
            tool_node: TreeNode[NodeData] | None = None
            for api in tool.apis.values():
                refs = [
                    ref
                    for ref in api.variants()
                    if self._matches(
                        tool.identifier,
                        manifest.meta.title,
                        api.name,
                        ref.variant.id,
                        ref.variant.label,
                        ref.variant.kind,
                    )
                ]
                if not refs:
                    continue
                if tool_node is None:
                    tool_node = self.root.add(
                        tool_label, data=("tool", tool.identifier), expand=True
                    )
                api_label = Text(api.name)
                if not api.has_fixtures:
                    api_label.append("  no fixtures", style="bold red")
                api_node = tool_node.add(
                    api_label, data=("api", tool.identifier, api.name), expand=True
                )
                for ref in refs:
                    broken = ref.variant.id in ref.fixture.broken_variants
                    # Loaded but with bad args: it replays, marked so nobody trusts it as is.
                    label = Text()
                    if broken:
                        label.append("✗ ", style="bold red")
                    label.append(ref.variant.id)
                    label.append(f"  {ref.variant.kind}", style="dim italic")
                    api_node.add_leaf(label, data=ref)
                self._add_unloaded(api_node, api)
        self._add_transcripts()
        if self._filter and not self.root.children:
            # An empty tree reads as "no tools at all": say it is the filter.
            nothing = Text("nothing matches ", style="italic")
            nothing.append(f"“{self._filter}”", style="bold")
            self.root.add_leaf(nothing, data=None)

    def _add_transcripts(self) -> None:
        """The project's agent sessions (``[tool.workbench] transcripts``): enter opens one."""
        shown = [path for path in self._transcripts if self._matches(path.name, "transcripts")]
        if not shown:
            return
        node = self.root.add(Text("💬 Transcripts"), data=("transcripts",), expand=True)
        for path in shown:
            label = Text(path.name)
            if not path.is_file():
                label.append("  missing", style="bold red")
            node.add_leaf(label, data=("transcript", str(path)))

    def _add_unloaded(self, api_node: TreeNode[NodeData], api: ApiEntry) -> None:
        """A leaf for each variant that did not load: its problem is one Enter away."""
        for fixture in api.fixtures:
            loaded = {variant.id for variant in fixture.file.variants}
            for label_text, line in fixture.broken_variants.items():
                if label_text in loaded or not self._matches(api.tool, api.name, label_text):
                    continue
                label = Text()
                label.append("✗ ", style="bold red")
                label.append(label_text, style="strike")
                label.append(f"  line {line}", style="dim italic")
                api_node.add_leaf(label, data=("broken", str(fixture.path), str(line)))

    def select_ref(self, key: str) -> bool:
        """Select the variant addressed ``path#id``; ``False`` if the tree does not show it."""
        return self._select_variant(lambda ref: ref.key == key)

    def select_first(self) -> None:
        self._select_variant(lambda ref: True)

    def first_variant(self) -> VariantRef | None:
        """The variant :meth:`select_first` selects (``None``: the tree shows none)."""
        node = self._first_variant_node(lambda ref: True)
        return node.data if node is not None and isinstance(node.data, VariantRef) else None

    def _first_variant_node(
        self, wanted: Callable[[VariantRef], bool]
    ) -> TreeNode[NodeData] | None:
        """The first variant node, depth first, that ``wanted`` accepts."""
        return next(
            (
                item
                for item in self.nodes()
                if isinstance(item.data, VariantRef) and wanted(item.data)
            ),
            None,
        )

    def _select_variant(self, wanted: Callable[[VariantRef], bool]) -> bool:
        """Select the first variant node, depth first, that ``wanted`` accepts."""
        node = self._first_variant_node(wanted)
        if node is None:
            return False
        self.move_cursor(node)
        self.select_node(node)
        self.call_after_refresh(self._reveal, node)
        return True

    def _reveal(self, node: TreeNode[NodeData]) -> None:
        """Show ``node`` with as much of the tree above it as fits: moving the cursor while the
        tree had no height yet scrolled its tool and API rows out of view."""
        self.scroll_home(animate=False, immediate=True)
        self.scroll_to_node(node, animate=False)

    def on_tree_node_selected(self, event: Tree.NodeSelected[NodeData]) -> None:
        event.stop()
        data = event.node.data
        if isinstance(data, VariantRef):
            self.post_message(self.VariantSelected(self, data))
        elif isinstance(data, tuple) and data[0] == "broken":
            self.post_message(self.BrokenVariantSelected(self, Path(data[1]), int(data[2])))
        elif isinstance(data, tuple) and data[0] == "transcript":
            self.post_message(self.TranscriptSelected(self, Path(data[1])))

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[NodeData]) -> None:
        # Moving the cursor onto a variant previews it, like a file browser.
        event.stop()
        if isinstance(event.node.data, VariantRef):
            self.post_message(self.VariantSelected(self, event.node.data))
