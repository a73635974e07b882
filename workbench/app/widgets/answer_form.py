"""The form a server sends mid-call (elicitation), answered under the tool card."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from workbench.app.widgets.schema_form import SchemaForm


class AnswerForm(SchemaForm):
    """A :class:`SchemaForm` whose submit sends the answer to the server, not a call.

    Its own buttons are hidden: the answer's Accept / Decline / Cancel sit under it.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "submit", "Send answer", show=True),
        Binding("ctrl+j", "toggle_raw", "Raw JSON", show=True),
    ]

    DEFAULT_CSS = """
    AnswerForm {
        border: round $warning;
        max-height: 24;
        #form-buttons { display: none; }
    }
    """
