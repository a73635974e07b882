"""Details of the selected call: args, partial args, content, state, error, manifest, schema."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Unpack

from rich.console import Group, RenderableType
from rich.text import Text
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from workbench.app.palette import palette_for
from workbench.app.widgets.options import WidgetOptions
from workbench.core.call_state import CallState
from workbench.core.manifest import ToolManifest, openai_function
from workbench.core.result import ToolResult
from workbench.surfaces import kit
from workbench.surfaces.context import Palette
from workbench.surfaces.server_requests import exchanges_section, messages_section

if TYPE_CHECKING:
    # The tabs are mounted after the first frame; their widgets are imported then.
    from textual.widgets import TabbedContent, TabPane

    from workbench.hosts.profile import HostProfile

DETAIL_LINES = 500

TabDrawer = Callable[[CallState | None, ToolManifest | None], RenderableType]
"""Draws an added tab from the call shown (``None`` when there is none) and its manifest."""

TABS: tuple[tuple[str, str], ...] = (
    ("args", "Args"),
    ("partial", "Partial args"),
    ("content", "Content"),
    ("state", "State"),
    ("error", "Error"),
    ("model", "Model"),
    ("server", "Server"),
    ("manifest", "Manifest"),
    ("openai", "OpenAI schema"),
)


class DetailsPane(Vertical):
    """Tabs with the raw data behind the card, for debugging a surface.

    The tabs are mounted just after the first frame: they are about a third of the first
    screen's widgets, and the card is what a start should show first.
    """

    DEFAULT_CSS = """
    DetailsPane {
        height: 1fr;
        TabbedContent { height: 1fr; }
        TabPane { padding: 0; }
        VerticalScroll { height: 1fr; padding: 0 1; }
    }
    """

    def __init__(
        self,
        **options: Unpack[WidgetOptions],
    ) -> None:
        super().__init__(**options)
        self._state: CallState | None = None
        self._manifest: ToolManifest | None = None
        self._drawn: dict[str, tuple[Any, ...]] = {}
        """Per tab, the inputs it was last drawn from."""
        self._added: dict[str, TabDrawer] = {}
        """Tabs added with :meth:`add_tab`, by id."""
        self._titles: dict[str, str] = dict(TABS)
        self._tabs: TabbedContent | None = None
        """The tabs, once mounted."""
        self._hosts: tuple[HostProfile, ...] | None = None
        """The hosts the Model tab reads the content through (default: every bundled one)."""

    @staticmethod
    def _pane(tab_id: str, title: str) -> TabPane:
        from textual.widgets import TabPane

        body = Static(Text("—"), id=f"details-{tab_id}-body")
        # Not a focus stop: its tabs take the keys, the wheel scrolls it (a focused scroller
        # in live mode swallowed what was typed next).
        return TabPane(title, VerticalScroll(body, can_focus=False), id=f"details-{tab_id}")

    def on_mount(self) -> None:
        # JSON colours follow the theme: redraw what is shown when it changes.
        self.watch(self.app, "theme", self._theme_changed, init=False)
        self.call_after_refresh(self._mount_tabs)

    async def _mount_tabs(self) -> None:
        from textual.widgets import TabbedContent

        tabs = TabbedContent()
        for tab_id, title in self._titles.items():
            tabs.compose_add_child(self._pane(tab_id, title))  # As `with TabbedContent():` does.
        await self.mount(tabs)
        self._tabs = tabs
        self._draw_active()

    def add_tab(self, tab_id: str, title: str, draw: TabDrawer) -> None:
        """Add a tab drawn by ``draw`` whenever it is visible and the call or manifest changed.

        ``draw`` gets the shown state and manifest (either may be ``None``) and returns a Rich
        renderable; text from tools must reach it cleaned (``workbench.core.sanitize``).
        """
        if tab_id in self._titles:
            raise ValueError(f"the details pane already has a tab {tab_id!r}")
        self._added[tab_id] = draw
        self._titles[tab_id] = title
        if self._tabs is not None:  # Else it is mounted with the others.
            self._tabs.add_pane(self._pane(tab_id, title))

    def set_hosts(self, hosts: Sequence[HostProfile]) -> None:
        """Read results through ``hosts`` in the Model tab (a project's targeted hosts)."""
        self._hosts = tuple(hosts)
        self._drawn.pop("model", None)
        self._draw_active()

    def _theme_changed(self, theme: str) -> None:
        del theme
        self._drawn = {}
        self._draw_active()

    def _set(self, tab_id: str, renderable: RenderableType) -> None:
        self.query_one(f"#details-{tab_id}-body", Static).update(renderable)

    def show(self, state: CallState | None, manifest: ToolManifest | None) -> None:
        """Show ``state`` and ``manifest``; only the visible tab is drawn now, others on demand."""
        self._state = state
        self._manifest = manifest
        self._draw_active()

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        event.stop()
        self._draw_active()

    def _inputs(self, tab_id: str) -> tuple[Any, ...]:
        """What ``tab_id`` is drawn from: the parts of the state it shows."""
        state = self._state
        if tab_id in self._added:
            return (state, self._manifest)
        if state is None:
            return (None,)
        if tab_id == "args":
            return (state.args, state.args_error)
        if tab_id == "partial":
            return (state.raw_args, state.partial_args)
        if tab_id in ("content", "state", "error", "model"):
            return (state.result, self._hosts)
        if tab_id == "server":
            return (state.exchanges, state.server_messages)
        if tab_id == "manifest":
            return (state.api, self._manifest, state.approval)
        return (state.api, self._manifest)

    def _draw_active(self) -> None:
        if self._tabs is None:
            return  # Drawn once the tabs are mounted.
        active = self._tabs.active.removeprefix("details-")
        if not active:
            return
        # A live call redraws many times a second while only its output grows; states share
        # unchanged parts, so identity says whether this tab has anything new to show.
        inputs = self._inputs(active)
        drawn = self._drawn.get(active)
        if (
            drawn is not None
            and len(drawn) == len(inputs)
            and all(old is new for old, new in zip(drawn, inputs, strict=True))
        ):
            return
        self._drawn[active] = inputs
        self._draw(active)

    def _draw(self, tab_id: str) -> None:
        state = self._state
        manifest = self._manifest
        palette = palette_for(self.app.current_theme)
        none = Text("(none)", style="dim")
        if tab_id in self._added:
            self._set(tab_id, self._added[tab_id](state, manifest))
            return

        def json_or_none(value: Any) -> RenderableType:
            return (
                none
                if value is None
                else kit.json_block(value, palette, max_lines=DETAIL_LINES, max_string=20_000)
            )

        if state is None:
            self._set(tab_id, none)
            return
        result = state.result
        api = manifest.get_api(state.api) if manifest is not None else None
        view: RenderableType
        if tab_id == "args":
            view = (
                kit.text(state.args_error, palette.error)
                if state.args is None and state.args_error
                else json_or_none(state.args)
            )
        elif tab_id == "partial":
            raw = kit.capped_text(state.raw_args or "(empty)", palette, max_lines=DETAIL_LINES)
            view = Group(
                Text("raw text so far:", style="dim"),
                raw,
                Text(""),
                Text("parsed:", style="dim"),
                json_or_none(state.partial_args),
            )
        elif tab_id == "content":
            view = (
                none
                if result is None
                else kit.capped_text(result.content, palette, max_lines=DETAIL_LINES)
            )
        elif tab_id == "state":
            view = none if result is None else json_or_none(result.state)
        elif tab_id == "error":
            view = (
                none
                if result is None or result.error is None
                else json_or_none(result.error.model_dump(mode="json"))
            )
        elif tab_id == "model":
            view = none if result is None else self._model_views(result, palette)
        elif tab_id == "server":
            # What the server asked mid-call and what it logged: debug detail, not the card's.
            said = [
                *exchanges_section(state.exchanges, palette),
                *messages_section(state.server_messages, palette, limit=DETAIL_LINES),
            ]
            view = Group(*said) if said else Text("(the server said nothing else)", style="dim")
        elif tab_id == "manifest":
            view = (
                none
                if api is None
                else json_or_none(api.model_dump(mode="json", by_alias=True, exclude_none=True))
            )
            approval = state.approval
            if approval is not None:
                # The policy's own words (globs, audit names) live here, not on the card.
                rows = [
                    ("approval", approval.decision or "waiting"),
                    ("policy", approval.policy),
                    ("rule", approval.rule or "-"),
                    ("reason shown", approval.reason or "-"),
                ]
                view = Group(kit.key_values(rows, palette), Text(""), view)
        else:
            view = (
                none
                if api is None or manifest is None
                else json_or_none(openai_function(manifest, api))
            )
        self._set(tab_id, view)

    def _model_views(self, result: ToolResult, palette: Palette) -> RenderableType:
        """The content as each host's model reads it: the rule, the cut, then the text."""
        from workbench.hosts import bundled_hosts, model_view
        from workbench.hosts.report import model_view_summary

        hosts = self._hosts
        if hosts is None:
            hosts = tuple(
                host for name, host in sorted(bundled_hosts().profiles.items()) if name != "none"
            )
        parts: list[RenderableType] = []
        for host in hosts:
            view = model_view(result.content, host, state=result.state)
            summary = model_view_summary(view)
            parts.append(kit.text(summary[0], "bold"))
            parts.extend(kit.text(line, palette.muted) for line in summary[1:])
            parts.append(kit.capped_text(view.text, palette, max_lines=DETAIL_LINES // 5))
            parts.append(Text(""))
        return Group(*parts)
