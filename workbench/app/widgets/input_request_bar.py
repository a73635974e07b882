"""Answer what a server asks in the middle of a call: fill its form, open or decline its URL,
or write (and approve) the reply to its sampling request.

The request itself is drawn by the card (the generic Intervention in
:mod:`workbench.surfaces.server_requests`); these are the controls under it, an
:class:`~workbench.app.widgets.intervention.Intervention` hosted by the ``CallView``. A URL is never
opened unless the person chooses Open, and no model is ever called: the reply is what the
person writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Button, Input, Label, TextArea

from workbench.app.widgets.answer_form import AnswerForm
from workbench.app.widgets.button_row import ButtonRow
from workbench.app.widgets.intervention import Intervention
from workbench.app.widgets.messages import WidgetMessage
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


class InputRequestBar(Intervention):
    """The controls that answer one pending server request (see the module docstring).

    ``y`` accepts (submits the form, opens the URL, approves the reply), ``n`` declines (or
    rejects) and ``escape`` cancels the request; the call goes on after each. While a field
    has the keys, ``ctrl+s`` (or ``enter`` in a form) accepts and ``ctrl+d`` declines.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # While a field has the keys (y and n type there), these answer; ctrl+s calls an API
        # elsewhere on the screen, and here sends the answer.
        Binding("ctrl+s", "accept", "Send answer", tooltip="Accept: send the answer"),
        Binding("ctrl+d", "decline", "Decline", tooltip="Decline the server's request"),
    ]

    DEFAULT_CSS = """
    InputRequestBar {
        .-reply { height: 6; }
        .-model-row { height: 1; margin: 0 0 1 0; }
        .-model { width: 40; }
        .-hint { color: $text-muted; padding: 0 1; width: 1fr; }
        .-model-row .-hint { width: auto; }
    }
    """

    @dataclass
    class Answered(WidgetMessage["InputRequestBar"]):
        """The person answered; handled by ``on_input_request_bar_answered``."""

        answer: InputAnswer

    def __init__(
        self,
        request: InputRequest,
        *,
        call_id: str = "",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.call_id = call_id
        self.request = request
        self.answered = False
        self.form: AnswerForm | None = None
        self.reply: TextArea | None = None
        self.model: Input | None = None
        if isinstance(request, SamplingRequest):
            self.accept_label, self.decline_label = "Approve reply", "Reject"
        elif request.mode == "url":
            self.accept_label, self.decline_label = "Open", "Decline"
        else:
            self.accept_label, self.decline_label = "Accept", "Decline"

    def compose(self) -> ComposeResult:
        request = self.request
        if isinstance(request, SamplingRequest):
            self.reply = TextArea("", soft_wrap=True, classes="-reply")
            self.model = Input(
                DEFAULT_MODEL,
                placeholder="model name the reply claims",
                classes="-model",
                compact=True,
            )
            yield Label(Text("your reply (sent back as the model's message)"), classes="-hint")
            yield self.reply
            yield Horizontal(
                Label(Text("model "), classes="-hint"), self.model, classes="-model-row"
            )
            yield ButtonRow(
                Button("Approve reply (y)", variant="success", classes="-approve", compact=True),
                Button("Reject (n)", variant="warning", classes="-decline", compact=True),
                classes="-buttons",
            )
            return
        if request.mode == "url":
            host = url_host(request.url or "") or "the page"
            yield Label(
                Text(f"Open asks your browser to show {host}; nothing opens by itself."),
                classes="-hint",
            )
            yield ButtonRow(
                Button("Open page (y)", variant="primary", classes="-open", compact=True),
                Button("Decline (n)", variant="warning", classes="-decline", compact=True),
                Button("Cancel (esc)", variant="error", classes="-cancel", compact=True),
                classes="-buttons",
            )
            return
        self.form = AnswerForm(classes="-answer-form")
        yield self.form
        yield ButtonRow(
            Button("Accept (y)", variant="success", classes="-accept", compact=True),
            Button("Decline (n)", variant="warning", classes="-decline", compact=True),
            Button("Cancel (esc)", variant="error", classes="-cancel", compact=True),
            classes="-buttons",
        )

    def on_mount(self) -> None:
        if self.form is not None and isinstance(self.request, ElicitationRequest):
            schema = form_schema(self.request.schema or {"type": "object", "properties": {}})
            try:
                api = ToolApi(name="answer", description=self.request.message, parameters=schema)
            except ValueError:
                api = ToolApi(name="answer", description=self.request.message)
            self.form.load(api)

    def on_resize(self) -> None:
        # Laid out (or re-laid out, e.g. the form's fields arrived): keep the controls in view.
        self._reveal()

    def asks(self, request: InputRequest) -> bool:
        """Whether this bar answers ``request``."""
        return self.request.key == request.key

    def focus_default(self) -> None:
        """The first field of the answer takes the keys (typing answers the server)."""
        if self.form is not None:
            # The form's fields are mounted after it: look once they are there.
            self.form.call_after_refresh(self._focus_form)
            return
        target: Widget | None = self.reply
        if target is None:
            target = next(iter(self.query(".-open")), None)
        (target or self).focus()
        self._reveal()

    def _reveal(self) -> None:
        """Scroll the stage to the controls once they are laid out (the card above may go out
        of view): the top of a form, else down to the buttons."""

        def reveal() -> None:
            if not self.is_attached or self.answered:
                return
            if self.form is not None:
                self.form.scroll_visible(animate=False, top=True)
                focused = self.screen.focused
                if focused is not None and self.form in focused.ancestors:
                    focused.scroll_visible(animate=False)
                return
            for buttons in self.query(".-buttons"):
                buttons.scroll_visible(animate=False)

        self.call_after_refresh(reveal)

    def _focus_form(self, tries: int = 100) -> None:
        form = self.form
        if form is None or not form.is_attached or self.answered:
            return
        for widget in form.query("Input, Select, Checkbox, TextArea"):
            if widget.focusable and widget.display and widget.id != "raw":
                widget.focus()
                self._reveal()
                return
        if tries > 0 and (form.api is None or form.spec.fields):
            # The form is not set up yet, or its fields are still being mounted: look again
            # shortly. A timer, not the next refresh: on a busy machine ten refreshes can pass
            # before the mount completes.
            self.set_timer(0.05, lambda: self._focus_form(tries - 1))
            return
        next(iter(self.query(".-accept")), self).focus()

    def _answer(self, answer: InputAnswer) -> None:
        if self.answered:
            return
        self.answered = True
        self.post_message(self.Answered(self, answer))

    # --- the three answers -------------------------------------------------------------------

    def action_accept(self) -> None:
        self.accept()

    def accept(self) -> None:
        if self.form is not None:
            self.form.action_submit()  # Answers through _form_submitted once it validates.
        elif self.reply is not None:
            self._approve()
        else:
            self._open()

    def decline(self) -> None:
        self._answer(InputAnswer("decline"))

    def cancel(self) -> None:
        self._answer(InputAnswer("cancel"))

    # --- events ------------------------------------------------------------------------------

    @on(SchemaForm.Submitted)
    def _form_submitted(self, event: SchemaForm.Submitted) -> None:
        # The answer form must not reach the screen: there, a submitted form starts a call.
        event.stop()
        self._answer(InputAnswer("accept", content=event.args))

    @on(Button.Pressed, ".-accept")
    def _accept_pressed(self) -> None:
        self.accept()

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
        self.decline()

    @on(Button.Pressed, ".-cancel")
    def _cancel_pressed(self) -> None:
        self.cancel()
