"""Approve, skip with a reason, or cancel a call that awaits approval; edit args inline."""

from __future__ import annotations

import json
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Input, Label, TextArea

from workbench.core.sanitize import clean, safe_json


class InterventionBar(Vertical):
    """The controls under an Intervention surface.

    Editable args come from the surface (``@editable("command")``); without that, the whole
    args object can be edited as JSON.
    """

    DEFAULT_CSS = """
    InterventionBar {
        height: auto;
        width: 1fr;
        padding: 0 0 1 0;
        display: none;
        &.-active { display: block; }
        .-buttons { height: auto; }
        #fields { height: auto; }
        Button { margin-right: 1; min-width: 12; }
        #reason { width: 1fr; }
        TextArea { height: auto; max-height: 10; }
        .-field-label { color: $text-muted; padding: 0 1; }
        .-error { color: $error; padding: 0 1; }
    }
    """

    class Decided(Message):
        """The user decided; handled by ``on_intervention_bar_decided``."""

        def __init__(
            self, control: InterventionBar, action: str, args: dict[str, Any] | None, reason: str
        ) -> None:
            super().__init__()
            self._control = control
            self.action = action
            self.args = args
            self.reason = reason

        @property
        def control(self) -> InterventionBar:
            return self._control

    def __init__(
        self,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self._args: dict[str, Any] = {}
        self._fields: tuple[str, ...] | None = None
        # Editors are kept by reference, not id: the old ones may not be removed yet when the
        # next call's editors mount.
        self._editors: dict[str, TextArea] = {}

    def compose(self) -> ComposeResult:
        yield Vertical(id="fields")
        yield Label("", classes="-error", id="edit-error")
        with Horizontal(classes="-buttons"):
            yield Button("Approve", variant="success", id="approve")
            yield Button("Skip", variant="warning", id="skip")
            yield Input(placeholder="reason for skipping (told to the model)", id="reason")
            yield Button("Cancel", variant="error", id="cancel")

    def open(self, args: dict[str, Any], editable_fields: tuple[str, ...] | None) -> None:
        """Show the controls for a call with ``args``."""
        self._args = dict(args)
        self._fields = editable_fields
        fields = self.query_one("#fields", Vertical)
        fields.remove_children()
        self.query_one("#edit-error", Label).update(Text(""))
        widgets = []
        self._editors = {}
        if editable_fields:
            for field in editable_fields:
                value = args.get(field, "")
                text = clean(value) if isinstance(value, str) else safe_json(value)
                widgets.append(Label(Text(f"edit {field}"), classes="-field-label"))
                editor = TextArea(
                    text,
                    soft_wrap=True,
                    show_line_numbers=False,
                    classes=f"-editor -field-{field}",
                )
                self._editors[field] = editor
                widgets.append(editor)
        else:
            widgets.append(Label(Text("edit arguments (JSON)"), classes="-field-label"))
            editor = TextArea(
                safe_json(args, indent=2),
                language=None,
                soft_wrap=True,
                classes="-editor -field-json",
            )
            self._editors[""] = editor
            widgets.append(editor)
        fields.mount_all(widgets)
        self.query_one("#reason", Input).value = ""
        self.add_class("-active")

    def close(self) -> None:
        self.remove_class("-active")

    def edited_args(self) -> dict[str, Any] | None:
        """The args after inline edits, or ``None`` (with the error shown) if they do not parse."""
        error = self.query_one("#edit-error", Label)
        if self._fields:
            args = dict(self._args)
            for field in self._fields:
                text = self._editors[field].text
                original = self._args.get(field)
                if isinstance(original, str) or original is None:
                    args[field] = text
                else:
                    try:
                        args[field] = json.loads(text)
                    except json.JSONDecodeError as problem:
                        error.update(Text(f"{field}: not valid JSON ({problem.msg})"))
                        return None
            return args
        try:
            value = json.loads(self._editors[""].text)
        except json.JSONDecodeError as problem:
            error.update(
                Text(f"arguments: not valid JSON ({problem.msg} at line {problem.lineno})")
            )
            return None
        if not isinstance(value, dict):
            error.update(Text("arguments must be a JSON object"))
            return None
        return value

    @on(Button.Pressed, "#approve")
    def _approve(self) -> None:
        args = self.edited_args()
        if args is not None:
            self.post_message(self.Decided(self, "approve", args, ""))

    @on(Button.Pressed, "#skip")
    @on(Input.Submitted, "#reason")
    def _skip(self) -> None:
        self.post_message(
            self.Decided(self, "skip", None, self.query_one("#reason", Input).value.strip())
        )

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.post_message(self.Decided(self, "cancel", None, ""))
