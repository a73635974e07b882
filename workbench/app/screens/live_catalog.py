"""The live screen's reading of what an MCP server publishes besides tools: resources,
resource templates and prompts, shown in the Portal."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from textual import work

from workbench.app.palette import palette_for
from workbench.app.screens.call_screen import CallScreen
from workbench.app.widgets.history_panel import HistoryEntry
from workbench.app.widgets.schema_form import SchemaForm
from workbench.app.widgets.server_log_panel import ServerLogPanel
from workbench.app.widgets.source_tree import ApiAddress, CatalogAddress, SourceTree
from workbench.core.manifest import ToolApi
from workbench.core.mcp_catalog import PromptInfo, ResourceTemplateInfo
from workbench.core.sanitize import clean
from workbench.session import LiveSession
from workbench.sources.mcp_source import McpSource
from workbench.surfaces.context import Palette
from workbench.surfaces.mcp_views import prompt_view, resource_view


class CatalogBrowsing(CallScreen):
    """Picking a resource, template or prompt in the tree reads it into the Portal (a template
    or a prompt asks for its values in the form first); f9 follows a result's resource links."""

    session: LiveSession
    address: ApiAddress | None
    form_target: CatalogAddress | None
    """The form is for a resource template or a prompt, not an API call."""
    viewed: HistoryEntry | None
    _link_index: int

    def _mcp_source(self, name: str) -> McpSource | None:
        return next(
            (
                source
                for source in self.session.manager.sources
                if source.name == name and isinstance(source, McpSource)
            ),
            None,
        )

    def _follow_log(self, source_name: str) -> None:
        source = self._mcp_source(source_name)
        panel = self.query_one("#server-log", ServerLogPanel)
        panel.follow(source_name, source.server_log if source is not None else None)

    def on_source_tree_catalog_selected(self, message: SourceTree.CatalogSelected) -> None:
        address = message.address
        self._follow_log(address.source)
        source = self._mcp_source(address.source)
        if source is None:
            return
        if address.kind == "resource":
            self._read_resource(address.source, address.key)
            return
        found: ResourceTemplateInfo | PromptInfo | None
        if address.kind == "template":
            found = next(
                (item for item in source.templates if item.uri_template == address.key), None
            )
            name, action = "read", f"read {address.key} with these values"
        else:
            found = next((item for item in source.prompts if item.name == address.key), None)
            name, action = "get_prompt", f"render the prompt {found.label if found else ''}"
        if found is None:
            return
        api = ToolApi(name=name, description=action, parameters=found.schema())
        self.form_target = address
        self.address = None
        self.query_one("#form", SchemaForm).load(api)
        self.notify(
            clean(f"Fill in the form and press ctrl+s to {api.description}."),
            timeout=4,
            markup=False,
        )

    def _use_catalog(self, address: CatalogAddress, args: dict[str, Any]) -> None:
        values = {key: str(value) for key, value in args.items() if value not in (None, "")}
        source = self._mcp_source(address.source)
        if source is None:
            return
        if address.kind == "template":
            template = next(
                (item for item in source.templates if item.uri_template == address.key), None
            )
            if template is not None:
                self._read_resource(address.source, template.expand(values))
        elif address.kind == "prompt":
            self._get_prompt(address.source, address.key, values)

    @work(group="catalog")
    async def _read_resource(self, source_name: str, uri: str) -> None:
        source = self._mcp_source(source_name)
        if source is None:
            return
        read = await source.read_resource(uri)
        self._show_in_portal(f"{source_name} · resource", resource_view(read, self._palette()))

    @work(group="catalog")
    async def _get_prompt(self, source_name: str, name: str, values: dict[str, str]) -> None:
        source = self._mcp_source(source_name)
        if source is None:
            return
        rendered = await source.get_prompt(name, values)
        self._show_in_portal(f"{source_name} · prompt", prompt_view(rendered, self._palette()))

    def _palette(self) -> Palette:
        return palette_for(self.app.current_theme)

    def _show_in_portal(self, title: str, renderable: RenderableType) -> None:
        """Show a resource or prompt in the Portal (opening it); calls leave it there until
        the Portal is toggled or another call starts."""
        view = self.call_view
        if not view.portal_open:
            view.toggle_portal()
        view.portal.show_renderable(clean(title), renderable)

    def action_open_link(self) -> None:
        """Read the next resource link of the call on the card, in the Portal."""
        entry = self.viewed
        result = entry.state.result if entry is not None else None
        state = result.state if result is not None else None
        blocks = state.get("blocks") if isinstance(state, dict) else None
        links = [
            block
            for block in blocks or []
            if isinstance(block, dict) and block.get("type") == "resource_link"
        ]
        if entry is None or not links:
            self.notify("The call on the card has no resource links.", severity="warning")
            return
        link = links[self._link_index % len(links)]
        self._link_index += 1
        self.notify(
            clean(
                f"Link {((self._link_index - 1) % len(links)) + 1} of {len(links)}: {link['uri']}"
            ),
            timeout=3,
            markup=False,
        )
        self._read_resource(entry.source, str(link["uri"]))
