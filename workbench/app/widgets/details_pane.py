"""Details of the selected call: args, partial args, content, state, error, manifest, schema."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static, TabbedContent, TabPane

from workbench.app.palette import palette_for
from workbench.core.call_state import CallState
from workbench.core.manifest import ToolManifest, openai_function
from workbench.surfaces import kit

DETAIL_LINES = 500

TABS: tuple[tuple[str, str], ...] = (
    ("args", "Args"),
    ("partial", "Partial args"),
    ("content", "Content"),
    ("state", "State"),
    ("error", "Error"),
    ("manifest", "Manifest"),
    ("openai", "OpenAI schema"),
)


class DetailsPane(Vertical):
    """Tabs with the raw data behind the card, for debugging a surface."""

    DEFAULT_CSS = """
    DetailsPane {
        height: 1fr;
        TabbedContent { height: 1fr; }
        TabPane { padding: 0; }
        VerticalScroll { height: 1fr; padding: 0 1; }
    }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None, disabled: bool = False) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)

    def compose(self) -> ComposeResult:
        with TabbedContent():
            for tab_id, title in TABS:
                with TabPane(title, id=f"details-{tab_id}"):
                    with VerticalScroll():
                        yield Static(Text("—"), id=f"details-{tab_id}-body")

    def _set(self, tab_id: str, renderable: RenderableType) -> None:
        self.query_one(f"#details-{tab_id}-body", Static).update(renderable)

    def show(self, state: CallState | None, manifest: ToolManifest | None) -> None:
        """Fill every tab from ``state`` and ``manifest``."""
        palette = palette_for(self.app.current_theme)
        none = Text("(none)", style="dim")

        def json_or_none(value: Any) -> RenderableType:
            return none if value is None else kit.json_block(value, palette, max_lines=DETAIL_LINES)

        if state is None:
            for tab_id, _ in TABS:
                self._set(tab_id, none)
            return
        args_view: RenderableType = json_or_none(state.args)
        if state.args is None and state.args_error:
            args_view = kit.text(state.args_error, palette.error)
        self._set("args", args_view)
        partial = Text.assemble(("raw text so far:\n", "dim"), kit.text(state.raw_args or "(empty)"), "\n\n", ("parsed:\n", "dim"))
        self._set("partial", Text.assemble(partial) if state.partial_args is None else _stack(partial, json_or_none(state.partial_args)))
        result = state.result
        self._set("content", none if result is None else kit.capped_text(result.content, palette, max_lines=DETAIL_LINES))
        self._set("state", none if result is None else json_or_none(result.state))
        self._set("error", none if result is None or result.error is None else json_or_none(result.error.model_dump(mode="json")))
        api = manifest.get_api(state.api) if manifest is not None else None
        self._set("manifest", none if api is None else json_or_none(api.model_dump(mode="json", by_alias=True, exclude_none=True)))
        self._set("openai", none if api is None or manifest is None else json_or_none(openai_function(manifest, api)))


def _stack(*parts: RenderableType) -> RenderableType:
    from rich.console import Group

    return Group(*parts)
