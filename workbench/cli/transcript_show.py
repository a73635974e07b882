"""``workbench show TRANSCRIPT`` (the conversation as plain text, each call at its ending) and
``workbench open TRANSCRIPT`` (the conversation view)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from workbench.cli.output import fail_usage, stdout_console
from workbench.cli.transcript_import import transcript_format_option

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

    from workbench.project import Project
    from workbench.surfaces.context import Palette
    from workbench.transcripts.conversation import Conversation, Row

MESSAGE_LINES = 30
"""Lines of a message printed before "showing N of M lines"."""
INDENT = 2
"""Columns a subagent's rows are indented per level."""


def open_conversation(path: Path, transcript_format: str, project: Project) -> Conversation:
    """The transcript at ``path`` read for ``project``; a usage error when it cannot be."""
    from workbench.transcripts.conversation import Conversation
    from workbench.transcripts.readers import UnknownFormat

    if not path.is_file():
        fail_usage(f"{path}: not a file")
    try:
        return Conversation(
            path,
            transcript_format,
            mapping=project.config.import_map,
            known=project.known_apis(),
        )
    except UnknownFormat as error:
        fail_usage(str(error))
    except OSError as error:
        fail_usage(f"{path}: cannot read it ({error.strerror or error})")


def print_conversation(
    path: Path, *, width: int, theme: str, color: bool, transcript_format: str = "auto"
) -> None:
    """Print every row of the transcript: prompts, the model's text, folded thinking, each
    call's card at its ending (subagents' calls indented under theirs), problems last in
    their turn. Rows are read and printed a page at a time."""

    from workbench.config import load_config
    from workbench.project import open_project
    from workbench.surfaces.context import DARK_PALETTE, LIGHT_PALETTE

    project = open_project(config=load_config())
    conversation = open_conversation(path, transcript_format, project)
    console = stdout_console(width, color)
    palette = LIGHT_PALETTE if theme == "light" else DARK_PALETTE
    while not conversation.done:
        for row in conversation.load():
            _print_row(console, row, project, palette, width)
        conversation.rows.clear()  # Printed: a long session never piles up in memory.


def _print_row(console: Console, row: Row, project: Project, palette: Palette, width: int) -> None:
    from rich.padding import Padding
    from rich.rule import Rule
    from rich.text import Text

    from workbench.surfaces.card import card_renderable
    from workbench.surfaces.context import SurfaceContext
    from workbench.transcripts.conversation import CallRow, MessageRow, ProblemRow, TurnRow

    if isinstance(row, TurnRow):
        console.print(Rule(f"turn {row.number}", characters="─", align="left"), crop=False)
        if row.prompt is not None:
            console.print(Text("user", style="bold"), crop=False)
            console.print(_message_text(row.prompt.text), crop=False)
        return
    if isinstance(row, ProblemRow):
        console.print(Text(f"problem: {row.problem.format()}"), crop=False)
        return
    indent = INDENT * row.depth
    if isinstance(row, MessageRow):
        message = row.message
        pad = " " * indent
        if message.role == "thinking":
            lines = message.text.count("\n") + 1
            folded = f"{pad}▸ thinking ({lines} line{'s' if lines != 1 else ''}, folded)"
            console.print(Text(folded), crop=False)
            return
        label = "subagent prompt" if message.role == "user" else message.role
        console.print(Text(f"{pad}{label}", style="bold"), crop=False)
        console.print(_message_text(message.text, indent), crop=False)
        return
    assert isinstance(row, CallRow)
    manifest = project.manifest_for(row.target.tool)
    script = row.script(manifest)
    state = script.state_at(script.phases[-1])
    ctx = SurfaceContext(
        state=state, manifest=manifest, width=max(30, width - indent), palette=palette
    )
    console.print(
        Padding(
            card_renderable(ctx, project.registry, expanded=True), (0, 0, 0, indent), expand=False
        ),
        crop=False,
    )


def _message_text(text: str, indent: int = 0) -> Text:
    """Conversation text as it was written: cleaned of control sequences, never read as
    markup, capped at :data:`MESSAGE_LINES` with "showing N of M lines", each line indented."""
    from rich.text import Text

    from workbench.core.sanitize import clean

    lines = clean(text).splitlines()
    shown = lines[:MESSAGE_LINES]
    if len(lines) > MESSAGE_LINES:
        shown.append(f"showing {MESSAGE_LINES:,} of {len(lines):,} lines")
    pad = " " * indent
    return Text("\n".join(f"{pad}{line}".rstrip() for line in shown))


@click.command("open")
@click.argument("path", metavar="TRANSCRIPT", type=click.Path(path_type=Path))
@transcript_format_option("The transcript's format (auto: recognised from its first records).")
def open_transcript(path: Path, transcript_format: str) -> None:
    """Open an agent session (as `workbench import` reads it) as its conversation.

    Turns, the model's text, thinking folded, and every tool call as its card, drawn by the
    project's surfaces; a subagent's calls nested under the call that started them. j / k the
    next and previous call, x the next error, / a filter (tool:NAME, error, words), p replays
    from the selected call at the recorded pace, f2 saves the selected call as a fixture.
    """
    from workbench.app.app import WorkbenchApp
    from workbench.config import ConfigError, load_config
    from workbench.project import open_project
    from workbench.transcripts.readers import UnknownFormat, detect_format

    if not path.is_file():
        fail_usage(f"{path}: not a file")
    if transcript_format == "auto":
        try:
            transcript_format = detect_format(path)
        except UnknownFormat as error:
            fail_usage(str(error))
        except OSError as error:
            fail_usage(f"{path}: cannot read it ({error.strerror or error})")
    try:
        config = load_config()
    except ConfigError:
        config = None
    WorkbenchApp(
        lambda: open_project(),
        transcript=path,
        transcript_format=transcript_format,
        screenshot_dir=config.screenshot_dir if config is not None else None,
    ).run()
