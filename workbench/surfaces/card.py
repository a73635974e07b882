"""Compose a tool card: the Inspector line on top, then the surface the phase calls for.

The card is one Rich renderable, so the TUI, ``workbench show`` and the snapshots all draw
exactly the same thing.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from workbench.core.call_state import Phase
from workbench.core.sanitize import clean
from workbench.surfaces import kit
from workbench.surfaces.boundary import run_surface
from workbench.surfaces.context import SurfaceContext
from workbench.surfaces.registry import (
    GENERIC_SURFACES,
    ResolvedSurface,
    SurfaceKind,
    SurfaceRegistry,
)
from workbench.surfaces.server_requests import input_request

PHASE_SURFACE: dict[Phase, SurfaceKind | None] = {
    Phase.ARGS_STREAMING: None,
    Phase.AWAITING_APPROVAL: SurfaceKind.INTERVENTION,
    Phase.AWAITING_INPUT: SurfaceKind.INTERVENTION,
    Phase.EXECUTING: SurfaceKind.PLACEHOLDER,
    Phase.STREAMING_OUTPUT: SurfaceKind.STREAMING,
}


ARGS_PREVIEW_ROWS = 6
FAILURE_PHASES = frozenset({Phase.FAILED, Phase.TIMED_OUT})
"""Endings that are the tool's failure (a skip, a cancel or a block is someone's choice)."""


def surface_kind_for(phase: Phase) -> SurfaceKind | None:
    """Which surface fills the card body in ``phase`` (``None``: args are still streaming)."""
    if phase.is_terminal:
        return SurfaceKind.RENDER
    return PHASE_SURFACE[phase]


@dataclass(frozen=True)
class CardView:
    """What the card shows, and where it came from (for coverage and the status bar)."""

    inspector: RenderableType
    body: RenderableType | None
    body_kind: SurfaceKind | None
    body_fallback: bool
    folded: bool = False
    """The body is the Render's one summary line, not the Render (``renderDisplayControl``)."""


def can_fold(ctx: SurfaceContext) -> bool:
    """Whether a person may fold this card to its Inspector and one summary line.

    Only a result that arrived (``done``) folds, and only when the API's manifest does not say
    ``alwaysExpand``: an approval, a question, a run in progress, an error, a timeout, a skip,
    a cancel or a block always shows what matters in full.
    """
    api = ctx.api
    control = api.render_display_control if api is not None else "expand"
    return ctx.phase is Phase.DONE and control != "alwaysExpand"


def starts_folded(ctx: SurfaceContext) -> bool:
    """The card's first look is folded: it can fold and the manifest says ``collapsed``."""
    api = ctx.api
    return can_fold(ctx) and api is not None and api.render_display_control == "collapsed"


_CUT_NOTE = re.compile(r"\bshowing [0-9][0-9,]* of [0-9][0-9,]*")
FOLD_MARK = "▸ "
MIN_HEADLINE = 12
"""Cells the Render's headline needs beside its cut note; with less room the note is the line
(the cut is what a folded card must not hide; the Inspector above already names the object)."""


def _render_rows(body: RenderableType, width: int) -> list[Text]:
    """``body`` drawn ``width`` cells wide, one ``Text`` per non-blank row (styles kept)."""
    console = Console(
        width=width,
        file=io.StringIO(),
        color_system="truecolor",
        force_terminal=True,
        legacy_windows=False,
        markup=False,
        emoji=False,
        highlight=False,
        _environ={},
    )
    rows: list[Text] = []
    for line in console.render_lines(body, console.options.update_width(width), pad=False):
        row = Text.assemble(*((seg.text, seg.style or "") for seg in line if not seg.control))
        row.rstrip()
        if row.plain.strip():
            rows.append(row)
    return rows


def summary_line(body: RenderableType, ctx: SurfaceContext) -> Text | None:
    """The folded card's one line: the Render's own headline (its first row, where every
    bundled Render states the outcome: counts, sizes, status), and the Render's cut note
    ("showing N of M") when it has one, kept whole while the headline is shortened (or left
    out when the note leaves it no room).

    Both come from what the Render draws, so the folded card never says more, or other,
    than the open one. ``None`` when the Render is one row already: folding would hide nothing.
    """
    width = ctx.inner_width - len(FOLD_MARK)
    rows = _render_rows(body, width)
    if len(rows) <= 1:
        return None
    line = Text(FOLD_MARK, style=ctx.palette.muted)
    headline = rows[0]
    cut = next((row for row in rows[1:] if _CUT_NOTE.search(row.plain)), None)
    if cut is not None:
        note = Text(" · ", style=ctx.palette.muted) + cut
        room = width - note.cell_len
        if room >= MIN_HEADLINE:
            headline.truncate(room, overflow="ellipsis")
            line.append_text(headline)
            line.append_text(note)
            return line
        headline = cut
    headline.truncate(width, overflow="ellipsis")
    line.append_text(headline)
    return line


def _resolve_body(
    ctx: SurfaceContext, registry: SurfaceRegistry, kind: SurfaceKind
) -> tuple[RenderableType | None, bool]:
    resolved = registry.resolve(ctx.tool, ctx.api_name, kind)
    body = run_surface(resolved, ctx)
    if body is None and not resolved.fallback:
        # The tool's surface has nothing to draw yet: the generic one still shows the state.
        body = run_surface(ResolvedSurface(GENERIC_SURFACES[kind], kind, fallback=True), ctx)
        return body, True
    return body, resolved.fallback


def args_preview(ctx: SurfaceContext) -> RenderableType:
    """The card body while the model is still writing the arguments.

    The arguments so far, one per line and shortened: enough to see where the call is
    going (the raw text and the parsed JSON are in the details pane).
    """
    palette = ctx.palette
    raw = ctx.state.raw_args
    line = Text(
        f"{kit.spinner(ctx.frame)} receiving arguments · {kit.plural(len(raw), 'character')}",
        style=f"italic {palette.muted}",
    )
    args = ctx.state.partial_args
    if not args:
        return line
    return Group(line, kit.args_table(args, palette, ctx.inner_width, limit=ARGS_PREVIEW_ROWS))


def inspector_renderable(ctx: SurfaceContext, registry: SurfaceRegistry) -> RenderableType:
    """The Inspector line (the tool's, or the generic one when it has none or draws nothing)."""
    inspector_surface = registry.resolve(ctx.tool, ctx.api_name, SurfaceKind.INSPECTOR)
    inspector = run_surface(inspector_surface, ctx)
    if inspector is None:
        inspector = run_surface(
            ResolvedSurface(GENERIC_SURFACES[SurfaceKind.INSPECTOR], SurfaceKind.INSPECTOR, True),
            ctx,
        )
    return inspector or Text("")


def compose_card(
    ctx: SurfaceContext, registry: SurfaceRegistry, *, expanded: bool | None = None
) -> CardView:
    """The card's parts in ``ctx.phase``.

    ``expanded`` opens (``True``) or folds (``False``) a card that can fold (:func:`can_fold`);
    ``None`` takes the first look the API's ``renderDisplayControl`` asks for.
    """
    inspector = inspector_renderable(ctx, registry)
    kind = surface_kind_for(ctx.phase)
    if kind is None:
        return CardView(inspector, args_preview(ctx), None, True)
    if ctx.phase is Phase.AWAITING_INPUT:
        # The server's request, not the tool's approval: every tool shows it the same way.
        surface = ResolvedSurface(input_request, SurfaceKind.INTERVENTION, fallback=True)
        return CardView(inspector, run_surface(surface, ctx), kind, True)
    body, fallback = _resolve_body(ctx, registry, kind)
    folded = can_fold(ctx) and (not expanded if expanded is not None else starts_folded(ctx))
    summary = summary_line(body, ctx) if folded and body is not None else None
    if summary is not None:
        return CardView(inspector, summary, kind, fallback, folded=True)
    return CardView(inspector, body, kind, fallback)


def phase_label(ctx: SurfaceContext) -> Text:
    palette = ctx.palette
    phase = ctx.phase
    color = {
        Phase.DONE: palette.success,
        Phase.FAILED: palette.error,
        Phase.TIMED_OUT: palette.error,
        Phase.BLOCKED: palette.warning,
        Phase.CANCELLED: palette.warning,
        Phase.SKIPPED: palette.warning,
        Phase.AWAITING_APPROVAL: palette.warning,
        Phase.AWAITING_INPUT: palette.warning,
    }.get(phase, palette.accent)
    label = Text(f" {phase.value}", style=color)
    run_ms = ctx.state.timings.run_ms
    if run_ms is not None:
        label.append(f" · {run_ms:,} ms", style=palette.muted)
    label.append(" ")
    return label


def card_renderable(
    ctx: SurfaceContext,
    registry: SurfaceRegistry,
    *,
    view: CardView | None = None,
    expanded: bool | None = None,
) -> Panel:
    """The whole tool card as one renderable, ``ctx.width`` columns wide (``expanded`` as in
    :func:`compose_card`)."""
    view = view or compose_card(ctx, registry, expanded=expanded)
    palette = ctx.palette
    parts: list[RenderableType] = [view.inspector]
    if view.body is not None:
        parts.append(Rule(style=palette.divider, characters="─"))
        parts.append(view.body)
    title = Text(f" {clean(ctx.emoji)} {clean(ctx.title)} ", style="bold")
    title.append_text(kit.text(f"· {ctx.api_name} ", palette.muted))
    api = ctx.api
    if api is not None and api.ui is not None:
        # MCP Apps: a UI host would draw this tool's own UI; the terminal shows its fallback.
        title.append("· has an app UI ", style=palette.accent)
    # Rich crops a title that does not fit the frame (corners, rules and its own padding: 6
    # columns) without a mark: it ends in "…" instead.
    title.truncate(max(1, ctx.width - 6), overflow="ellipsis")
    # Only a failure is drawn in the error colour: a skip, a cancel or a block is not one.
    border = palette.error if ctx.phase in FAILURE_PHASES else palette.primary
    return Panel(
        Group(*parts),
        title=title,
        title_align="left",
        subtitle=phase_label(ctx),
        subtitle_align="right",
        border_style=border,
        width=ctx.width,
        padding=(0, 1),
    )


def portal_renderable(ctx: SurfaceContext, registry: SurfaceRegistry) -> RenderableType:
    """The tool's Portal (or the generic one) for the current call."""
    resolved = registry.resolve(ctx.tool, ctx.api_name, SurfaceKind.PORTAL)
    body = run_surface(resolved, ctx)
    if body is None:
        body = run_surface(
            ResolvedSurface(GENERIC_SURFACES[SurfaceKind.PORTAL], SurfaceKind.PORTAL, True), ctx
        )
    return body or Text("")
