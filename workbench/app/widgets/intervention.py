"""What every Intervention shown under a tool card has in common: three answers, one focus."""

from __future__ import annotations

from textual.containers import Vertical


class Intervention(Vertical):
    """A question a call puts to a person before it goes on, hosted by a ``CallView``.

    Approving a tool call (:class:`~workbench.app.widgets.intervention_bar.InterventionBar`)
    is one kind; an MCP server's elicitation or sampling request is another. Each kind posts
    its own message with the answer; the screen that started the call handles it. The screen's
    keys reach every kind alike: ``y`` :meth:`accept`, ``n`` :meth:`decline` (which may ask for
    a reason first) and ``escape`` :meth:`cancel`.
    """

    DEFAULT_CSS = """
    Intervention {
        height: auto;
        width: 1fr;
        padding: 0 0 1 0;
    }
    """

    call_id: str = ""
    """The call this intervention belongs to (one open intervention per call at most)."""
    accept_label: str = "Approve"
    """What ``y`` does here, for the help screen and the status line."""
    decline_label: str = "Skip"
    """What ``n`` does here."""

    def focus_default(self) -> None:
        """Put the focus where a person answers (the accept button)."""
        self.focus()

    def accept(self) -> None:
        """Answer yes (approve, submit)."""
        raise NotImplementedError

    def decline(self) -> None:
        """Answer no (skip, decline); may first move the focus to a reason field."""
        raise NotImplementedError

    def cancel(self) -> None:
        """Give up on the whole call."""
        raise NotImplementedError
