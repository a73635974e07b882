"""What the review screen's keys do and what its statuses mean."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

STATUSES: tuple[tuple[str, str], ...] = (
    (
        "To review",
        "drawn differently from its committed snapshot (changed), with none (new), "
        "or changed since someone last decided about it; nobody has decided about this picture",
    ),
    ("Never reviewed", "unchanged, and nobody has decided about it yet"),
    ("Rejected", "someone rejected this very picture, with a note; CI fails until it changes"),
    ("Accepted", "someone accepted this very picture; accepting also writes the snapshot"),
)
FILTERS = (
    "status:to-review|changed|new|unchanged|accepted|rejected|outdated|unreviewed  "
    "tool:NAME  api:NAME  variant:ID  phase:done  theme:light  width:60  surface:portal  "
    "and any text in the case id; words combine, values list alternatives (status:changed,new)"
)


class ReviewHelpScreen(ModalScreen[None]):
    """Keys (from the screen's bindings, so it cannot drift), statuses and the filter."""

    DEFAULT_CSS = """
    ReviewHelpScreen {
        align: center middle;
        & > VerticalScroll {
            width: 90%;
            max-width: 110;
            height: 90%;
            padding: 1 2;
            background: $panel;
            border: tall $primary;
        }
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss", "Close", key_display="esc"),
    ]

    def __init__(
        self, bindings: list[BindingType], review_file: str = "snapshots/reviews.yaml"
    ) -> None:
        super().__init__()
        self.bindings = [binding for binding in bindings if isinstance(binding, Binding)]
        self.review_file = review_file

    def compose(self) -> ComposeResult:
        keys = Table.grid(padding=(0, 2))
        keys.add_column(style="bold", no_wrap=True)
        keys.add_column()
        for binding in self.bindings:
            if binding.description:
                keys.add_row(binding.key_display or binding.key, binding.description)
        keys.add_row("ctrl+p", "Command palette: every key above, and the filters by status")
        keys.add_row("ctrl+t", "The app's theme (a case keeps its own: t)")
        statuses = Table.grid(padding=(0, 2))
        statuses.add_column(style="bold", no_wrap=True)
        statuses.add_column()
        for name, meaning in STATUSES:
            statuses.add_row(name, meaning)
        with VerticalScroll():
            yield Static(Text("Acceptance review", style="bold"))
            yield Static(
                Text(
                    "Each case is one surface at one phase, width and theme. A decision is about "
                    "the picture you see: when the case draws differently it is back in the "
                    f"queue. Decisions are kept in the review file ({self.review_file}) and "
                    "`workbench review --check` fails CI on rejected cases and on changes "
                    "nobody accepted.\n"
                )
            )
            yield Static(Text("Keys", style="bold"))
            yield Static(keys)
            yield Static(Text("\nQueue sections", style="bold"))
            yield Static(statuses)
            yield Static(Text("\nFilter", style="bold"))
            yield Static(Text(FILTERS))
