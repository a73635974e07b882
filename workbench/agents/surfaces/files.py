"""Files: a read as the file and its line range, a write as what was written, an edit or a
patch as a diff (+added -removed in the Inspector)."""

from __future__ import annotations

import difflib
import re
from typing import Any

from workbench.agents.surfaces.common import (
    after_ending,
    arg_text,
    bars,
    empty_line,
    first,
    header,
    model_text,
    muted,
    path_arg,
    path_header,
    pending,
    state_of,
    with_silence,
)
from workbench.api import Group, RenderableType, SurfaceContext, Text, kit

FILE_LINES = 10
DIFF_LINES = 14
READ_LINES = 4
"""A read's card previews this many lines (or files): its Placeholder cannot know the file's
length, so it stands in for the smallest Render (a header and one line), and the longest
(the header, these lines and the "showing N of M" note) must stay within the audit's four
rows of it (rule 8). The Portal shows the whole file."""
_NUMBERED = re.compile(r"^\s*\d+(?:→|\t)")
"""Claude Code's Read gives the model ``cat -n`` lines (``     1→text``)."""
_PATCH_FILE = re.compile(r"^\*\*\* (Add|Update|Delete) File: (.+)$", re.M)


# --- reading --------------------------------------------------------------------------------


def line_range(ctx: SurfaceContext) -> tuple[int, int, int | None] | None:
    """(first line, last line, lines in the file) as the state or the args give them."""
    file = state_of(ctx).get("file")
    if isinstance(file, dict) and isinstance(file.get("numLines"), int):
        given = file.get("startLine")
        start = given if isinstance(given, int) and not isinstance(given, bool) else 1
        total = file.get("totalLines")
        return (
            start,
            start + max(int(file["numLines"]) - 1, 0),
            total if isinstance(total, int) else None,
        )
    start = first(ctx.args, "offset", "start_line")
    if isinstance(start, int) and ctx.tool == "gemini-cli" and "start_line" not in ctx.args:
        start += 1  # Older gemini-cli read_file counted its offset from 0, Claude Code from 1.
    count = first(ctx.args, "limit")
    end = first(ctx.args, "end_line")
    if isinstance(start, int):
        if isinstance(count, int):
            return start, start + count - 1, None
        if isinstance(end, int):
            return start, end, None
    return None


def file_text(ctx: SurfaceContext) -> str:
    file = state_of(ctx).get("file")
    if isinstance(file, dict) and isinstance(file.get("content"), str):
        return str(file["content"])
    lines = model_text(ctx).split("\n")
    if lines and all(_NUMBERED.match(line) for line in lines if line.strip()):
        lines = [_NUMBERED.sub("", line, count=1) for line in lines]
    return "\n".join(lines)


def read_inspector(ctx: SurfaceContext) -> RenderableType:
    suffix = None
    span = line_range(ctx)
    if span is not None and ctx.error is None:
        start, end, total = span
        of = f" of {total:,}" if total is not None else ""
        suffix = muted(ctx, f"(lines {start:,}-{end:,}{of})")
    return kit.status_line(
        ctx,
        "Reading",
        "Read",
        kit.text(path_arg(ctx)),
        suffix,
        verb_failed="Could not read",
        cut="middle",
    )


@after_ending("the read", "Reading")
def read_render(ctx: SurfaceContext) -> RenderableType | None:
    path = path_arg(ctx)
    text = file_text(ctx)
    if not text.strip():
        return empty_line(ctx, f"{path} is empty: it has no lines")
    span = line_range(ctx)
    start = span[0] if span is not None else 1
    language = kit_language(path)
    top = path_header(
        ctx, path, (f" · {kit.plural(kit.line_count(text), 'line')}", ctx.palette.muted)
    )
    body = kit.code_block(
        text, language, ctx.palette, max_lines=READ_LINES, start_line=start, width=ctx.inner_width
    )
    return Group(top, body)


def kit_language(path: str) -> str:
    """The highlighter's name for a file, by its extension."""
    extension = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    return {
        "py": "python",
        "ts": "typescript",
        "tsx": "tsx",
        "js": "javascript",
        "json": "json",
        "md": "markdown",
        "toml": "toml",
        "yaml": "yaml",
        "yml": "yaml",
        "rs": "rust",
        "go": "go",
        "sh": "bash",
        "html": "html",
        "css": "css",
        "ipynb": "json",
    }.get(extension, "text")


def read_placeholder(ctx: SurfaceContext) -> RenderableType:
    span = line_range(ctx)
    rows = 1 if span is None else min(READ_LINES, span[1] - span[0] + 1)
    return Group(pending(ctx, "reading", path_arg(ctx)), *bars(ctx, max(rows, 1)))


def many_inspector(ctx: SurfaceContext) -> RenderableType:
    subject = many_subject(ctx)
    files = _many_files(ctx)
    suffix = None
    if ctx.result is not None and ctx.error is None:
        suffix = muted(ctx, f"({kit.plural(len(files), 'file')})" if files else "(no files)")
    return kit.status_line(
        ctx, "Reading", "Read", kit.text(subject), suffix, verb_failed="Could not read"
    )


def many_subject(ctx: SurfaceContext) -> str:
    """The paths or globs read: ``include`` now, ``paths`` (and ``include`` beside it) in
    older gemini-cli versions."""
    patterns = [*ctx.list_arg("paths"), *ctx.list_arg("include")]
    return ", ".join(str(item) for item in patterns)


def _many_files(ctx: SurfaceContext) -> list[str]:
    """The files read: the list gemini-cli gave its user (in the state, or in the
    ``resultDisplay`` an import keeps), else the ``--- PATH ---`` separators of the model's
    text but its closing ``--- End of content ---``."""
    state = state_of(ctx)
    display = state.get("resultDisplay")
    for holder in (state, display if isinstance(display, dict) else {}):
        listed = first(holder, "processedFiles", "files")
        if isinstance(listed, list):
            return [str(item) for item in listed]
    if ctx.result is None:
        return []
    named = re.findall(r"^--- (.+?) ---$", model_text(ctx), re.M)
    return [name for name in named if name != "End of content"]


@after_ending("the read", "Reading")
def many_render(ctx: SurfaceContext) -> RenderableType | None:
    files = _many_files(ctx)
    if not files:
        return empty_line(ctx, "No file matched: nothing was read")
    shown, hidden = kit.cap_items(files, READ_LINES)
    rows: list[RenderableType] = [
        header((f"{kit.plural(len(files), 'file')} read", ctx.palette.muted))
    ]
    rows.extend(kit.text(f"· {name}") for name in shown)
    if hidden:
        rows.append(kit.showing(len(shown), len(files), "file", ctx.palette))
    return Group(*rows)


def many_placeholder(ctx: SurfaceContext) -> RenderableType:
    return Group(pending(ctx, "reading", many_subject(ctx)), *bars(ctx, 1))


# --- writing --------------------------------------------------------------------------------


def write_inspector(ctx: SurfaceContext) -> RenderableType:
    content = arg_text(ctx, "content")
    suffix = (
        muted(ctx, f"({kit.plural(kit.line_count(content), 'line')})")
        if ctx.result is not None and ctx.error is None
        else None
    )
    return kit.status_line(
        ctx,
        "Writing",
        "Wrote",
        kit.text(path_arg(ctx)),
        suffix,
        verb_failed="Could not write",
        cut="middle",
    )


@after_ending("the write", "Writing")
def write_render(ctx: SurfaceContext) -> RenderableType | None:
    path = path_arg(ctx)
    content = arg_text(ctx, "content")
    created = state_of(ctx).get("type") == "create"
    top = path_header(
        ctx,
        path,
        (
            f" {'created' if created else 'written'} · "
            f"{kit.plural(kit.line_count(content), 'line')}",
            ctx.palette.muted,
        ),
        before=(("✓ ", ctx.palette.success),),
    )
    if not content:
        return Group(top, muted(ctx, "∅ the file is empty: nothing was written in it"))
    body = kit.code_block(
        content, kit_language(path), ctx.palette, max_lines=FILE_LINES, width=ctx.inner_width
    )
    return with_silence(ctx, top, body)


def write_placeholder(ctx: SurfaceContext) -> RenderableType:
    lines = min(FILE_LINES, kit.line_count(arg_text(ctx, "content"))) or 1
    return Group(pending(ctx, "writing", path_arg(ctx)), *bars(ctx, lines))


# --- editing: Edit, MultiEdit, replace, NotebookEdit, apply_patch ---------------------------


def _pairs(ctx: SurfaceContext) -> list[tuple[str, str]]:
    edits = ctx.list_arg("edits")
    if edits:
        return [
            (str(edit.get("old_string", "")), str(edit.get("new_string", "")))
            for edit in edits
            if isinstance(edit, dict)
        ]
    if "new_source" in ctx.args:
        return [("", arg_text(ctx, "new_source"))]
    return [(arg_text(ctx, "old_string"), arg_text(ctx, "new_string"))]


def patch_text(ctx: SurfaceContext) -> str:
    """apply_patch's input: the freeform patch, or ``{"input": patch}`` as a function call."""
    return arg_text(ctx, "input", "patch")


def diff_of(ctx: SurfaceContext) -> str:
    """The change as unified-diff lines (a patch is one already, its file lines included)."""
    patch = patch_text(ctx)
    if patch:
        return patch
    lines: list[str] = []
    for old, new in _pairs(ctx):
        diff = difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=2)
        lines.extend(line for line in diff if not line.startswith(("---", "+++")))
    return "\n".join(lines)


def _sides(ctx: SurfaceContext) -> list[RenderableType]:
    """An edit too long for one diff: what went and what came, each cut with its own count."""
    half = DIFF_LINES // 2
    rows: list[RenderableType] = []
    for old, new in _pairs(ctx)[:2]:
        for sign, text in (("-", old), ("+", new)):
            if text:
                marked = "\n".join(f"{sign}{line}" for line in text.split("\n"))
                rows.append(kit.diff_block(marked, ctx.palette, max_lines=half, wrap=False))
    return rows


def _counts(diff: str) -> tuple[int, int]:
    lines = [line for line in diff.splitlines() if not line.startswith(("+++", "---", "***"))]
    added = sum(1 for line in lines if line.startswith("+"))
    removed = sum(1 for line in lines if line.startswith("-"))
    return added, removed


def edit_subject(ctx: SurfaceContext) -> str:
    patch = patch_text(ctx)
    if patch:
        files = [name.strip() for _, name in _PATCH_FILE.findall(patch)]
        return files[0] if len(files) == 1 else kit.plural(len(files), "file")
    return path_arg(ctx)


def edit_inspector(ctx: SurfaceContext) -> RenderableType:
    suffix = None
    if ctx.result is not None and ctx.error is None:
        added, removed = _counts(diff_of(ctx))
        suffix = Text.assemble(
            (f"+{added}", ctx.palette.success), " ", (f"-{removed}", ctx.palette.error)
        )
    return kit.status_line(
        ctx,
        "Editing",
        "Edited",
        kit.text(edit_subject(ctx)),
        suffix,
        verb_failed="Could not edit",
        cut="middle",
    )


@after_ending("the edit", "Editing")
def edit_render(ctx: SurfaceContext) -> RenderableType | None:
    diff = diff_of(ctx)
    if not diff.strip():
        return empty_line(ctx, f"{edit_subject(ctx)}: the edit changed nothing")
    added, removed = _counts(diff)
    rows: list[RenderableType] = [
        path_header(ctx, edit_subject(ctx), (f" · +{added} -{removed}", ctx.palette.muted))
    ]
    patch = patch_text(ctx)
    if patch:
        names = [f"{verb.lower()} {name.strip()}" for verb, name in _PATCH_FILE.findall(patch)]
        if len(names) > 1:
            rows.append(muted(ctx, "; ".join(names)))
    if patch or kit.line_count(diff) <= DIFF_LINES:
        # A patch's lines are the tool's input, so its cut counts them as they came.
        rows.append(kit.diff_block(diff, ctx.palette, max_lines=DIFF_LINES, wrap=False))
    else:
        rows.extend(_sides(ctx))
    return with_silence(ctx, *rows)


def edit_placeholder(ctx: SurfaceContext) -> RenderableType:
    lines = min(DIFF_LINES, kit.line_count(diff_of(ctx))) or 1
    return Group(pending(ctx, "editing", edit_subject(ctx)), *bars(ctx, lines))


def notebook_inspector(ctx: SurfaceContext) -> RenderableType:
    mode = arg_text(ctx, "edit_mode") or "replace"
    cell = arg_text(ctx, "cell_id")
    subject = kit.text(path_arg(ctx))
    if cell:
        subject.append(f" cell {cell}")
    verbs: dict[str, tuple[str, str]] = {
        "insert": ("Inserting a cell in", "Inserted a cell in"),
        "delete": ("Deleting", "Deleted"),
    }
    active, done = verbs.get(mode, ("Editing", "Edited"))
    return kit.status_line(ctx, active, done, subject, verb_failed="Could not edit", cut="middle")


@after_ending("the edit", "Editing the notebook")
def notebook_render(ctx: SurfaceContext) -> RenderableType | None:
    source = arg_text(ctx, "new_source")
    kind = arg_text(ctx, "cell_type") or "code"
    top = path_header(
        ctx,
        path_arg(ctx),
        (f" · {kind} cell · {arg_text(ctx, 'edit_mode') or 'replace'}", ctx.palette.muted),
    )
    if not source.strip():
        return Group(top, muted(ctx, "∅ the cell is empty"))
    language = "markdown" if kind == "markdown" else "python"
    return with_silence(
        ctx,
        top,
        kit.code_block(source, language, ctx.palette, max_lines=FILE_LINES, width=ctx.inner_width),
    )


def image_inspector(ctx: SurfaceContext) -> RenderableType:
    return kit.status_line(
        ctx,
        "Viewing",
        "Viewed",
        kit.text(path_arg(ctx)),
        verb_failed="Could not view",
        cut="middle",
    )


@after_ending("the view", "Viewing the image")
def image_render(ctx: SurfaceContext) -> RenderableType | None:
    state: dict[str, Any] = state_of(ctx)
    size = state.get("size")
    detail = f" · {kit.human_size(int(size))}" if isinstance(size, int) else ""
    top = path_header(
        ctx, path_arg(ctx), (detail, ctx.palette.muted), before=(("▣ ", ctx.palette.muted),)
    )
    said = model_text(ctx).strip()
    # The image itself is what the model got: no text back is the usual case, not a silence.
    note = (
        f"the image went to the model, and it was told: {said.splitlines()[0]}"
        if said
        else "∅ no text came back: the image itself went to the model"
    )
    return Group(top, muted(ctx, note), muted(ctx, "a terminal card shows its name only"))
