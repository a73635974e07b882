"""Answer what a server asks in the middle of a call: fill its form, open or decline its URL,
or write (and approve) the reply to its sampling request.

The request itself is drawn by the card (the generic Intervention in
:mod:`workbench.surfaces.server_requests`); these are the controls under it. A URL is never
opened unless the person chooses Open, and no model is ever called: the reply is what the
person writes.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Input, Label, TextArea

from workbench.app.widgets.schema_form import SchemaForm
from workbench.core.interventions import (
    ElicitationRequest,
    InputAnswer,
    InputRequest,
    SamplingRequest,
    form_schema,
    url_host,
)
from workbench.core.manifest import ToolApi

DEFAULT_MODEL = "workbench-user"
"""The model name a reply written by a person claims (the server sees it)."""


class InputRequestBar(Vertical):
    """The controls that answer the server's pending request (see the module docstring)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Decline (or reject) the request; escape on the screen cancels it instead.
        Binding("ctrl+d", "decline", "Decline", show=True),
    ]

    DEFAULT_CSS = """
    InputRequestBar {
        height: auto;
        width: 1fr;
        padding: 0 0 1 0;
        display: none;
        &.-active { display: block; }
        .-buttons { height: auto; }
        Button { margin-right: 1; min-width: 12; }
        SchemaForm { border: round $warning; max-height: 24; }
        SchemaForm #form-buttons { display: none; }
        .-reply { height: 6; }
        .-model { width: 40; }
        .-hint { color: $text-muted; padding: 0 1; }
    }
    """

    class Answered(Message):
        """The person answered; handled by ``on_input_request_bar_answered``."""

        def __init__(self, control: InputRequestBar, answer: InputAnswer) -> None:
            super().__init__()
            self._control = control
            self.answer = answer

        @property
        def control(self) -> InputRequestBar:
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
        self.request: InputRequest | None = None
        # Controls are kept by reference and carry classes, not ids: the last request's may
        # not be removed yet when the next request's mount.
        self.form: SchemaForm | None = None
        self.reply: TextArea | None = None
        self.model: Input | None = None

    def compose(self) -> ComposeResult:
        yield Vertical(id="answer-controls")

    @property
    def is_open(self) -> bool:
        return self.has_class("-active")

    def open(self, request: InputRequest) -> None:
        """Show the controls for ``request`` (once per request: typing is not reset)."""
        if self.is_open and self.request is not None and self.request.key == request.key:
            return
        self.request = request
        self.add_class("-active")
        self.call_next(self._build, request)

    async def _build(self, request: InputRequest) -> None:
        """Replace the controls, then fill the form (it must be mounted to be filled)."""
        box = self.query_one("#answer-controls", Vertical)
        await box.remove_children()
        if self.request is not request:
            return  # Answered (or replaced) meanwhile.
        await box.mount_all(self._controls(request))
        if self.form is not None and isinstance(request, ElicitationRequest):
            self._load_form(self.form, request)
        else:
            self._focus_first()

    def close(self) -> None:
        if self.has_focus_within:
            self.screen.set_focus(None)  # A hidden control must not keep the keys.
        self.request = None
        self.remove_class("-active")

    def _focus_first(self) -> None:
        for widget in self.query("Input, TextArea, Button"):
            if widget.focusable and widget.is_attached and self.request is not None:
                widget.focus()
                return

    def _controls(self, request: InputRequest) -> list[Widget]:
        self.form = self.reply = self.model = None
        if isinstance(request, SamplingRequest):
            self.reply = TextArea("", soft_wrap=True, classes="-reply")
            self.model = Input(
                DEFAULT_MODEL, placeholder="model name the reply claims", classes="-model"
            )
            return [
                Label(Text("your reply (sent back as the model's message)"), classes="-hint"),
                self.reply,
                self.model,
                Horizontal(
                    Button("Approve reply", variant="success", classes="-approve"),
                    Button("Reject", variant="warning", classes="-decline"),
                    classes="-buttons",
                ),
            ]
        if request.mode == "url":
            host = url_host(request.url or "") or "the page"
            return [
                Label(
                    Text(f"Open asks your browser to show {host}; nothing opens by itself."),
                    classes="-hint",
                ),
                Horizontal(
                    Button(f"Open {host}", variant="primary", classes="-open"),
                    Button("Decline", variant="warning", classes="-decline"),
                    Button("Cancel", variant="error", classes="-cancel"),
                    classes="-buttons",
                ),
            ]
        form = SchemaForm(classes="-answer-form")
        self.form = form
        return [
            form,
            Horizontal(
                Button("Accept", variant="success", classes="-accept"),
                Button("Decline", variant="warning", classes="-decline"),
                Button("Cancel", variant="error", classes="-cancel"),
                classes="-buttons",
            ),
        ]

    def _load_form(self, form: SchemaForm, request: ElicitationRequest) -> None:
        schema = form_schema(request.schema or {"type": "object", "properties": {}})
        try:
            api = ToolApi(name="answer", description=request.message, parameters=schema)
        except ValueError:
            api = ToolApi(name="answer", description=request.message)
        form.load(api)
        form.call_after_refresh(self._focus_form, form)

    def _focus_form(self, form: SchemaForm) -> None:
        """The first field of the answer form takes the keys (typing answers the server)."""
        if self.form is not form or not form.is_attached:
            return
        for widget in form.query("Input, Select, Checkbox, TextArea"):
            if widget.focusable and widget.display and widget.id != "raw":
                widget.focus()
                return

    def _answer(self, answer: InputAnswer) -> None:
        request = self.request
        if request is None:
            return
        self.post_message(self.Answered(self, answer))

    # --- events -----------------------------------------------------------------------------

    @on(SchemaForm.Submitted)
    def _form_submitted(self, event: SchemaForm.Submitted) -> None:
        # The answer form must not reach the screen: there, a submitted form starts a call.
        event.stop()
        self._answer(InputAnswer("accept", content=event.args))

    @on(Button.Pressed, ".-accept")
    def _accept(self) -> None:
        if self.form is not None:
            self.form.action_submit()

    @on(Button.Pressed, ".-open")
    def _open(self) -> None:
        request = self.request
        if isinstance(request, ElicitationRequest) and request.url and not request.refused:
            self.app.open_url(request.url)
            self._answer(InputAnswer("accept"))

    @on(Button.Pressed, ".-approve")
    def _approve(self) -> None:
        if self.reply is None or self.model is None:
            return
        model = self.model.value.strip() or DEFAULT_MODEL
        self._answer(InputAnswer("accept", reply=self.reply.text, model=model))

    @on(Button.Pressed, ".-decline")
    def action_decline(self) -> None:
        self._answer(InputAnswer("decline"))

    @on(Button.Pressed, ".-cancel")
    def _cancel(self) -> None:
        self._answer(InputAnswer("cancel"))
