"""``?`` / ``F1``: every key of the screen underneath, grouped by where it works."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import ListView, Static, Tabs, Tree

from workbench.app.bindings import own_bindings
from workbench.app.widgets.schema_form import SchemaForm

APPROVAL_ACTIONS = ("accept_intervention", "decline_intervention", "cancel_intervention")

WIDGET_SECTIONS: tuple[tuple[type[Widget], str], ...] = (
    (Tree, "In a tree"),
    (ListView, "In the history"),
    (SchemaForm, "In the form"),
    (Tabs, "On the details tabs"),
)
"""Widgets whose own keys are listed, when the screen has one, and what their section says."""


def key_rows(app: Any, bindings: Iterable[Binding]) -> list[tuple[str, str]]:
    """``(keys, what it does)`` per action, keys of one action joined (``o / f6``)."""
    rows: dict[str, tuple[list[str], str]] = {}
    for binding in bindings:
        description = binding.tooltip or binding.description
        if not description:
            continue
        keys, _ = rows.setdefault(binding.action, ([], description))
        display = app.get_key_display(binding)
        if display not in keys:
            keys.append(display)
    return [(" / ".join(keys), description) for keys, description in rows.values()]


def _bindings(node: DOMNode) -> list[Binding]:
    """Every binding of ``node`` (Textual's widgets' own keys included)."""
    return [binding for _, binding in node._bindings if isinstance(binding, Binding)]


def sections(screen: Screen[Any]) -> list[tuple[str, list[tuple[str, str]]]]:
    """What the help screen lists for ``screen``: a title and its rows, per section."""
    app = screen.app
    own = own_bindings(screen)
    result = [
        ("On this screen", key_rows(app, [b for b in own if b.action not in APPROVAL_ACTIONS])),
    ]
    approval = [b for b in own if b.action in APPROVAL_ACTIONS]
    if approval:
        result.append(("When a call waits for approval", key_rows(app, approval)))
    anywhere = key_rows(app, own_bindings(app))
    anywhere.append((app.get_key_display(Binding("ctrl+p", "")), "Command palette: every action"))
    anywhere.append(("tab / shift+tab", "Move the focus to the next / previous part"))
    result.append(("Anywhere", anywhere))
    for widget_type, title in WIDGET_SECTIONS:
        widget = next(iter(screen.query(widget_type)), None)
        if widget is not None:
            rows = key_rows(app, _bindings(widget))
            if rows:
                result.append((title, rows))
    return result


class HelpScreen(ModalScreen[None]):
    """The keys of the screen underneath, each with what it does."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,f1,q", "dismiss", "Close", tooltip="Close the key list"),
    ]

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
        #help {
            width: 90%;
            max-width: 96;
            height: 90%;
            border: round $primary;
            border-title-color: $text;
            background: $surface;
            padding: 0 1;
        }
        #help-footer { color: $text-muted; height: 1; }
    }
    """

    def __init__(self, underneath: Screen[Any], title: str) -> None:
        super().__init__()
        self._underneath = underneath
        self._title = title

    def compose(self) -> ComposeResult:
        with Vertical(id="help"):
            with VerticalScroll():
                yield Static(self._render_sections(), id="help-body")
            yield Static(Text("escape, ? or F1 closes this list"), id="help-footer")

    def on_mount(self) -> None:
        self.query_one("#help").border_title = self._title

    def _render_sections(self) -> RenderableType:
        parts: list[RenderableType] = []
        for title, rows in sections(self._underneath):
            table = Table.grid(padding=(0, 2))
            table.add_column(style="bold", no_wrap=True, min_width=10)
            table.add_column()
            for keys, description in rows:
                table.add_row(Text(keys), Text(description))
            parts.extend([Text(title, style="bold underline"), table, Text("")])
        return Group(*parts)
