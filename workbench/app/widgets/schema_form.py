"""A form generated from an API's JSON Schema, with inline validation and a raw-JSON fallback."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.markup import escape as escape_markup
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Select, Static, Switch, TextArea

from workbench.app.widgets.button_row import ButtonRow
from workbench.app.widgets.messages import WidgetMessage
from workbench.core.form_spec import (
    MISSING,
    FieldSpec,
    FormSpec,
    build_form,
    get_path,
    leaf_fields,
    parse_text,
    set_path,
    to_text,
)
from workbench.core.manifest import ToolApi
from workbench.core.sanitize import clean, safe_json
from workbench.core.schema import validate_args
from workbench.surfaces.kit import truncate_line

MAX_DESCRIPTION_CHARS = 300
"""Servers write tool and field descriptions of any length; the form shows their start."""


def _widget_id(index: int) -> str:
    return f"field-{index}"


class SchemaForm(Vertical):
    """Inputs for every property of the schema; ``ctrl+s`` or the Call button submits.

    Strings, numbers, integers, booleans, enums, arrays of those, and nested objects get their
    own inputs; anything else (``anyOf``, ``$ref``...) a JSON editor. The whole argument object
    can always be edited as JSON instead.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Submit the arguments (the screen's ctrl+s does the same from anywhere).
        Binding("ctrl+s", "submit", "Call", show=True),
        # Switch between the generated form and one JSON editor for the whole object.
        Binding("ctrl+j", "toggle_raw", "Raw JSON", show=True),
    ]

    DEFAULT_CSS = """
    SchemaForm {
        height: auto;
        border: round $panel;
        padding: 0 1;
        max-height: 30;
        #form-scroll { height: auto; max-height: 16; }
        #fields { height: auto; }
        .-row { height: auto; margin: 0; }
        Input, Select { margin: 0 0 0 0; }
        .-label { color: $text; text-style: bold; width: 100%; }
        .-description { color: $text-muted; }
        .-label, #form-title { text-wrap: nowrap; text-overflow: ellipsis; }
        .-error { display: none; }
        .-error.-shown { display: block; }
        .-error { color: $error; height: auto; }
        .-object { height: auto; border: round $panel-lighten-1; padding: 0 1; }
        Input { width: 1fr; }
        TextArea { height: 6; }
        #raw { height: 12; display: none; }
        &.-raw #raw { display: block; }
        &.-raw #fields { display: none; }
        #form-summary { color: $error; height: auto; }
    }
    """

    raw_mode: reactive[bool] = reactive(False)
    """Editing the arguments as one JSON object."""

    @dataclass
    class Submitted(WidgetMessage["SchemaForm"]):
        """Valid arguments were submitted; handled by ``on_schema_form_submitted``."""

        args: dict[str, Any]

    def __init__(
        self,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.api: ToolApi | None = None
        self.spec = FormSpec(())
        self._widgets: dict[str, Widget] = {}
        self._errors: dict[str, Label] = {}
        self._touched: set[str] = set()
        """Switches the person (or a fill) has set: an untouched one with no default is
        not sent, since off would be an answer nobody gave."""

    def compose(self) -> ComposeResult:
        yield Static(Text("Pick an API in the tree to call it.", style="dim"), id="form-title")
        with VerticalScroll(id="form-scroll", can_focus=False):
            yield Vertical(id="fields")
            yield TextArea("{}", id="raw", language="json", soft_wrap=True)
        yield Label(Text(""), id="form-summary")
        with ButtonRow(id="form-buttons"):
            yield Button("Call (ctrl+s)", variant="primary", id="submit", compact=True)
            yield Button("Raw JSON (ctrl+j)", id="raw-toggle", compact=True)

    def watch_raw_mode(self, raw: bool) -> None:
        self.set_class(raw, "-raw")

    # --- building -----------------------------------------------------------------------------

    def load(self, api: ToolApi, initial: dict[str, Any] | None = None) -> None:
        """Show the form for ``api``, pre-filled with ``initial`` or the schema's defaults."""
        self.api = api
        self.spec = build_form(api.parameters)
        title = Text(api.name, style="bold")
        if api.description:
            title.append_text(
                Text(
                    f"  {truncate_line(clean(api.description), MAX_DESCRIPTION_CHARS)}", style="dim"
                )
            )
        self.query_one("#form-title", Static).update(title)
        fields = self.query_one("#fields", Vertical)
        fields.remove_children()
        self._widgets.clear()
        self._errors.clear()
        self._touched.clear()
        counter = itertools.count()
        rows = [self._row(spec, counter) for spec in self.spec.fields]
        if not rows and not self.spec.raw_only:
            rows = [Label(Text("This API takes no arguments.", style="dim"))]
        fields.mount_all(rows)
        self.query_one("#raw", TextArea).text = safe_json(initial or {}, indent=2)
        self.raw_mode = self.spec.raw_only
        if self.spec.raw_only:
            self._summary(f"Edit the arguments as JSON: {self.spec.reason}.")
        else:
            self._summary("")
        if initial:
            self.call_after_refresh(self.fill, initial)

    def _row(self, spec: FieldSpec, counter: Any) -> Widget:
        index = next(counter)
        if spec.kind == "object":
            box = Vertical(
                *[self._row(child, counter) for child in spec.children], classes="-object"
            )
            # Border titles are markup: a property named "[b]x" must stay literal.
            box.border_title = escape_markup(clean(spec.label))
            return box
        label = Text(clean(spec.label), style="bold", no_wrap=True, overflow="ellipsis", end="")
        if spec.kind == "json":
            label.append("  (JSON)", style="dim italic")
        description = truncate_line(clean(spec.description), MAX_DESCRIPTION_CHARS)
        if description:
            # One line, cut with … at the pane's edge; the whole text is the tooltip.
            label.append(f"  {description}", style="dim")
        row_label = Label(label, classes="-label", expand=True)
        if description:
            row_label.tooltip = Text(description)
        parts: list[Widget] = [row_label]
        initial = spec.default if spec.default is not MISSING else MISSING
        widget: Widget
        if spec.kind == "boolean":
            widget = Switch(
                value=bool(initial) if initial is not MISSING else False, id=_widget_id(index)
            )
        elif spec.kind == "enum":
            # The person reads the server's titles ("Superman"); the value ("hero-1") is sent.
            options = [(Text(clean(spec.title_of(option))), option) for option in spec.enum]
            chosen = next(
                (
                    option
                    for option in spec.enum
                    if initial is not MISSING
                    and option == initial
                    and type(option) is type(initial)
                ),
                None,
            )
            value = (
                chosen
                if chosen is not None
                else (Select.NULL if not spec.required else spec.enum[0])
            )
            widget = Select(
                options,
                allow_blank=not spec.required,
                value=value,
                id=_widget_id(index),
                compact=True,
            )
        elif spec.kind == "json":
            widget = TextArea(
                to_text(spec, initial) if initial is not MISSING else "",
                id=_widget_id(index),
                language="json",
                soft_wrap=True,
            )
        else:
            kind: Literal["integer", "number", "text"] = (
                "integer"
                if spec.kind == "integer"
                else "number"
                if spec.kind == "number"
                else "text"
            )
            placeholder = (
                "comma-separated values"
                if spec.kind == "array"
                else ("required" if spec.required else "optional")
            )
            widget = Input(
                value=to_text(spec, initial) if initial is not MISSING else "",
                placeholder=placeholder,
                type=kind,
                id=_widget_id(index),
                compact=True,
            )
        widget.tooltip = Text(clean(spec.key))
        self._widgets[spec.key] = widget
        error = Label(Text(""), classes="-error")
        self._errors[spec.key] = error
        return Vertical(*parts, widget, error, classes="-row")

    # --- values -------------------------------------------------------------------------------

    def first_field(self) -> Widget:
        """Where typing starts: the first required field (else the first field; the JSON
        editor in raw mode; Call when there are no arguments)."""
        if self.raw_mode:
            return self.query_one("#raw", TextArea)
        required = {spec.key for spec in leaf_fields(self.spec.fields) if spec.required}
        widgets = list(self._widgets.items())
        found = next((widget for key, widget in widgets if key in required), None)
        if found is None and widgets:
            found = widgets[0][1]
        return found or self.query_one("#submit", Button)

    def focus_first_field(self) -> None:
        """Put the focus where typing starts (:meth:`first_field`), once the form is built."""
        self.call_after_refresh(lambda: self.first_field().focus())

    def _text_of(self, widget: Widget) -> str | bool | Any:
        if isinstance(widget, Switch):
            return widget.value
        if isinstance(widget, Select):
            return widget.value
        if isinstance(widget, TextArea):
            return widget.text
        if isinstance(widget, Input):
            return widget.value
        return ""

    def _value(self, spec: FieldSpec) -> tuple[Any, str | None]:
        widget = self._widgets[spec.key]
        raw = self._text_of(widget)
        if isinstance(widget, Switch):
            if spec.key not in self._touched and spec.default is MISSING and not spec.required:
                return MISSING, None
            return bool(raw), None
        if isinstance(widget, Select):
            if raw is Select.NULL:
                return MISSING, ("required" if spec.required else None)
            return raw, None
        return parse_text(spec, str(raw))

    def form_args(self) -> tuple[dict[str, Any], dict[str, str]]:
        """The arguments the form holds, and per-field errors."""
        args: dict[str, Any] = {}
        errors: dict[str, str] = {}
        for spec in leaf_fields(self.spec.fields):
            value, error = self._value(spec)
            if error:
                errors[spec.key] = error
            elif value is not MISSING:
                set_path(args, spec.path, value)
        return args, errors

    def fill(self, args: dict[str, Any]) -> None:
        """Put ``args`` into the inputs (used for re-runs and when leaving raw mode)."""
        for spec in leaf_fields(self.spec.fields):
            widget = self._widgets.get(spec.key)
            value = get_path(args, spec.path)
            if widget is None or value is MISSING:
                continue
            if isinstance(widget, Switch):
                widget.value = bool(value)
                self._touched.add(spec.key)
            elif isinstance(widget, Select):
                if value in spec.enum:
                    widget.value = value
            elif isinstance(widget, TextArea):
                widget.text = to_text(spec, value)
            elif isinstance(widget, Input):
                widget.value = to_text(spec, value)

    def current_args(self) -> tuple[dict[str, Any] | None, dict[str, str]]:
        """Arguments from whichever editor is showing, checked against the schema."""
        if self.raw_mode:
            try:
                value = json.loads(self.query_one("#raw", TextArea).text or "{}")
            except json.JSONDecodeError as error:
                return None, {
                    "": f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
                }
            if not isinstance(value, dict):
                return None, {"": "the arguments must be a JSON object"}
            args, errors = value, dict[str, str]()
        else:
            args, errors = self.form_args()
        if self.api is not None and not errors:
            for path, message in validate_args(self.api.parameters, args):
                key = ".".join(str(part) for part in path)
                errors[key if key in self._widgets and not self.raw_mode else (key or "")] = message
        return (None if errors else args), errors

    def _show_errors(self, errors: dict[str, str]) -> None:
        for key, label in self._errors.items():
            label.update(Text(clean(errors.get(key, ""))))
            label.set_class(bool(errors.get(key)), "-shown")
        general = [
            f"{key + ': ' if key else ''}{message}"
            for key, message in errors.items()
            if key not in self._errors
        ]
        self._summary("; ".join(general))

    def _summary(self, text: str) -> None:
        self.query_one("#form-summary", Label).update(Text(clean(text)))

    # --- events -------------------------------------------------------------------------------

    @on(Input.Changed)
    def _validate_one(self, event: Input.Changed) -> None:
        for spec in leaf_fields(self.spec.fields):
            if self._widgets.get(spec.key) is event.input:
                _, error = self._value(spec)
                self._errors[spec.key].update(Text(clean(error or "")))
                self._errors[spec.key].set_class(bool(error), "-shown")

    @on(Switch.Changed)
    def _switch_set(self, event: Switch.Changed) -> None:
        for key, widget in self._widgets.items():
            if widget is event.switch:
                self._touched.add(key)

    @on(Input.Submitted)
    def _input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    @on(Button.Pressed, "#submit")
    def _submit_pressed(self) -> None:
        self.action_submit()

    @on(Button.Pressed, "#raw-toggle")
    def _raw_pressed(self) -> None:
        self.action_toggle_raw()

    def action_toggle_raw(self) -> None:
        if self.spec.raw_only:
            return
        raw = self.query_one("#raw", TextArea)
        if not self.raw_mode:
            args, _ = self.form_args()
            raw.text = safe_json(args, indent=2)
            self.raw_mode = True
            return
        try:
            value = json.loads(raw.text or "{}")
        except json.JSONDecodeError as error:
            self._summary(f"fix the JSON first: {error.msg} (line {error.lineno})")
            return
        if isinstance(value, dict):
            self.fill(value)
        self.raw_mode = False
        self._summary("")

    def action_submit(self) -> None:
        if self.api is None:
            return
        args, errors = self.current_args()
        self._show_errors(errors)
        if args is not None:
            self.post_message(self.Submitted(self, args))
