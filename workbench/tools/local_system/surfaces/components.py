"""Pieces shared by the local-system surfaces."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text

from workbench.api import Palette, SurfaceContext, kit

ERROR_HINTS = {
    "FileNotFound": "Check the path; list the parent directory with listFiles.",
    "NotADirectory": "The path is a file: read it with readFile.",
    "NotAFile": "The path is a directory: list it with listFiles.",
    "FileTooLarge": "Read a line range (startLine/endLine) or search it with grepContent.",
    "BinaryFile": "Binary files cannot be shown as text.",
    "EditNotFound": "oldString must match the file exactly, including whitespace.",
    "AmbiguousEdit": "Include more surrounding lines in oldString, or set replaceAll.",
    "InvalidPattern": "The pattern is a Python regular expression; escape ( [ { . * + ? "
    "with a backslash.",
    "PermissionDenied": "The workspace user cannot write there.",
    "CommandTimeout": "Raise the timeout argument, or run a narrower command.",
    "LineOutOfRange": "The file is shorter than startLine.",
}


def path_of(ctx: SurfaceContext, key: str = "path", default: str = "") -> str:
    value = ctx.args.get(key, default)
    return value if isinstance(value, str) else default


def entry_row(entry: dict[str, Any], palette: Palette) -> list[Text]:
    kind = entry.get("type", "file")
    icon = {"dir": "▸", "symlink": "↪", "file": "·"}.get(kind, "?")
    name = kit.text(
        f"{entry.get('path', entry.get('name', ''))}{'/' if kind == 'dir' else ''}",
        f"bold {palette.primary}" if kind == "dir" else "",
    )
    size = Text(
        kit.human_size(int(entry.get("size", 0))) if kind == "file" else "", style=palette.muted
    )
    return [Text(icon, style=palette.muted), name, size]


def entry_table(entries: list[dict[str, Any]], palette: Palette, width: int) -> RenderableType:
    """Entries as rows: the mark and the size keep their columns, long names give way."""
    return kit.rows_table(
        (entry_row(entry, palette) for entry in entries), palette, keep=(0, 2), width=width
    )


def empty_line(ctx: SurfaceContext, *parts: Text | str) -> Text:
    """``∅ src is empty: no files or folders`` — an empty result said in a sentence."""
    line = Text("∅ ", style=ctx.palette.muted)
    for part in parts:
        if isinstance(part, Text):
            line.append_text(part)
        else:
            line.append(part, style=ctx.palette.muted)
    return line


def error_view(ctx: SurfaceContext, what: str) -> RenderableType | None:
    """The error box for a failed file/command call: what failed, where, and a hint."""
    if ctx.error is None:
        return None
    palette = ctx.palette
    details: list[RenderableType] = []
    path = path_of(ctx)
    if path:
        details.append(kit.join(("path ", palette.muted), kit.text(path)))
    hint = ERROR_HINTS.get(ctx.error.type)
    if hint:
        details.append(Text(f"hint: {hint}", style=f"italic {palette.muted}"))
    return kit.error_box(
        f"{what} failed · {ctx.error.type}", ctx.error.message, palette, details=details
    )


def language_of(path: str, state: dict[str, Any]) -> str:
    from workbench.tools.local_system.files import language_for

    language = state.get("language")
    return language if isinstance(language, str) else language_for(path)
