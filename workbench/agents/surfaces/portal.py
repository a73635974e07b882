"""The Portal of an agent's tool: the full view of one call, where the card shows a preview.

The whole output of a command, the file read with its line numbers, the whole diff, every
item of a todo list, every call a subagent made and its whole report; each capped with
"showing N of M" where a terminal would choke on more.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from workbench.agents.surfaces import approvals, files, plans, search, shell, task, web
from workbench.agents.surfaces.common import (
    CWD_ARGS,
    arg_text,
    error_view,
    exit_code_of,
    header,
    labelled,
    model_text,
    muted,
    path_arg,
    scope_table,
)
from workbench.api import Group, RenderableType, SurfaceContext, kit

LINES = 400
ROWS = 200

Body = Callable[[SurfaceContext], list[RenderableType]]


def _text(ctx: SurfaceContext, value: str, *, ansi: bool = False) -> RenderableType:
    return kit.capped_text(value, ctx.palette, max_lines=LINES, ansi=ansi)


def _result(ctx: SurfaceContext, title: str, value: str, empty: str) -> list[RenderableType]:
    if ctx.result is None:
        return []
    rows: list[RenderableType] = [muted(ctx, title)]
    rows.append(_text(ctx, value) if value.strip() else muted(ctx, f"∅ {empty}"))
    return rows


def _shell(ctx: SurfaceContext) -> list[RenderableType]:
    rows = labelled(ctx, "$ ", shell.command_of(ctx), max_lines=LINES, style="bold")
    code = exit_code_of(ctx) if ctx.result is not None else None
    scope = scope_table(
        ctx,
        [
            ("what for", arg_text(ctx, "description", "justification")),
            ("ran in", arg_text(ctx, *CWD_ARGS)),
            ("exit code", str(code) if code is not None else ""),
        ],
    )
    if scope is not None:
        rows.append(scope)
    if ctx.result is not None:
        printed = shell.printed_text(ctx)
        rows.append(muted(ctx, "output"))
        rows.append(
            _text(ctx, printed, ansi=True) if printed.strip() else muted(ctx, "∅ printed nothing")
        )
    return rows


def _shell_output(ctx: SurfaceContext) -> list[RenderableType]:
    rows: list[RenderableType] = [header(kit.text(f"shell {shell.shell_id(ctx)}", "bold"))]
    return rows + _result(ctx, "output", shell.printed_text(ctx), "it printed nothing new")


def _read(ctx: SurfaceContext) -> list[RenderableType]:
    path = path_arg(ctx)
    rows: list[RenderableType] = [header(kit.text(path, "bold"))]
    if ctx.result is None:
        return rows
    text = files.file_text(ctx)
    if not text.strip():
        return [*rows, muted(ctx, f"∅ {path} is empty: it has no lines")]
    span = files.line_range(ctx)
    start = span[0] if span is not None else 1
    total = span[2] if span is not None else None
    rows.append(
        kit.code_block(
            text,
            files.kit_language(path),
            ctx.palette,
            max_lines=LINES,
            start_line=start,
            total_lines=total,
        )
    )
    return rows


def _read_many(ctx: SurfaceContext) -> list[RenderableType]:
    rows: list[RenderableType] = [header(kit.text(files.many_subject(ctx), "bold"))]
    return rows + _result(ctx, "what the model read", model_text(ctx), "no file matched")


def _write(ctx: SurfaceContext) -> list[RenderableType]:
    path = path_arg(ctx)
    content = arg_text(ctx, "content")
    rows: list[RenderableType] = [
        header(
            kit.text(path, "bold"),
            (f" · {kit.plural(kit.line_count(content), 'line')}", ctx.palette.muted),
        )
    ]
    rows.append(
        kit.code_block(content, files.kit_language(path), ctx.palette, max_lines=LINES)
        if content
        else muted(ctx, "∅ the file is empty: nothing was written in it")
    )
    return rows + _result(ctx, "the agent's answer", model_text(ctx), "no text came back")


def _edit(ctx: SurfaceContext) -> list[RenderableType]:
    diff = files.diff_of(ctx)
    rows: list[RenderableType] = [header(kit.text(files.edit_subject(ctx), "bold"))]
    rows.append(
        kit.diff_block(diff, ctx.palette, max_lines=LINES)
        if diff.strip()
        else muted(ctx, "∅ the edit changes nothing")
    )
    return rows + _result(ctx, "the agent's answer", model_text(ctx), "no text came back")


def _notebook(ctx: SurfaceContext) -> list[RenderableType]:
    source = arg_text(ctx, "new_source")
    rows: list[RenderableType] = [header(kit.text(path_arg(ctx), "bold"))]
    rows.append(
        kit.code_block(source, "python", ctx.palette, max_lines=LINES)
        if source.strip()
        else muted(ctx, "∅ the cell is empty")
    )
    return rows


def _found(ctx: SurfaceContext, unit: str) -> list[RenderableType]:
    """Every row found, and "showing N of M" in the card's unit with the card's total (a
    search cut at its limit counted more than it listed)."""
    subject = search.grep_subject(ctx) if arg_text(ctx, "pattern") else path_arg(ctx)
    rows: list[RenderableType] = [header(kit.text(subject, "bold"))]
    if ctx.result is None:
        return rows
    found = search.rows_of(ctx)
    if not found:
        return [*rows, muted(ctx, "∅ nothing was found")]
    total = search.found_total(ctx, unit)
    shown, _ = kit.cap_items(found, ROWS)
    rows.extend(kit.text(line) for line in shown)
    if total > len(shown):
        rows.append(kit.showing(len(shown), total, unit, ctx.palette))
    return rows


def _grep(ctx: SurfaceContext) -> list[RenderableType]:
    return _found(ctx, search.grep_unit(ctx))


def _glob(ctx: SurfaceContext) -> list[RenderableType]:
    return _found(ctx, search.GLOB_UNIT)


def _list(ctx: SurfaceContext) -> list[RenderableType]:
    return _found(ctx, search.LIST_UNIT)


def _fetch(ctx: SurfaceContext) -> list[RenderableType]:
    rows: list[RenderableType] = [header(kit.text(web.url_of(ctx), "bold"))]
    prompt = arg_text(ctx, "prompt")
    if prompt:
        rows.append(kit.join(("asked: ", ctx.palette.muted), kit.text(prompt)))
    return rows + _result(ctx, "what the model read", model_text(ctx), "the page gave no text")


def _web_search(ctx: SurfaceContext) -> list[RenderableType]:
    rows: list[RenderableType] = [header(kit.text(arg_text(ctx, "query"), "bold"))]
    if ctx.result is not None and web.unrecorded(ctx):
        # As the card says: no results recorded is no sign that nothing was found.
        said = web.search_render(ctx)
        return [*rows, said] if said is not None else rows
    return rows + _result(ctx, "what the model read", model_text(ctx), "no results")


def _todo(ctx: SurfaceContext) -> list[RenderableType]:
    rows: list[RenderableType] = []
    explanation = arg_text(ctx, "explanation")
    if explanation:
        rows.append(kit.text(explanation, "italic"))
    rows.extend(plans.item_rows(ctx, ROWS))
    return rows


def _plan(ctx: SurfaceContext) -> list[RenderableType]:
    text = arg_text(ctx, "plan")
    rows: list[RenderableType] = [
        _text(ctx, text) if text.strip() else muted(ctx, "∅ the plan is empty")
    ]
    return rows + _result(ctx, "the user's answer", model_text(ctx), "no answer came back")


def _ask(ctx: SurfaceContext) -> list[RenderableType]:
    rows = approvals.question_rows(ctx, questions_shown=ROWS, options_shown=ROWS)
    return rows + _result(ctx, "the user's answer", model_text(ctx), "no answer came back")


def _memory(ctx: SurfaceContext) -> list[RenderableType]:
    return [_text(ctx, arg_text(ctx, "fact") or "(no fact)")]


def _image(ctx: SurfaceContext) -> list[RenderableType]:
    return [
        header(kit.text(path_arg(ctx), "bold")),
        muted(ctx, "the image went to the model; a terminal shows its name only"),
    ]


def _task(ctx: SurfaceContext) -> list[RenderableType]:
    rows: list[RenderableType] = [header(task.subject(ctx))]
    rows.extend(labelled(ctx, "prompt: ", arg_text(ctx, "prompt"), max_lines=LINES))
    if ctx.result is not None:
        total = task.call_count(ctx)
        if total:
            rows.append(muted(ctx, f"{kit.plural(total, 'call')} the subagent made"))
        rows.extend(task.call_rows(ctx, ROWS))
    return rows + _result(ctx, "its report", model_text(ctx), "the subagent reported nothing")


BODIES: dict[str, Body] = {
    "shell": _shell,
    "shell-output": _shell_output,
    "shell-kill": _shell_output,
    "read": _read,
    "read-many": _read_many,
    "write": _write,
    "edit": _edit,
    "notebook": _notebook,
    "image": _image,
    "grep": _grep,
    "glob": _glob,
    "list": _list,
    "fetch": _fetch,
    "web-search": _web_search,
    "todo": _todo,
    "plan": _plan,
    "ask": _ask,
    "memory": _memory,
    "task": _task,
}
"""Each family's full view."""


def portal_for(families: Mapping[str, str]) -> Callable[[SurfaceContext], RenderableType]:
    """The Portal of a tool whose API ``name`` is of family ``families[name]``: a title,
    how the call ended when it did not finish (or its error), then the family's full view."""

    def portal(ctx: SurfaceContext) -> RenderableType:
        title = kit.join((f"{ctx.emoji} {ctx.title}", "bold"), (f" · {ctx.api_name}", ""))
        rows: list[RenderableType] = [title]
        ending = kit.portal_ending(ctx)
        if ending is not None:
            rows.append(ending)
        else:
            failed = error_view(ctx, ctx.api_name)
            if failed is not None:
                rows.append(failed)
        body = BODIES.get(families.get(ctx.api_name, ""))
        if body is not None:
            rows.extend(body(ctx))
        return Group(*rows)

    return portal
