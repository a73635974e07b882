"""Problems found while loading, one row each, grouped by file; a key opens one in $EDITOR."""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult, SuspendNotSupported
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from workbench.app.widgets.messages import WidgetMessage
from workbench.core.problems import MAX_MESSAGE, Problem
from workbench.core.sanitize import clean

MAX_SHOWN = 200


def _short_field(field: str) -> str:
    """``variants[1].args.expression`` -> ``[1].args.expression``: the row is narrow, and the
    index is what tells two variants apart."""
    return field.removeprefix("variants")


def _file_heading(file: str) -> Text:
    """The file's last two parts (``calculator/calculate.yaml``): the narrow sidebar cuts a
    long path at its end, which is the part that says which file."""
    parts = Path(file).parts
    shown = "/".join(parts[-2:])
    return Text(clean(shown), style="bold")


def _row(problem: Problem, *, message: bool = True) -> Text:
    """A problem's row: its line, field and (unless it is shown in full below) message."""
    row = Text()
    # ▾ marks the row whose message is the one under the list.
    mark = "● " if message else "▾ "
    row.append(mark, style="bold red" if problem.severity == "error" else "yellow")
    if problem.line is not None:
        row.append(f"{problem.line} ", style="bold")
    if problem.field:
        row.append(clean(_short_field(problem.field)) + ":", style="italic")
    if message:
        row.append((" " if problem.field else "") + clean(problem.message))
    return row


class ProblemsPanel(Vertical):
    """Every problem found while loading; the rest of the workbench keeps working.

    One row per problem under its file's name; the highlighted one is shown in full below the
    list. ``e`` opens it at its line in ``$VISUAL``/``$EDITOR`` (the app is suspended while the
    editor runs); where there is no editor or the app cannot be suspended (a browser, tests),
    and on ``c``, its location is copied instead.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "open_problem", "Edit at line", tooltip="Open the problem in $EDITOR"),
        Binding("c", "copy_problem", "Copy location", tooltip="Copy FILE:LINE: problem"),
    ]

    DEFAULT_CSS = """
    ProblemsPanel {
        height: auto;
        max-height: 11;
        padding: 0 0 0 1;
        border: round $error;
        border-title-color: $error;
        border-subtitle-color: $text-muted;
        display: none;
        &.-has-problems { display: block; }
        & > OptionList {
            height: auto;
            max-height: 6;
            border: none;
            padding: 0;
            background: transparent;
            text-wrap: nowrap;
            text-overflow: ellipsis;
            &:focus { border: none; }
        }
        & > #problem-detail {
            height: auto;
            max-height: 3;
            padding: 0 1 0 0;
            color: $text-muted;
        }
    }
    """

    @dataclass
    class Edited(WidgetMessage["ProblemsPanel"]):
        """A problem's file was opened in the editor (and may have changed): read it again."""

        path: Path

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
        self.in_card: tuple[Problem, ...] = ()
        """Problems the tool card shows in full (a fixture that does not load): their
        message is not repeated under the list."""
        self._open_row: int | None = None
        """The row whose message is shown in full under the list (and not in the row)."""
        self.root = Path.cwd()
        """What relative problem files are relative to (the project's root)."""

    def compose(self) -> ComposeResult:
        yield OptionList(id="problems-list")
        yield Static(Text(""), id="problem-detail", markup=False)

    @property
    def option_list(self) -> OptionList:
        return self.query_one("#problems-list", OptionList)

    def show(self, problems: Sequence[Problem], *, root: Path | None = None) -> None:
        """List ``problems`` (sorted by file and line); hide the panel when there are none."""
        if root is not None:
            self.root = root
        self.problems = sorted(
            problems, key=lambda problem: (problem.file, problem.line or 0, problem.field)
        )
        self.set_class(bool(problems), "-has-problems")
        files = len({problem.file for problem in problems})
        self.border_title = (
            f"{len(problems)} problem{'s' if len(problems) != 1 else ''} in {files} "
            f"file{'s' if files != 1 else ''}"
        )
        self.border_subtitle = "e edit · c copy" if problems else ""
        options: list[Option] = []
        current = None
        for index, problem in enumerate(self.problems[:MAX_SHOWN]):
            if problem.file != current:
                current = problem.file
                options.append(Option(_file_heading(problem.file), disabled=True))
            options.append(Option(_row(problem), id=str(index)))
        if len(self.problems) > MAX_SHOWN:
            options.append(
                Option(
                    Text(f"showing {MAX_SHOWN} of {len(self.problems)} problems", style="dim"),
                    disabled=True,
                )
            )
        option_list = self.option_list
        self._open_row = None
        option_list.clear_options()
        option_list.add_options(options)
        first = next((i for i, option in enumerate(options) if not option.disabled), None)
        option_list.highlighted = first
        self._describe(self.current)

    @property
    def current(self) -> Problem | None:
        """The highlighted problem."""
        option_list = self.option_list
        if option_list.highlighted is None:
            return None
        option = option_list.get_option_at_index(option_list.highlighted)
        return self.problems[int(option.id)] if option.id is not None else None

    def path_of(self, problem: Problem) -> Path:
        path = Path(problem.file)
        return path if path.is_absolute() else self.root / path

    def location_of(self, problem: Problem) -> str:
        """``FILE:LINE`` (or ``FILE``), the file as an absolute path: pasteable anywhere."""
        path = self.path_of(problem)
        return f"{path}:{problem.line}" if problem.line is not None else str(path)

    def focus_problem(self, path: Path, line: int | None) -> bool:
        """Highlight and focus the first problem in ``path`` at (or after) ``line``."""
        resolved = path.resolve()
        for index, problem in enumerate(self.problems[:MAX_SHOWN]):
            if self.path_of(problem).resolve() != resolved:
                continue
            if line is not None and (problem.line or 0) < line:
                continue
            option_list = self.option_list
            option_list.highlighted = option_list.get_option_index(str(index))
            option_list.focus()
            return True
        return False

    def _describe(self, problem: Problem | None) -> None:
        """Show ``problem``'s message in full under the list, and only there: its row keeps
        the line and field (the message was on screen twice, cut in the row and whole below)."""
        detail = self.query_one("#problem-detail", Static)
        option_list = self.option_list
        if self._open_row is not None and self._open_row < len(self.problems):
            option_list.replace_option_prompt(
                str(self._open_row), _row(self.problems[self._open_row])
            )
        self._open_row = None
        text = ""
        if problem is not None and problem in self.in_card:
            problem = None  # The card shows it in full: the row is its index entry here.
        if problem is not None:
            # The file heads its group and the row shows the line and field: the room goes
            # to the message.
            text = clean(problem.message[:MAX_MESSAGE])
            index = self.problems.index(problem)
            option_list.replace_option_prompt(str(index), _row(problem, message=False))
            self._open_row = index
        detail.update(Text(text))
        detail.display = problem is not None

    def show_in_card(self, problems: Sequence[Problem]) -> None:
        """The card now shows ``problems`` in full; describe the highlighted one again."""
        if tuple(problems) != self.in_card:
            self.in_card = tuple(problems)
            self._describe(self.current)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self._describe(self.current)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_open_problem()

    def action_copy_problem(self) -> None:
        problem = self.current
        if problem is None:
            return
        self._copy(problem, "Copied")

    def action_open_problem(self) -> None:
        problem = self.current
        if problem is None:
            return
        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
        path = self.path_of(problem)
        if not editor or not path.is_file():
            reason = "no $EDITOR is set" if not editor else "the file is not on this machine"
            self._copy(problem, f"Copied ({reason})")
            return
        command = [*shlex.split(editor)]
        if problem.line is not None:
            command.append(f"+{problem.line}")
        command.append(str(path))
        try:
            with self.app.suspend():
                # The editor owns the terminal until it exits: waiting here is the point.
                subprocess.run(command, check=False)
            self.post_message(self.Edited(self, path))
        except SuspendNotSupported:
            self._copy(problem, "Copied (this terminal cannot hand over to an editor)")
        except OSError as error:
            self.notify(
                f"cannot run {command[0]}: {error.strerror or error}",
                title="Editor",
                severity="error",
                markup=False,
            )

    def _copy(self, problem: Problem, title: str) -> None:
        text = clean(f"{self.location_of(problem)}: {problem.message}")
        self.app.copy_to_clipboard(text)
        self.notify(self.location_of(problem), title=title, markup=False)
