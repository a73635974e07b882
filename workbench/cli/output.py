"""Everything the CLI writes goes through here, so untrusted text never reaches a terminal raw.

Tool names, descriptions, schemas, errors, headers and log lines come from servers and
fixtures. On the way out, text is cleaned (:func:`workbench.core.sanitize.clean`) and JSON is
written with every terminal-unsafe code point escaped (:func:`workbench.core.sanitize.safe_json`),
so a script reading the JSON gets the same data and a terminal showing it gets no escapes.
"""

from __future__ import annotations

import logging
import sys
from typing import Any, NoReturn

import click

from workbench.core.sanitize import clean, safe_json


def echo(text: str, *, err: bool = False, nl: bool = True) -> None:
    """Print ``text`` with escape sequences and control characters removed."""
    click.echo(clean(text), err=err, nl=nl)


def echo_json(value: Any, *, indent: int | None = 2) -> None:
    """Print ``value`` as JSON whose strings cannot carry terminal escapes."""
    click.echo(safe_json(value, indent=indent, default=str))


def fail_usage(message: str) -> NoReturn:
    """One line on stderr and exit code 2: a usage error a script can grep."""
    echo(f"workbench: error: {message}", err=True)
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
        except Exception:
            self.handleError(record)


def install_log_handler() -> None:
    """Route warnings and errors of every logger through :class:`CleanStderrHandler` once."""
    root = logging.getLogger()
    if not any(isinstance(handler, CleanStderrHandler) for handler in root.handlers):
        handler = CleanStderrHandler(level=logging.WARNING)
        handler.setFormatter(logging.Formatter("%(name)s: %(levelname)s: %(message)s"))
        root.addHandler(handler)
