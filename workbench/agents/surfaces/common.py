"""Pieces every agent-tool surface uses: reading args and state under the names each agent
gives them, one-line headers, empty lines and error boxes.

The three agents name the same things differently (``file_path``, ``absolute_path``,
``path``; ``command`` as a string or an argv list), and an imported call carries whatever
structured state its transcript had (Claude Code's ``toolUseResult``, Codex's exit code), or
none: every surface works from the content the model read and uses the state when it is there.
"""

from __future__ import annotations

import functools
import re
import shlex
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from workbench.api import Group, RenderableType, SurfaceContext, Text, kit

PATH_ARGS = ("file_path", "absolute_path", "notebook_path", "path", "dir_path", "directory")
CWD_ARGS = ("workdir", "dir_path", "directory", "cwd")
"""Where a command runs, as each agent names it."""
EXIT_CODE = re.compile(r"\bexit(?:ed with)?[ _]code\s*[:=]?\s*(-?\d+)", re.I)


def state_of(ctx: SurfaceContext) -> dict[str, Any]:
    """The result's structured state, or ``{}``."""
    state = ctx.result_state
    return state if isinstance(state, dict) else {}


def first(mapping: Mapping[str, Any], *names: str) -> Any:
    """The value of the first of ``names`` that ``mapping`` has (``None`` when none)."""
    for name in names:
        value = mapping.get(name)
        if value is not None:
            return value
    return None


def listed(value: Any) -> list[Any]:
    """``value`` when it is a list, else ``[]`` (an imported call's args may hold anything)."""
    return value if isinstance(value, list) else []


def arg_text(ctx: SurfaceContext, *names: str) -> str:
    """The first of ``names`` the args have, as text (an argv list is joined as a shell line)."""
    value = first(ctx.args, *names)
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return shell_line(value)
    return ""


def shell_line(argv: list[str]) -> str:
    """``["bash", "-lc", "ls -la"]`` reads as the script it runs, ``ls -la``."""
    if (
        len(argv) == 3
        and argv[0].rsplit("/", 1)[-1] in ("bash", "sh", "zsh")
        and argv[1]
        in (
            "-c",
            "-lc",
        )
    ):
        return argv[2]
    return shlex.join(argv)


def path_arg(ctx: SurfaceContext) -> str:
    return arg_text(ctx, *PATH_ARGS)


def urls_in(text: str) -> list[str]:
    """The URLs in ``text`` as gemini-cli's web_fetch finds them in its prompt: its words that
    start with ``http://`` or ``https://`` (a URL inside a word is not fetched)."""
    return [word for word in text.split() if word.startswith(("http://", "https://"))]


def scope_table(ctx: SurfaceContext, rows: Sequence[tuple[str, object]]) -> RenderableType | None:
    """``rows`` that have a value (not ``None``, ``""`` or ``False``) as labels beside values:
    where a command runs, for what, how it ended; ``None`` when no row has one."""
    kept = [(label, value) for label, value in rows if value not in (None, "", False)]
    return kit.key_values(kept, ctx.palette) if kept else None


def labelled(
    ctx: SurfaceContext, label: str, value: str, *, max_lines: int, style: str = ""
) -> list[RenderableType]:
    """``label`` then ``value`` (it wraps), cut at ``max_lines`` lines with a "showing N of M"
    note: a prompt or a script can run to thousands of lines."""
    lines = value[: kit.MAX_TEXT_CHARS].split("\n")
    total = kit.line_count(value)
    rows: list[RenderableType] = [
        kit.join((label, ctx.palette.muted), kit.text("\n".join(lines[:max_lines]), style))
    ]
    if total > max_lines:
        rows.append(kit.showing(max_lines, total, "line", ctx.palette))
    return rows


def muted(ctx: SurfaceContext, value: str) -> Text:
    """``value`` in the muted colour, cleaned: callers put paths and the model's words in it."""
    return kit.text(value, ctx.palette.muted)


def header(*parts: Text | str | tuple[object, str]) -> Text:
    """A Render's first row: one line, cut with ``…``."""
    line = kit.join(*parts)
    line.no_wrap = True
    line.overflow = "ellipsis"
    return line


def path_header(
    ctx: SurfaceContext,
    path: str,
    *after: Text | str | tuple[object, str],
    before: tuple[Text | str | tuple[object, str], ...] = (),
) -> Text:
    """A Render's first row naming a file: a long path loses part of its folder (its start and
    the file's name stay), so the counts after it are never the part that is lost."""
    room = max(12, ctx.inner_width - kit.join(*before, *after).cell_len)
    return header(*before, kit.text(short_path(path, room), "bold"), *after)


def short_path(path: str, room: int) -> str:
    """``path`` in ``room`` cells: the folder is cut in its middle before the file's name is."""
    if kit.text(path).cell_len <= room:
        return path
    folder, slash, name = path.rpartition("/")
    left = room - kit.text(name).cell_len - 1
    if slash and folder and left >= 8:
        return f"{kit.shorten(folder, left, where='middle')}/{name}"
    return kit.shorten(path, room, where="middle")


def pending(ctx: SurfaceContext, verb: str, subject: str) -> Text:
    """A Placeholder's first row: ``⠋ running ls -la``."""
    return header(
        (f"{kit.spinner(ctx.frame)} {verb} ", ctx.palette.muted), kit.text(subject, "bold")
    )


def bars(ctx: SurfaceContext, rows: int) -> list[RenderableType]:
    """Skeleton rows where the Render's rows will be."""
    shares = (7, 9, 5, 8, 6, 4)
    width = ctx.inner_width
    return kit.skeleton_lines(
        [width * shares[i % len(shares)] // 10 for i in range(rows)], ctx.palette
    )


def placeholder(ctx: SurfaceContext, verb: str, subject: str, rows: int) -> RenderableType:
    return Group(pending(ctx, verb, subject), *bars(ctx, rows))


def empty_line(ctx: SurfaceContext, sentence: str) -> Text:
    """``∅ No matches for TODO`` — an empty result said in a sentence."""
    return kit.join(("∅ ", ctx.palette.muted), kit.text(sentence))


def error_view(ctx: SurfaceContext, what: str) -> RenderableType | None:
    """The error box of a failed call: what failed and the agent's own message."""
    if ctx.error is None:
        return None
    return kit.error_box(
        f"{what} failed · {kit.error_label(ctx.error)}", ctx.error.message, ctx.palette
    )


def ended(ctx: SurfaceContext, what: str, failed: str) -> RenderableType | None:
    """A skip, cancel, block or timeout notice, else the error box, else ``None``."""
    notice = kit.ending_notice(ctx, what=what)
    if notice is not None:
        return notice
    return error_view(ctx, failed)


Render = Callable[[SurfaceContext], RenderableType | None]


def after_ending(what: str, failed: str) -> Callable[[Render], Render]:
    """A Render whose body draws only a result: before it, :func:`ended` shows the notice of a
    call that ended otherwise (or its error box), and a call with no result yet shows nothing."""

    def wrap(body: Render) -> Render:
        @functools.wraps(body)
        def render(ctx: SurfaceContext) -> RenderableType | None:
            shown = ended(ctx, what, failed)
            if shown is not None or ctx.result is None:
                return shown
            return body(ctx)

        return render

    return wrap


NO_CONTENT = "(no content)"
"""What the result funnel puts in place of an empty content (content is never empty)."""


def model_text(ctx: SurfaceContext) -> str:
    """The text the model read; ``""`` when it read nothing (or the call has no result)."""
    if ctx.result is None or ctx.content.strip() == NO_CONTENT:
        return ""
    return ctx.content


def silent_note(ctx: SurfaceContext) -> Text | None:
    """``∅ the model was given no text back`` when the result's content is empty: the edit
    or plan is in the args, but what the model read of it was nothing."""
    if ctx.result is None or model_text(ctx).strip():
        return None
    return kit.join(
        ("∅ ", ctx.palette.muted), ("the model was given no text back", ctx.palette.muted)
    )


def with_silence(ctx: SurfaceContext, *rows: RenderableType) -> RenderableType:
    """``rows`` as a group, with :func:`silent_note` under them when it applies."""
    note = silent_note(ctx)
    return Group(*rows, *([note] if note is not None else []))


def exit_code_of(ctx: SurfaceContext) -> int | None:
    """The command's exit code: from the state when the transcript had one, else as the agent
    wrote it in the content ("Exit code: 1", "Process exited with code 0")."""
    state = state_of(ctx)
    metadata = state.get("metadata")
    code = first(state, "exit_code", "exitCode", "returnCode")
    if code is None and isinstance(metadata, dict):
        code = first(metadata, "exit_code", "exitCode")
    if isinstance(code, int) and not isinstance(code, bool):
        return code
    found = EXIT_CODE.search(ctx.content[:2000] if ctx.result is not None else "")
    return int(found.group(1)) if found else None


def count_suffix(ctx: SurfaceContext, total: int | None, unit: str, empty: str) -> Text | None:
    """``(3 files)`` or ``(no matches)`` after a finished search's Inspector."""
    return kit.count_suffix(ctx, total if ctx.result is not None else None, unit, empty)
