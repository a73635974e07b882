"""Approve, skip with a reason, or cancel a call that awaits approval; edit args inline."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Button, Input, Label, TextArea

from workbench.app.widgets.button_row import ButtonRow
from workbench.app.widgets.intervention import Intervention
from workbench.app.widgets.messages import WidgetMessage
from workbench.core.call_state import CallState
from workbench.core.sanitize import clean, safe_json
from workbench.policy.verdict import ApprovalAction


class InterventionBar(Intervention):
    """The approval controls under a tool call's Intervention surface.

    Editable args come from the surface (``@editable("command")``); without that, the whole
    args object can be edited as JSON. The buttons name their keys (``y``, ``n``, ``esc``).
    """

    DEFAULT_CSS = """
    InterventionBar {
        #fields { height: auto; }
        #reason { width: 1fr; }
        /* Compact, one row per line: the bar is pinned under the card and every row it
           takes is one the card's header and reason cannot have on a 24-row terminal. */
        TextArea { height: auto; max-height: 6; background: $boost; }
        #edit-error { display: none; }
        #edit-error.-shown { display: block; }
        .-field-label { color: $text-muted; padding: 0 1; }
        .-error { color: $error; padding: 0 1; height: auto; }
    }
    """

    @dataclass
    class Decided(WidgetMessage["InterventionBar"]):
        """The user decided; handled by ``on_intervention_bar_decided``."""

        action: ApprovalAction
        args: dict[str, Any] | None
        reason: str

    def __init__(
        self,
        args: dict[str, Any],
        editable_fields: tuple[str, ...] | None = None,
        *,
        call_id: str = "",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.call_id = call_id
        self._args = dict(args)
        self._fields = editable_fields
        self._editors: dict[str, TextArea] = {}
        self._shown: dict[str, str] = {}
        """Each string field as its editor first showed it (controls as visible marks)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="fields"):
            if self._fields:
                for field in self._fields:
                    value = self._args.get(field, "")
                    text = clean(value) if isinstance(value, str) else safe_json(value)
                    self._shown[field] = text
                    yield Label(Text(f"edit {field}"), classes="-field-label")
                    editor = TextArea(
                        text,
                        soft_wrap=True,
                        show_line_numbers=False,
                        compact=True,
                        classes=f"-editor -field-{field}",
                    )
                    self._editors[field] = editor
                    yield editor
            else:
                yield Label(Text("edit arguments (JSON)"), classes="-field-label")
                editor = TextArea(
                    safe_json(self._args, indent=2),
                    language=None,
                    soft_wrap=True,
                    compact=True,
                    classes="-editor -field-json",
                )
                self._editors[""] = editor
                yield editor
        yield Label("", classes="-error", id="edit-error")
        with ButtonRow(classes="-buttons"):
            yield Button("Approve (y)", variant="success", id="approve", compact=True)
            yield Button("Skip (n)", variant="warning", id="skip", compact=True)
            yield Button("Cancel (esc)", variant="error", id="cancel", compact=True)
        # On a line of its own: beside the buttons it would leave them no room on a narrow pane.
        yield Input(placeholder="why skip? (to the model)", id="reason", compact=True)

    def asks_about(self, state: CallState) -> bool:
        """Whether this bar is the approval ``state`` waits for."""
        return state.call_id == self.call_id and (state.args or {}) == self._args

    def focus_default(self) -> None:
        self.query_one("#approve", Button).focus()

    def edited_args(self) -> dict[str, Any] | None:
        """The args after inline edits, or ``None`` (with the error shown) if they do not parse."""
        if self._fields:
            args = dict(self._args)
            for field in self._fields:
                text = self._editors[field].text
                original = self._args.get(field)
                if isinstance(original, str) and text == self._shown.get(field):
                    # Untouched, the field runs as it came: its ␍ or ⟨U+200B⟩ marks stand for
                    # the real characters. Only an edit replaces it.
                    args[field] = original
                elif isinstance(original, str) or original is None:
                    args[field] = text
                else:
                    try:
                        args[field] = json.loads(text)
                    except json.JSONDecodeError as problem:
                        self._fail(Text(f"{field}: not valid JSON ({problem.msg})"))
                        return None
            return args
        try:
            value = json.loads(self._editors[""].text)
        except json.JSONDecodeError as problem:
            self._fail(Text(f"arguments: not valid JSON ({problem.msg} at line {problem.lineno})"))
            return None
        if not isinstance(value, dict):
            self._fail(Text("arguments must be a JSON object"))
            return None
        return value

    def _fail(self, message: Text) -> None:
        """Say why the edited args cannot be used (the row is there only while it says so)."""
        error = self.query_one("#edit-error", Label)
        error.update(message)
        error.add_class("-shown")

    @on(Button.Pressed, "#approve")
    def accept(self) -> None:
        args = self.edited_args()
        if args is not None:
            self.post_message(self.Decided(self, "approve", args, ""))

    def decline(self) -> None:
        """Skip: first ask for the reason (told to the model), then skip on ``enter``."""
        reason = self.query_one("#reason", Input)
        if self.screen.focused is not reason:
            reason.focus()
            return
        self._skip()

    @on(Button.Pressed, "#skip")
    @on(Input.Submitted, "#reason")
    def _skip(self) -> None:
        self.post_message(
            self.Decided(self, "skip", None, self.query_one("#reason", Input).value.strip())
        )

    @on(Button.Pressed, "#cancel")
    def cancel(self) -> None:
        self.post_message(self.Decided(self, "cancel", None, ""))
