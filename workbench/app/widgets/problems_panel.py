"""Broken files, listed as ``file:line: field: message``; hidden when there are none."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from workbench.core.problems import Problem
from workbench.core.sanitize import clean

MAX_SHOWN = 200


class ProblemsPanel(VerticalScroll):
    """Lists every problem found while loading; the rest of the workbench keeps working."""

    DEFAULT_CSS = """
    ProblemsPanel {
        height: auto;
        max-height: 12;
        border: round $error;
        border-title-color: $error;
        padding: 0 1;
        display: none;
        &.-has-problems { display: block; }
    }
    """

    def __init__(
        self,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.problems: list[Problem] = []

    def compose(self) -> ComposeResult:
        yield Static(Text(""), id="problems-body")

    def show(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        self.set_class(bool(problems), "-has-problems")
        files = len({problem.file for problem in problems})
        self.border_title = (
            f"{len(problems)} problem{'s' if len(problems) != 1 else ''} in {files} "
            f"file{'s' if files != 1 else ''}"
        )
        body = Text()
        for problem in problems[:MAX_SHOWN]:
            style = "bold red" if problem.severity == "error" else "yellow"
            body.append("● ", style=style)
            body.append(clean(problem.format()))
            body.append("\n")
        if len(problems) > MAX_SHOWN:
            body.append(f"showing {MAX_SHOWN} of {len(problems)} problems", style="italic dim")
        self.query_one("#problems-body", Static).update(body)
