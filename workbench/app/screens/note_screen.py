"""Ask for a review note: why a case is rejected, or a note on a decision."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal, Unpack

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from workbench.app.widgets.options import ScreenOptions

Mode = Literal["reject", "note"]


@dataclass(frozen=True)
class NoteAnswer:
    """What the reviewer chose: a status for the case (``None``: keep its decision) and a note."""

    status: Literal["accepted", "rejected"] | None
    note: str


class NoteScreen(ModalScreen[NoteAnswer | None]):
    """A one-line note and the decision it goes with; escape cancels."""

    DEFAULT_CSS = """
    NoteScreen {
        align: center middle;
        & > Vertical {
            width: 80%;
            max-width: 96;
            height: auto;
            padding: 1 2;
            background: $panel;
            border: tall $primary;
        }
        #note-title { margin-bottom: 1; }
        #note-error { color: $text-error; height: auto; }
        #note-buttons { height: auto; margin-top: 1; }
        #note-buttons Button { margin-right: 2; }
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        case_id: str,
        *,
        mode: Mode,
        decided: bool,
        note: str = "",
        **options: Unpack[ScreenOptions],
    ) -> None:
        super().__init__(**options)
        self.case_id = case_id
        self.mode = mode
        self.decided = decided
        """The case has a decision about its current picture (a note can be added to it)."""
        self.note = note

    def compose(self) -> ComposeResult:
        title = Text("Reject " if self.mode == "reject" else "Note on ", style="bold")
        title.append(self.case_id)
        hint = (
            "Say what is wrong; it is recorded with the rejection."
            if self.mode == "reject"
            else "A note goes with a decision about what the case draws now."
        )
        with Vertical():
            yield Static(title, id="note-title")
            yield Static(Text(hint, style="dim"))
            yield Input(value=self.note, placeholder="note", id="note-input")
            yield Static("", id="note-error")
            with Horizontal(id="note-buttons"):
                if self.mode == "reject":
                    yield Button("Reject", variant="error", id="reject")
                elif self.decided:
                    yield Button("Save note", variant="primary", id="save")
                else:
                    yield Button("Accept with note", variant="success", id="accept")
                    yield Button("Reject with note", variant="error", id="reject")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#note-input", Input).focus()

    def _answer(self, status: Literal["accepted", "rejected"] | None) -> None:
        note = " ".join(self.query_one("#note-input", Input).value.split())
        if status == "rejected" and not note:
            self.query_one("#note-error", Static).update(
                "A rejection needs a note: what should change?"
            )
            return
        self.dismiss(NoteAnswer(status, note))

    @on(Button.Pressed, "#reject")
    def _reject(self) -> None:
        self._answer("rejected")

    @on(Button.Pressed, "#accept")
    def _accept(self) -> None:
        self._answer("accepted")

    @on(Button.Pressed, "#save")
    def _save(self) -> None:
        self._answer(None)

    @on(Button.Pressed, "#cancel")
    def _cancel_button(self) -> None:
        self.dismiss(None)

    @on(Input.Submitted, "#note-input")
    def _submitted(self) -> None:
        # Enter does what the first button does.
        if self.mode == "reject":
            self._answer("rejected")
        elif self.decided:
            self._answer(None)
        else:
            self._answer("accepted")

    def action_cancel(self) -> None:
        self.dismiss(None)
