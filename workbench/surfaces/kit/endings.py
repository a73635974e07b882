"""Phase wording: the Inspector's status line and how a call that did not finish says so."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from workbench.core.call_state import Phase
from workbench.core.result import ErrorType, ToolError
from workbench.core.sanitize import plain
from workbench.surfaces.context import SurfaceContext
from workbench.surfaces.kit.cutting import shorten_text
from workbench.surfaces.kit.progress import spinner
from workbench.surfaces.kit.wording import join, seconds, text

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
            shown = shorten_text(shown, max(1, room), cut)
        shown.stylize(palette.subject)
        line.append(": ")
        line.append_text(shown)
    line.append_text(tail)
    return line


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
