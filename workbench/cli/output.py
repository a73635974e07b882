"""Everything the CLI writes goes through here, so untrusted text never reaches a terminal raw.

Tool names, descriptions, schemas, errors, headers and log lines come from servers and
fixtures. On the way out, text is cleaned (:func:`workbench.core.sanitize.clean`) and JSON is
written with every terminal-unsafe code point escaped (:func:`workbench.core.sanitize.safe_json`),
so a script reading the JSON gets the same data and a terminal showing it gets no escapes.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, NoReturn

import click

if TYPE_CHECKING:
    from click.decorators import FC
    from rich.console import Console

from workbench.core.problems import Problem
from workbench.core.sanitize import clean, safe_json


def echo(text: str, *, err: bool = False, nl: bool = True) -> None:
    """Print ``text`` with escape sequences, controls and invisible characters shown as marks."""
    click.echo(clean(text), err=err, nl=nl)


def echo_json(value: Any, *, indent: int | None = 2) -> None:
    """Print ``value`` as JSON whose strings cannot carry terminal escapes."""
    click.echo(safe_json(value, indent=indent, default=str))


def format_option(
    help: str = "Output format.", *, formats: Sequence[str] = ("text", "json")
) -> Callable[[FC], FC]:
    """``--format`` into ``output_format``, ``text`` by default: one spelling for every command
    that can also answer in JSON."""
    return click.option(
        "--format",
        "output_format",
        type=click.Choice(list(formats)),
        default="text",
        show_default=True,
        help=help,
    )


def path_option(
    flag: str, dest: str, help: str, *, directory: bool = False, multiple: bool = False
) -> Callable[[FC], FC]:
    """``flag`` into ``dest``: the path of a file (or, with ``directory``, a directory) to read or
    write, ``None`` when not given; with ``multiple``, a tuple of every one given."""
    return click.option(
        flag,
        dest,
        type=click.Path(path_type=Path, file_okay=not directory, dir_okay=directory),
        default=None,
        multiple=multiple,
        help=help,
    )


def fail_usage(message: str) -> NoReturn:
    """One line on stderr and exit code 2: a usage error a script can grep."""
    echo(f"workbench: error: {message}", err=True)
    raise SystemExit(2)


class Done(SystemExit):
    """Raised by a command whose work is over and whose processes have all ended (``call``,
    ``tools``): when this process is that command, it may end without the interpreter's
    teardown (see :func:`exit_done`). Elsewhere (a test's ``CliRunner``) a plain exit."""


def exit_done(done: Done) -> NoReturn:
    """End the process with ``done``'s code, skipping the interpreter's teardown.

    Freeing every module and object one by one (the ``mcp`` SDK's pydantic models alone)
    takes 0.1-0.4 s of CPU after the result is out, for memory the kernel frees at once.
    Everything a normal exit does that anyone can see still happens: the standard streams
    are flushed, ``atexit`` handlers run (logging's among them). While a non-daemon thread
    still runs, the exit is a normal one, which waits for it.
    """
    code = done.code if isinstance(done.code, int) else 0 if done.code is None else 1
    if any(
        thread.is_alive() and not thread.daemon
        for thread in threading.enumerate()
        if thread is not threading.main_thread()
    ):
        raise done
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        raise done from None  # A closed or broken stream: let the normal exit report it.
    atexit._run_exitfuncs()
    with contextlib.suppress(OSError, ValueError):  # What the handlers printed.
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


def fail_unless_loaded(problems: Iterable[Problem]) -> None:
    """Exit 2 after printing each error when the fixtures do not load cleanly: a command that
    draws or judges every variant must not pass over the ones that failed to load."""
    errors = [problem for problem in problems if problem.severity == "error"]
    if errors:
        for problem in errors:
            echo(problem.format(), err=True)
        echo("workbench: error: fixtures do not load cleanly (see `workbench check`)", err=True)
        raise SystemExit(2)


class CleanStderrHandler(logging.Handler):
    """Log records (the ``mcp`` SDK's among them) on stderr, cleaned.

    SDK warnings quote what a server sent (a Content-Type header, a line that is not JSON);
    Python's last-resort handler would print those bytes raw. ``sys.stderr`` is looked up at
    each record so a TUI that captures stderr still captures these.
    """

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(clean(self.format(record)) + "\n")
        except Exception:  # noqa: BLE001 - logging must never take the command down
            self.handleError(record)


def install_log_handler() -> None:
    """Route warnings and errors of every logger through :class:`CleanStderrHandler` once."""
    root = logging.getLogger()
    if not any(isinstance(handler, CleanStderrHandler) for handler in root.handlers):
        handler = CleanStderrHandler(level=logging.WARNING)
        handler.setFormatter(logging.Formatter("%(name)s: %(levelname)s: %(message)s"))
        root.addHandler(handler)


BAR_WIDTH = 30


def _cut_left(text: str, room: int) -> str:
    """The end of ``text`` in ``room`` characters (a case id's end says most)."""
    if room < 8:
        return ""
    return text if len(text) <= room else "…" + text[-(room - 1) :]


class ProgressReport:
    """Progress of a long run, on stderr: a bar on a terminal; otherwise one plain line per
    tenth of the work (a CI log gets ten lines, not a thousand carriage returns).

    Use as a context manager and call :meth:`advance` after each item.
    """

    def __init__(self, label: str, total: int, *, interactive: bool | None = None) -> None:
        self.label = label
        self.total = total
        self.done = 0
        self.interactive = sys.stderr.isatty() if interactive is None else interactive
        self._started = time.perf_counter()
        self._next_line = 1
        self._bar: Any = None

    def __enter__(self) -> ProgressReport:
        if self.interactive and self.total:
            # The bar is redrawn in place with a carriage return: a line longer than the
            # terminal would wrap and leave a trail, so the item's name is cut to fit.
            columns = shutil.get_terminal_size().columns
            room = columns - len(self.label) - BAR_WIDTH - 2 * len(str(self.total)) - 10
            self._bar = click.progressbar(
                length=self.total,
                label=self.label,
                file=sys.stderr,
                width=BAR_WIDTH,
                show_pos=True,
                item_show_func=lambda item: _cut_left(clean(item), room) if item else None,
            )
            self._bar.__enter__()
        return self

    def advance(self, item: str = "") -> None:
        self.done += 1
        if self._bar is not None:
            self._bar.update(1, item)
            return
        # A line each time another tenth is done, and for the last item.
        if self.done >= self._next_line * self.total / 10 or self.done == self.total:
            while self._next_line * self.total / 10 <= self.done:
                self._next_line += 1
            percent = 100 * self.done // max(1, self.total)
            seconds = time.perf_counter() - self._started
            echo(f"{self.label}: {self.done}/{self.total} ({percent}%) {seconds:.1f} s", err=True)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.__exit__(exc_type, exc, traceback)


def stdout_console(width: int, color: bool) -> Console:
    """The console `show` prints cards with: ``width`` columns, truecolor or none, and no
    markup, highlighting or emoji codes read from the text (it is the tool's, untrusted)."""
    from rich.console import Console

    return Console(
        file=sys.stdout,
        width=width,
        color_system="truecolor" if color else None,
        force_terminal=color,
        no_color=not color,
        highlight=False,
        emoji=False,
        markup=False,
        legacy_windows=False,
    )
