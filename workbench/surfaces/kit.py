"""Building blocks for surfaces: safe text, caps with "showing N of M", JSON, boxes.

Every piece of tool or fixture text goes through :mod:`workbench.core.sanitize` here, so a
surface written with these helpers cannot leak markup or escape sequences.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any, TypeVar

from rich.cells import cell_len, set_cell_size
from rich.console import Group, JustifyMethod, RenderableType
from rich.panel import Panel
from rich.style import Style
from rich.table import Table
from rich.text import Span, Text

from workbench.core.call_state import Phase
from workbench.core.output_buffer import OutputBuffer
from workbench.core.result import ErrorType, ToolError

# ansi_text is part of the kit surfaces use (kit.ansi_text): re-exported explicitly.
from workbench.core.sanitize import ansi_text as ansi_text
from workbench.core.sanitize import clean, plain
from workbench.surfaces.context import Palette, SurfaceContext

T = TypeVar("T")

__all__ = [
    "ENDING_MARKS",
    "ENDING_VERBS",
    "MAX_TEXT_CHARS",
    "SPINNER_FRAMES",
    "ansi_text",
    "args_table",
    "cap_items",
    "capped_text",
    "code_block",
    "diff_block",
    "ending_notice",
    "error_box",
    "hidden_lines_note",
    "human_size",
    "join",
    "json_block",
    "key_values",
    "line_count",
    "more_note",
    "notice_box",
    "noun",
    "output_tail",
    "output_text",
    "part_of",
    "plural",
    "portal_ending",
    "progress_bar",
    "returned_note",
    "rows_table",
    "seconds",
    "shorten",
    "shorten_strings",
    "showing",
    "skeleton_bar",
    "skeleton_lines",
    "spinner",
    "status_line",
    "syntax_theme",
    "text",
    "to_json_text",
    "truncate_line",
]

SPINNER_FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
MAX_TEXT_CHARS = 20_000
"""Characters of a single text block shown before it is cut."""


def spinner(frame: int) -> str:
    """The spinner character for animation ``frame`` (``ctx.frame``: 0 in snapshots)."""
    return SPINNER_FRAMES[frame % len(SPINNER_FRAMES)]


def text(value: object, style: str = "") -> Text:
    """Untrusted text as a literal :class:`Text` (never markup, controls shown as marks)."""
    return plain(value, style)


def join(*parts: Text | str | tuple[object, str] | None) -> Text:
    """Assemble one line from pieces: ``Text``, trusted ``str`` labels, or ``(value, style)``."""
    line = Text()
    for part in parts:
        if part is None:
            continue
        if isinstance(part, Text):
            line.append_text(part)
        elif isinstance(part, tuple):
            line.append_text(plain(part[0], part[1]))
        else:
            line.append(part)
    return line


_SIBILANT_ENDINGS = ("s", "x", "z", "ch", "sh")


def noun(count: int, singular: str, plural_form: str | None = None) -> str:
    """The form of ``singular`` that agrees with ``count``: ``file`` or ``files``.

    Regular English plurals are made here (``entry`` -> ``entries``, ``match`` ->
    ``matches``); pass ``plural_form`` for the irregular ones (``person``, ``people``).
    """
    if count == 1:
        return singular
    if plural_form is not None:
        return plural_form
    if singular.endswith("y") and singular[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return singular[:-1] + "ies"
    if singular.endswith(_SIBILANT_ENDINGS):
        return singular + "es"
    return singular + "s"


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """``1 file``, ``2 files``, ``1,024 files``: every count a surface prints goes through here."""
    return f"{count:,} {noun(count, singular, plural_form)}"


def part_of(part: int, total: int, singular: str, plural_form: str | None = None) -> str:
    """``2 of 3 pages`` when only some of the items made it, ``3 pages`` when all did.

    A count with a completed verb ("Read: 3 pages") claims the verb for every item; when
    some failed, the count must say how many it is true of.
    """
    if part == total:
        return plural(total, singular, plural_form)
    return f"{part:,} of {plural(total, singular, plural_form)}"


def showing(shown: int, total: int, unit: str, palette: Palette) -> Text:
    """The explicit cap note: ``showing 10 of 240 results`` (``unit`` is singular)."""
    return Text(f"showing {shown:,} of {plural(total, unit)}", style=f"italic {palette.muted}")


def more_note(hidden: int, shown: int, total: int, unit: str, palette: Palette) -> Text:
    """``+230 more · showing 10 of 240 results`` (``unit`` is singular)."""
    return Text(
        f"+{hidden:,} more · showing {shown:,} of {plural(total, unit)}",
        style=f"italic {palette.muted}",
    )


def returned_note(
    shown: int, returned: int, total: int, unit: str, palette: Palette, *, more_hint: str = ""
) -> Text:
    """The cap note when the tool itself returned fewer items than exist.

    ``showing 12 of 50 tasks returned · 120 match`` says both cuts with the tool's own
    numbers, where ``+108 more`` would promise items the call never brought back.
    """
    if returned >= total:
        if shown >= returned:
            return Text("")
        return more_note(returned - shown, shown, returned, unit, palette)
    line = Text(
        f"showing {shown:,} of {plural(returned, unit)} returned · {total:,} in all",
        style=f"italic {palette.muted}",
    )
    if more_hint:
        line.append(f" · {more_hint}", style=f"italic {palette.muted}")
    return line


def cap_items(items: Sequence[T], limit: int) -> tuple[Sequence[T], int]:
    """The first ``limit`` items and how many were left out."""
    if len(items) <= limit:
        return items, 0
    return items[:limit], len(items) - limit


def truncate_line(value: str, width: int) -> str:
    """``value`` cut to ``width`` cells, ending in ``…`` when cut."""
    return shorten(value, width)


def shorten(value: str, width: int, *, where: str = "end") -> str:
    """``value`` in at most ``width`` terminal cells, with ``…`` where text was left out.

    ``where="middle"`` keeps both ends (a path's folder and file name); wide characters
    (CJK, emoji) count as the two cells they take on screen.
    """
    if len(value) > width * 2 + 8:
        # Cell arithmetic is per character: never pay it for a 100 KB argument.
        if where == "middle":
            value = value[: width * 2] + value[-width * 2 :]
        else:
            value = value[: width * 2 + 8]
    elif cell_len(value) <= width:
        return value
    if width <= 1:
        return "…"[:width]
    if where == "middle":
        head_width = (width - 1) // 2
        tail_width = width - 1 - head_width
        head = set_cell_size(value, head_width).rstrip()
        tail = _tail_cells(value, tail_width)
        return f"{head}…{tail}"
    return set_cell_size(value, width - 1).rstrip() + "…"


def _tail_cells(value: str, width: int) -> str:
    taken: list[str] = []
    used = 0
    for character in reversed(value):
        size = cell_len(character)
        if used + size > width:
            break
        taken.append(character)
        used += size
    return "".join(reversed(taken))


def line_count(value: str) -> int:
    """Lines in ``value`` as an editor counts them (a final newline ends a line, it adds none)."""
    if not value:
        return 0
    return value.count("\n") + (0 if value.endswith("\n") else 1)


def capped_text(
    value: str,
    palette: Palette,
    *,
    max_lines: int = 40,
    style: str = "",
    ansi: bool = False,
    unit: str = "line",
    total_lines: int | None = None,
    width: int | None = None,
) -> RenderableType:
    """A block of untrusted text cut at ``max_lines`` (and at a character cap).

    ``total_lines`` is the tool's own count when ``value`` is already a cut of something
    longer: the note then says how much the tool had, not how much it passed on. With
    ``width``, each line is one row, shortened with ``…`` (a preview whose height does not
    depend on the terminal); without it, long lines wrap.
    """
    cut = value[:MAX_TEXT_CHARS]
    lines = cut.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    shown = lines[:max_lines]
    total = max(total_lines or 0, line_count(value))
    if width is not None:
        shown = [shorten(line, width) for line in shown]
    body = ansi_text("\n".join(shown), style) if ansi else plain("\n".join(shown), style)
    if width is not None:
        body.no_wrap = True
        body.overflow = "ellipsis"
    notes: list[RenderableType] = []
    if total > len(shown):
        notes.append(showing(len(shown), total, unit, palette))
    elif len(value) > MAX_TEXT_CHARS:
        notes.append(
            Text(
                f"showing {MAX_TEXT_CHARS:,} of {plural(len(value), 'character')}",
                style=f"italic {palette.muted}",
            )
        )
    return Group(body, *notes) if notes else body


def to_json_text(value: Any) -> str:
    """``value`` as indented JSON text (non-ASCII kept, anything unknown as ``str``)."""
    return json.dumps(value, indent=2, ensure_ascii=False, default=str, sort_keys=False)


def shorten_strings(value: Any, limit: int) -> Any:
    """``value`` with every string longer than ``limit`` cut, saying how much was left out."""
    if isinstance(value, str):
        if len(value) > limit:
            return f"{value[:limit]}… (+{plural(len(value) - limit, 'character')})"
        return value
    if isinstance(value, dict):
        return {key: shorten_strings(item, limit) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [shorten_strings(item, limit) for item in value]
    return value


def syntax_theme(palette: Palette) -> Any:
    """Code colours taken from the palette, so highlighted code passes contrast in every theme.

    Pygments' own themes were made for their own backgrounds: on ours, ``default``'s greens
    and ``monokai``'s greys fall below 4.5:1.
    """
    return _syntax_theme(palette)


@lru_cache(maxsize=16)
def _syntax_theme(palette: Palette) -> Any:
    from pygments.token import (
        Comment,
        Error,
        Generic,
        Keyword,
        Literal,
        Name,
        Number,
        Operator,
        Punctuation,
        String,
        Token,
    )
    from rich.syntax import ANSISyntaxTheme

    def style(color: str, *, bold: bool = False, italic: bool = False) -> Style:
        return Style(color=color, bold=bold or None, italic=italic or None)

    return ANSISyntaxTheme(
        {
            Token: style(palette.foreground),
            Comment: style(palette.muted, italic=True),
            Keyword: style(palette.accent, bold=True),
            Keyword.Constant: style(palette.secondary),
            Name.Builtin: style(palette.secondary),
            Name.Function: style(palette.primary),
            Name.Class: style(palette.primary, bold=True),
            Name.Decorator: style(palette.accent),
            Name.Tag: style(palette.primary),
            Name.Attribute: style(palette.secondary),
            Literal: style(palette.success),
            String: style(palette.success),
            Number: style(palette.warning),
            Operator: style(palette.foreground),
            Punctuation: style(palette.foreground),
            Generic.Heading: style(palette.primary, bold=True),
            Generic.Subheading: style(palette.primary, bold=True),
            Generic.Emph: style(palette.foreground, italic=True),
            Generic.Strong: style(palette.foreground, bold=True),
            Generic.Inserted: style(palette.success),
            Generic.Deleted: style(palette.error),
            Error: style(palette.error),
        }
    )


def _syntax(
    code: str,
    language: str,
    palette: Palette,
    *,
    line_numbers: bool = False,
    start_line: int = 1,
) -> RenderableType:
    from rich.syntax import Syntax  # Deferred: pygments is slow to import.

    class PaletteSyntax(Syntax):
        # Rich draws line numbers 30% of the way from the background to the text (about
        # 2:1, too faint to read), or dim when the console has fewer colours, so the picture
        # would depend on the terminal. The palette's muted colour passes, everywhere.
        def _get_number_styles(self, console: Any) -> tuple[Style, Style, Style]:
            background = self._get_base_style()
            number = background + Style(color=palette.muted)
            return background, number, number + Style(bold=True)

    return PaletteSyntax(
        code,
        language or "text",
        theme=syntax_theme(palette),
        background_color=palette.background,
        line_numbers=line_numbers,
        start_line=start_line,
        word_wrap=True,
    )


def json_block(
    value: Any, palette: Palette, *, max_lines: int = 30, max_string: int = 400
) -> RenderableType:
    """Highlighted JSON of untrusted data; long strings and long listings are capped.

    For details panes and generic fallbacks: a tool's own surfaces show their data as
    sentences, lists and tables, not as JSON (``workbench audit`` rule 15).
    """
    dumped = clean(to_json_text(shorten_strings(value, max_string)))
    lines = dumped.split("\n")
    shown = "\n".join(lines[:max_lines])
    syntax = _syntax(shown, "json", palette)
    if len(lines) > max_lines:
        return Group(syntax, showing(max_lines, len(lines), "line", palette))
    return syntax


def code_block(
    code: str,
    language: str,
    palette: Palette,
    *,
    max_lines: int = 40,
    start_line: int = 1,
    line_numbers: bool = True,
    total_lines: int | None = None,
    width: int | None = None,
) -> RenderableType:
    """Syntax-highlighted untrusted code, capped.

    ``total_lines``: the tool's own count when ``code`` is already a cut of a longer file.
    ``width``: one row per line, each shortened with ``…`` to fit (a card's preview keeps
    its height at any terminal width); without it, long lines wrap.
    """
    lines = clean(code[:MAX_TEXT_CHARS]).split("\n")
    if lines and lines[-1] == "" and code.endswith("\n"):
        lines.pop()
    visible_lines = lines[:max_lines]
    if width is not None:
        gutter = len(str(start_line + len(visible_lines))) + 3 if line_numbers else 0
        visible_lines = [shorten(line, max(8, width - gutter)) for line in visible_lines]
    shown = "\n".join(visible_lines)
    syntax = _syntax(shown, language, palette, line_numbers=line_numbers, start_line=start_line)
    total = max(total_lines or 0, line_count(code))
    visible = min(len(lines), max_lines)
    if total > visible:
        return Group(syntax, showing(visible, total, "line", palette))
    return syntax


def error_box(
    title: str, message: str, palette: Palette, *, details: Iterable[RenderableType] = ()
) -> Panel:
    """A red-bordered box for failures; ``message`` is untrusted."""
    body: list[RenderableType] = [plain(message)]
    body.extend(details)
    return Panel(
        Group(*body),
        title=Text(title, style=f"bold {palette.error}"),
        title_align="left",
        border_style=palette.error,
        expand=True,
        padding=(0, 1),
    )


def notice_box(
    title: str, body: RenderableType, palette: Palette, *, color: str | None = None
) -> Panel:
    """A box for something that is not a failure (a warning, a note); ``title`` is trusted."""
    color = color or palette.warning
    return Panel(
        body,
        title=Text(title, style=f"bold {color}"),
        title_align="left",
        border_style=color,
        expand=True,
        padding=(0, 1),
    )


def key_values(rows: Iterable[tuple[str, object]], palette: Palette) -> Table:
    """Labels (trusted) beside untrusted values."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style=palette.muted, no_wrap=True)
    table.add_column(overflow="fold")
    for label, value in rows:
        table.add_row(Text(label), value if isinstance(value, Text) else plain(value))
    return table


def args_table(
    args: dict[str, Any], palette: Palette, width: int, *, limit: int = 6
) -> RenderableType:
    """Arguments as ``name  value`` rows, each value shortened to one line."""
    rows: list[tuple[str, object]] = []
    for key, value in list(args.items())[:limit]:
        shown = value if isinstance(value, str) else to_json_text(value).replace("\n", " ")
        room = max(8, width - cell_len(str(key)) - 2)
        rows.append((str(key), shorten(str(shown).replace("\n", "⏎ "), room)))
    table = key_values(rows, palette)
    if len(args) > limit:
        return Group(table, showing(limit, len(args), "argument", palette))
    return table


def skeleton_bar(width: int, palette: Palette) -> Text:
    """A grey bar of ``width`` cells standing in for text that has not arrived yet."""
    return Text("░" * max(1, width), style=palette.muted)


def skeleton_lines(widths: Sequence[int], palette: Palette) -> list[RenderableType]:
    """Grey bars standing in for lines of text that have not arrived yet."""
    return [skeleton_bar(width, palette) for width in widths]


def progress_bar(fraction: float | None, width: int, palette: Palette) -> Text:
    """A determinate bar, or an empty track when the fraction is unknown."""
    width = max(4, width)
    if fraction is None:
        return Text("·" * width, style=palette.muted)
    filled = round(fraction * width)
    bar = Text("█" * filled, style=palette.primary)
    bar.append("░" * (width - filled), style=palette.muted)
    return bar


ENDING_MARKS: dict[Phase, str] = {
    Phase.SKIPPED: "↷",
    Phase.CANCELLED: "⊘",
    Phase.BLOCKED: "⛔",
    Phase.TIMED_OUT: "✗",
}
"""One mark per ending, the same in a card, a Portal and the live history: a skip passes the
call by (↷), a cancel stops it (⊘), policy bars it (⛔, drawn two cells wide everywhere), a
timeout is a failure (✗)."""

ENDING_VERBS: dict[Phase, str] = {
    Phase.SKIPPED: "Skipped",
    Phase.CANCELLED: "Cancelled",
    Phase.BLOCKED: "Blocked",
    Phase.TIMED_OUT: "Timed out",
}
"""The Inspector's verb when a call ended without running to completion: never "Ran"."""


def _protocol_code(error: ToolError) -> int | None:
    body = error.body
    code = body.get("code") if isinstance(body, dict) else None
    return code if isinstance(code, int) and not isinstance(code, bool) else None


def error_label(error: ToolError) -> str:
    """Whose failure it was, in words: the tool's own, or the protocol's (the tool never ran)."""
    if error.type == ErrorType.TOOL_REPORTED:
        return "the tool reported an error"
    if error.type == ErrorType.PROTOCOL_ERROR:
        code = _protocol_code(error)
        if code is not None:
            return f"protocol error {code}: the server did not run the tool"
        return "protocol error: the server's answer was unusable"
    return error.type


def error_mark(error: ToolError) -> str:
    """:func:`error_label` in a few cells, for a one-line Inspector."""
    if error.type == ErrorType.TOOL_REPORTED:
        return "tool error"
    if error.type == ErrorType.PROTOCOL_ERROR:
        code = _protocol_code(error)
        # The code alone: "-32601" is what one looks up, and the argument keeps its room.
        return str(code) if code is not None else "protocol error"
    return error.type


def status_line(
    ctx: SurfaceContext,
    verb_active: str,
    verb_done: str,
    subject: Text | None = None,
    suffix: Text | None = None,
    verb_failed: str | None = None,
    *,
    cut: str = "end",
) -> Text:
    """The usual Inspector: ``Searching: query`` while running, ``Searched: query (12)`` after.

    One line at any width: when it does not fit, the subject (the argument) is shortened
    with ``…`` (``cut="middle"`` keeps a path's file name) and the status at the end is
    kept whole. A skipped, cancelled, blocked or timed-out call says so instead of the
    completed verb, and only a failure is drawn in the error colour.
    """
    palette = ctx.palette
    phase = ctx.phase
    active = ctx.is_active
    prefix = Text()
    tail = Text()
    if phase is Phase.AWAITING_APPROVAL:
        # Plain marks only: "⏸" or "⏱" are one cell to Rich but drawn as two-cell emoji by
        # many terminals and browsers, which shifts the rest of the line.
        prefix.append("◆ ", style=palette.warning)
        prefix.append("Awaiting approval", style="bold")
    elif phase is Phase.AWAITING_INPUT:
        prefix.append("◆ ", style=palette.warning)
        prefix.append("Awaiting your answer", style="bold")
    elif active:
        prefix.append(f"{spinner(ctx.frame)} ", style=palette.accent)
        prefix.append(verb_active, style="bold")
    elif phase in ENDING_VERBS:
        failure = phase is Phase.TIMED_OUT
        color = palette.error if failure else palette.warning
        prefix.append(f"{ENDING_MARKS[phase]} ", style=color)
        prefix.append(ENDING_VERBS[phase], style=f"bold {color}")
        run_ms = ctx.state.timings.run_ms
        if run_ms is not None and phase in (Phase.TIMED_OUT, Phase.CANCELLED):
            tail.append(f" after {run_ms / 1000:.1f} s", style=palette.muted)
    elif ctx.error is not None:
        prefix.append(verb_failed or verb_done, style=f"bold {palette.error}")
        if suffix is not None and suffix.plain:
            tail.append(" ")
            tail.append_text(suffix)
        tail.append(" ")
        tail.append_text(plain(f"✗ {error_mark(ctx.error)}", f"bold {palette.error}"))
    else:
        prefix.append(verb_done, style="bold")
        if suffix is not None and suffix.plain:
            tail.append(" ")
            tail.append_text(suffix)
    line = Text(no_wrap=True, overflow="ellipsis")
    line.append_text(prefix)
    if subject is not None and subject.plain:
        room = ctx.inner_width - prefix.cell_len - 2 - tail.cell_len
        shown = subject.copy()
        if shown.cell_len > room:
            # At worst the subject is a lone "…": the status after it is what must stay.
            shown = _shorten_text(shown, max(1, room), cut)
        shown.stylize(palette.subject)
        line.append(": ")
        line.append_text(shown)
    line.append_text(tail)
    return line


def _shorten_text(value: Text, width: int, where: str) -> Text:
    """``value`` (styles kept) in ``width`` cells, ``…`` marking the cut."""
    plain_text = value.plain
    short = shorten(plain_text, width, where=where)
    head, ellipsis, tail = short.partition("…")
    if not ellipsis:
        return value
    result = value[: len(head)]
    result.append("…")
    if tail:
        result.append_text(value[len(plain_text) - len(tail) :])
    return result


def human_size(size: int) -> str:
    """``512 B``, ``1.5 KB``, ``3.2 MB``: a byte count for people."""
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"


def seconds(milliseconds: int | float) -> str:
    """``1.2 s`` from milliseconds."""
    return f"{milliseconds / 1000:.1f} s"


def ending_notice(ctx: SurfaceContext, *, what: str = "the call") -> RenderableType | None:
    """What a Render shows when the call did not run to the end, or ``None`` if it did.

    A skip is the user's choice and a block is policy, so neither is drawn as an error; a
    cancel says what was under way; a timeout is a failure and says after how long. The
    Inspector above already names the ending with its mark ("↷ Skipped: …"), so this says
    what that meant without naming it twice (a Portal, with no Inspector, uses
    :func:`portal_ending`).
    """
    return _ending(ctx, what, standalone=False)


def portal_ending(ctx: SurfaceContext, *, what: str = "the call") -> RenderableType | None:
    """:func:`ending_notice` for a Portal: no Inspector above it, so it leads with the mark
    and the ending ("↷ Skipped: the command did not run")."""
    return _ending(ctx, what, standalone=True)


def _ending(ctx: SurfaceContext, what: str, *, standalone: bool) -> RenderableType | None:
    palette = ctx.palette
    phase = ctx.phase
    if phase not in ENDING_VERBS:
        return None
    message = ctx.error.message if ctx.error is not None else ctx.content
    run_ms = ctx.state.timings.run_ms
    failure = phase is Phase.TIMED_OUT
    color = palette.error if failure else palette.warning
    what_cap = what[:1].upper() + what[1:]
    if phase is Phase.SKIPPED:
        sentence = f"{what} did not run"
    elif phase is Phase.BLOCKED:
        sentence = f"{what} needs approval, and no one can give it here"
    elif phase is Phase.CANCELLED:
        when = f" after {seconds(run_ms)}" if run_ms is not None else " before it ran"
        sentence = f"{what} was stopped{when}"
    else:
        when = f" after {seconds(run_ms)}" if run_ms is not None else ""
        sentence = f"{what} did not finish in time{when}"
    rows: list[RenderableType] = []
    if standalone:
        rows.append(
            join(
                (f"{ENDING_MARKS[phase]} {ENDING_VERBS[phase]}: ", f"bold {color}"),
                (sentence, ""),
            )
        )
    else:
        rows.append(Text(what_cap + sentence[len(what) :], style=color if failure else ""))
    if phase is Phase.SKIPPED:
        state = ctx.result_state if isinstance(ctx.result_state, dict) else {}
        note = ctx.state.approval.note if ctx.state.approval is not None else ""
        # The user's own words: the runtime keeps them as state["reason"]; a live skip's note
        # and message wrap them ("The user skipped x.y: <their words>").
        reason = str(state.get("reason") or "") or _after_colon(note or message) or note
        if reason:
            rows.append(join(("the user said: ", palette.muted), text(reason, "italic")))
    elif phase is Phase.BLOCKED:
        approval = ctx.state.approval
        state = ctx.result_state if isinstance(ctx.result_state, dict) else {}
        # The policy's reason is in the state; the reducer's approval holds the whole message.
        reason = str(state.get("reason") or "") or (approval.reason if approval else "")
        if reason and reason != message:
            rows.append(join(("why it asks: ", palette.muted), text(reason)))
        rows.append(
            Text(
                "run it where someone can approve it, or allow-list this API",
                style=f"italic {palette.muted}",
            )
        )
    elif failure:
        rows.append(
            Text(
                "raise the call's timeout, or ask for less at once", style=f"italic {palette.muted}"
            )
        )
    return Group(*rows)


def _after_colon(message: str) -> str:
    """The user's words from "Skipped by the user: not now" (the part after the colon)."""
    _head, colon, rest = message.partition(":")
    return rest.strip() if colon and rest.strip() else ""


def diff_block(
    diff: str, palette: Palette, *, max_lines: int = 30, wrap: bool = True
) -> RenderableType:
    """A unified diff with added and removed lines coloured, capped.

    ``wrap=False``: one row per line, cut with ``…`` (a card's preview keeps its height).
    """
    lines = clean(diff).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    body = Text()
    for line in lines[:max_lines]:
        if line.startswith("+++") or line.startswith("---"):
            style = f"bold {palette.muted}"
        elif line.startswith("@@"):
            style = palette.accent
        elif line.startswith("+"):
            style = palette.success
        elif line.startswith("-"):
            style = palette.error
        else:
            style = ""
        body.append(line + "\n", style=style)
    body.rstrip()
    if not wrap:
        body.no_wrap = True
        body.overflow = "ellipsis"
    if len(lines) > max_lines:
        return Group(body, showing(max_lines, len(lines), "diff line", palette))
    return body


def rows_table(
    rows: Iterable[Sequence[Text | str]],
    palette: Palette,
    *,
    headers: Sequence[str] | None = None,
    justify: Sequence[JustifyMethod] | None = None,
    keep: Sequence[int] = (),
    width: int | None = None,
) -> Table:
    """A borderless table of literal cells; header labels are trusted.

    Columns listed in ``keep`` (ids, statuses, sizes) never shrink: given the ``width`` it
    must fit, the other columns share what is left and are cut with ``…``.
    """
    materialised = [
        [cell if isinstance(cell, Text) else plain(cell) for cell in row] for row in rows
    ]
    table = Table(
        box=None,
        show_header=headers is not None,
        header_style=f"bold {palette.muted}",
        padding=(0, 1),
        pad_edge=False,
        expand=False,
    )
    columns = (
        len(headers) if headers is not None else max((len(r) for r in materialised), default=0)
    )
    widest = []
    for index in range(columns):
        cells = [row[index].cell_len for row in materialised if index < len(row)]
        if headers is not None:
            cells.append(cell_len(headers[index]))
        widest.append(max(cells, default=0))
    flexible = [index for index in range(columns) if index not in keep]
    share: int | None = None
    if width is not None and keep and flexible:
        # Rich shrinks every column alike; here the kept ones keep their width.
        room = width - sum(widest[index] for index in keep) - 2 * (columns - 1)
        share = max(4, room // len(flexible))
    for index in range(columns):
        kept = index in keep
        table.add_column(
            headers[index] if headers is not None else "",
            justify=(justify[index] if justify else "left"),
            overflow="ellipsis",
            no_wrap=True,
            width=widest[index] if kept and share is not None else None,
            max_width=share if not kept else None,
        )
    for row in materialised:
        table.add_row(*row)
    return table


def output_text(value: str, palette: Palette, style: str = "") -> Text:
    """A line of program output with its SGR colours kept, but made to read on this theme.

    Programs pick colours for a terminal they cannot see: ANSI cyan is 3.2:1 on the light
    background. Each colour keeps its hue and is darkened or lightened just enough to pass.
    """
    line = ansi_text(value, style)
    if not line.spans:
        return line
    line.spans = [Span(span.start, span.end, _readable(span.style, palette)) for span in line.spans]
    return line


@lru_cache(maxsize=1024)
def _readable_style(style: Style, palette: Palette) -> Style:
    from rich.terminal_theme import DEFAULT_TERMINAL_THEME, MONOKAI

    from workbench.surfaces.colors import TEXT_CONTRAST, ensure_contrast

    if style.color is None and style.bgcolor is None:
        return style
    theme = MONOKAI if palette.dark else DEFAULT_TERMINAL_THEME
    background = (
        style.bgcolor.get_truecolor(theme, foreground=False).hex
        if style.bgcolor is not None and not style.bgcolor.is_default
        else palette.background
    )
    if style.color is None or style.color.is_default:
        return style
    foreground = style.color.get_truecolor(theme).hex
    readable = ensure_contrast(foreground, background, TEXT_CONTRAST + 0.1)
    if style.bgcolor is not None and not style.bgcolor.is_default:
        return style + Style(color=readable, bgcolor=background)
    return style + Style(color=readable)


def _readable(style: str | Style, palette: Palette) -> Style | str:
    if isinstance(style, str):
        if not style:
            return style
        style = Style.parse(style)
    return _readable_style(style, palette)


def output_tail(output: OutputBuffer, lines: int, palette: Palette) -> list[RenderableType]:
    """The last ``lines`` of a call's output (SGR colours kept), with a hidden-lines marker."""
    tail = output.tail(lines)
    rows: list[RenderableType] = []
    hidden = output.line_count - len(tail)
    if hidden:
        rows.append(hidden_lines_note(len(tail), output.line_count, palette))
    rows.extend(
        output_text(line.text, palette, palette.error if line.stream == "stderr" else "")
        for line in tail
    )
    return rows


def hidden_lines_note(shown: int, total: int, palette: Palette) -> Text:
    """``… 5,988 earlier lines hidden · showing the last 12 of 6,000 lines``."""
    return Text(
        f"… {plural(total - shown, 'earlier line')} hidden · showing the last {shown:,} of "
        f"{plural(total, 'line')}",
        style=f"italic {palette.muted}",
    )
