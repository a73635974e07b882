"""Interventions: what the agent asked its user to approve, as its own permission prompt
shows it — the exact command with its description and folder, the diff of an edit, the whole
content of a write, the URL of a fetch, the plan, the questions.

An imported call reaches this phase when its user denied it (the call ends skipped), or when
the session recorded the request (ACP's ``session/request_permission``).
"""

from __future__ import annotations

from workbench.agents.surfaces.common import (
    CWD_ARGS,
    arg_text,
    labelled,
    listed,
    muted,
    path_arg,
    scope_table,
    urls_in,
)
from workbench.agents.surfaces.files import DIFF_LINES, diff_of, edit_subject, kit_language
from workbench.agents.surfaces.plans import questions_of
from workbench.agents.surfaces.shell import command_of
from workbench.api import Group, RenderableType, SurfaceContext, kit

COMMAND_LINES = 12
CONTENT_LINES = 14
PLAN_LINES = 16
URLS = 12
QUESTIONS = 8
OPTIONS = 12


def _asking(ctx: SurfaceContext, question: str, rows: list[RenderableType]) -> RenderableType:
    """Why it asks (the policy's or the agent's reason), what it would do, then the question
    the user answered, last, as the agents' own prompts end."""
    approval = ctx.state.approval
    reason = approval.reason if approval is not None and approval.reason else ""
    why = kit.join(
        ("Approval needed", f"bold {ctx.palette.warning}"),
        (f" · {reason}" if reason else "", ctx.palette.muted),
    )
    return Group(why, *rows, kit.text(question, "bold"))


def shell(ctx: SurfaceContext) -> RenderableType:
    """The command (a one-line command whole, it wraps; a script its first ``COMMAND_LINES``
    lines and "showing N of M": the Portal shows it all), what it is for, where it runs and
    what else it asks for (the background, leaving the sandbox)."""
    palette = ctx.palette
    rows: list[RenderableType] = []
    description = arg_text(ctx, "description", "justification")
    if description:
        rows.append(kit.text(description, "italic"))
    command = command_of(ctx)
    rows.append(
        kit.join(("$ ", palette.muted), kit.text(command, "bold"))
        if kit.line_count(command) <= 1
        else kit.capped_text(command, palette, max_lines=COMMAND_LINES, style="bold")
    )
    escalated = ctx.args.get("with_escalated_permissions") is True or (
        arg_text(ctx, "sandbox_permissions") == "require_escalated"
    )
    timeout = ctx.args.get("timeout_ms", ctx.args.get("timeout"))
    scope = scope_table(
        ctx,
        [
            ("runs in", arg_text(ctx, *CWD_ARGS) or "the session's folder"),
            (
                "stopped after",
                kit.seconds(timeout) if isinstance(timeout, (int, float)) else "",
            ),
            (
                "in the background",
                "yes" if ctx.args.get("run_in_background") or ctx.args.get("is_background") else "",
            ),
            ("sandbox", "runs outside it" if escalated else ""),
        ],
    )
    if scope is not None:
        rows.append(scope)
    return _asking(ctx, "Run this command?", rows)


def write(ctx: SurfaceContext) -> RenderableType:
    """The file and everything that will be in it."""
    palette = ctx.palette
    path = path_arg(ctx)
    content = arg_text(ctx, "content")
    rows: list[RenderableType] = []
    rows.append(
        kit.join(
            kit.text(path, "bold"),
            (
                f" · {kit.plural(kit.line_count(content), 'line')} · replaces the whole file "
                "if it exists",
                palette.muted,
            ),
        )
    )
    rows.append(
        kit.code_block(content, kit_language(path), palette, max_lines=CONTENT_LINES)
        if content
        else muted(ctx, "∅ the content is empty: the file would be left with no lines")
    )
    return _asking(ctx, "Write this file?", rows)


def edit(ctx: SurfaceContext) -> RenderableType:
    """The diff the agent proposed (a patch as it came), and how many places it touches."""
    palette = ctx.palette
    rows: list[RenderableType] = []
    every = ctx.args.get("replace_all") or ctx.args.get("allow_multiple")
    scope = "every occurrence" if every else "one exact occurrence"
    if arg_text(ctx, "input", "patch"):
        scope = "as the patch says"
    rows.append(kit.join(kit.text(edit_subject(ctx), "bold"), (f" · {scope}", palette.muted)))
    instruction = arg_text(ctx, "instruction")
    if instruction:
        rows.append(kit.text(instruction, "italic"))
    diff = diff_of(ctx)
    rows.append(
        kit.diff_block(diff, palette, max_lines=DIFF_LINES * 2)
        if diff.strip()
        else muted(ctx, "∅ the edit changes nothing")
    )
    return _asking(ctx, "Make this edit?", rows)


def notebook(ctx: SurfaceContext) -> RenderableType:
    palette = ctx.palette
    mode = arg_text(ctx, "edit_mode") or "replace"
    cell = arg_text(ctx, "cell_id")
    rows: list[RenderableType] = []
    rows.append(
        kit.join(
            kit.text(path_arg(ctx), "bold"),
            (f" · {mode} {'cell ' + cell if cell else 'a cell'}", palette.muted),
        )
    )
    source = arg_text(ctx, "new_source")
    if mode != "delete":
        rows.append(
            kit.code_block(source, "python", palette, max_lines=CONTENT_LINES)
            if source.strip()
            else muted(ctx, "∅ the cell would be empty")
        )
    return _asking(ctx, "Edit this notebook?", rows)


def fetch(ctx: SurfaceContext) -> RenderableType:
    """Every URL the call would open, whole (gemini-cli's are inside its prompt)."""
    rows: list[RenderableType] = []
    url = arg_text(ctx, "url")
    prompt = arg_text(ctx, "prompt")
    urls = [url] if url else urls_in(prompt)
    shown, _ = kit.cap_items(urls, URLS)
    rows.extend(kit.join(("→ ", ctx.palette.muted), kit.text(item, "bold")) for item in shown)
    if len(urls) > len(shown):
        rows.append(kit.showing(len(shown), len(urls), "URL", ctx.palette))
    if prompt:
        rows.extend(labelled(ctx, "asks: ", prompt, max_lines=PLAN_LINES))
    elif not urls:
        rows.append(muted(ctx, "∅ no URL was given"))
    return _asking(ctx, "Fetch this page?", rows)


def plan(ctx: SurfaceContext) -> RenderableType:
    """The plan the agent wants to carry out, as it wrote it."""
    rows: list[RenderableType] = []
    text = arg_text(ctx, "plan")
    rows.append(
        kit.capped_text(text, ctx.palette, max_lines=PLAN_LINES)
        if text.strip()
        else muted(ctx, "∅ the plan is empty")
    )
    return _asking(ctx, "Leave plan mode and carry out this plan?", rows)


def ask(ctx: SurfaceContext) -> RenderableType:
    questions = questions_of(ctx)
    asked = "Answer this question?" if len(questions) == 1 else "Answer these questions?"
    return _asking(ctx, asked, question_rows(ctx))


def question_rows(
    ctx: SurfaceContext, *, questions_shown: int = QUESTIONS, options_shown: int = OPTIONS
) -> list[RenderableType]:
    """Each question with its numbered answers and what each means, up to the caps given."""
    palette = ctx.palette
    questions = questions_of(ctx)
    if not questions:
        return [muted(ctx, "∅ no question was given")]
    rows: list[RenderableType] = []
    for question in kit.cap_items(questions, questions_shown)[0]:
        title = kit.text(str(question.get("question", "")), "bold")
        label = str(question.get("header", ""))
        rows.append(kit.join(("? ", palette.accent), (f"[{label}] " if label else "", ""), title))
        options = [item for item in listed(question.get("options")) if isinstance(item, dict)]
        for number, option in enumerate(kit.cap_items(options, options_shown)[0], 1):
            meaning = str(option.get("description", ""))
            rows.append(
                kit.join(
                    (f"  {number}. ", palette.muted),
                    kit.text(str(option.get("label", ""))),
                    (f" — {meaning}" if meaning else "", palette.muted),
                )
            )
        if len(options) > options_shown:
            rows.append(kit.showing(options_shown, len(options), "answer", palette))
        if question.get("multiSelect") is True:
            rows.append(muted(ctx, "  several answers may be chosen"))
    if len(questions) > questions_shown:
        rows.append(kit.showing(questions_shown, len(questions), "question", palette))
    return rows
