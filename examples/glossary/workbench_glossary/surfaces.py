"""What a person sees of a glossary call: an Inspector, a Placeholder and a Render per API.

Built only from ``workbench.api``: ``kit`` keeps the tool's text literal (never markup),
shortens a line with ``…`` and says "showing N of M" for every cut; ``ctx.palette`` gives
colours that read in the dark and the light theme.
"""

from __future__ import annotations

from typing import Any

from workbench.api import (
    Group,
    RenderableType,
    SurfaceContext,
    SurfaceSet,
    Text,
    kit,
    result_render,
    result_state,
)

SEARCH_ROWS = 8
"""Terms the search Render lists before its "showing N of M" note."""


def _quoted(value: object) -> Text | None:
    return kit.text(f"“{value}”") if isinstance(value, str) and value.strip() else None


def _refusal(ctx: SurfaceContext) -> RenderableType | None:
    """A refused call: the message in a box (the Inspector above names the error type), and
    the step it stopped at."""
    if ctx.error is None:
        return None
    stage = result_state(ctx).get("stage")
    details = [kit.text(f"while trying to {stage}", ctx.palette.muted)] if stage else []
    return kit.error_box("Refused", ctx.error.message, ctx.palette, details=details)


# define ------------------------------------------------------------------------------------


def define_inspector(ctx: SurfaceContext) -> RenderableType:
    """``Looked up: “RAG” (retrieval-augmented generation)``: the term, then what it found."""
    state = result_state(ctx)
    asked = ctx.args.get("term")
    suffix = None
    if ctx.error is None and "found" in state:
        name = str(state.get("term", ""))
        if not state["found"]:
            suffix = kit.text("(not in the glossary)", ctx.palette.muted)
        elif isinstance(asked, str) and " ".join(asked.split()).casefold() != name.casefold():
            # An alias led to another entry: name it, when it fits beside the term (a cut
            # name would crowd out the term the model asked for; the Render names it anyway).
            line = f"Looked up: “{asked}” ({name})"
            if Text(line).cell_len <= ctx.inner_width:
                suffix = kit.text(f"({name})", ctx.palette.muted)
    return kit.status_line(
        ctx,
        "Looking up",
        "Looked up",
        _quoted(asked),
        suffix,
        verb_failed="Could not look up",
    )


def define_placeholder(ctx: SurfaceContext) -> RenderableType:
    """The entry's rows to come: its name, its definition, its related terms."""
    palette = ctx.palette
    width = max(8, ctx.inner_width)
    rows: list[RenderableType] = [kit.skeleton_bar(min(24, width // 3), palette)]
    # Two lines of definition: a typical entry's at 80 columns, so the card barely moves.
    rows.extend(kit.skeleton_lines([width - 4, width // 2], palette))
    rows.append(kit.text("looking it up…", f"italic {palette.muted}"))
    return Group(*rows)


@result_render("the lookup", needs="found", error_view=_refusal)
def define_render(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    """The entry: name and aliases, the definition (with a note when cut), related terms."""
    palette = ctx.palette
    if not state["found"]:
        suggestions = [str(name) for name in state.get("suggestions", [])]
        rows: list[RenderableType] = [
            kit.join(("No entry for ", ""), (f"“{state.get('term', '')}”", "bold")),
        ]
        if suggestions:
            rows.append(kit.join(("close: ", palette.muted), (" · ".join(suggestions), "")))
        else:
            rows.append(
                kit.text("search finds the terms that mention it", f"italic {palette.muted}")
            )
        return Group(*rows)
    aliases = ", ".join(str(alias) for alias in state.get("aliases", []))
    heading = kit.join(
        (str(state.get("term", "")), f"bold {palette.accent}"),
        (f"  also {aliases}", palette.muted) if aliases else None,
    )
    definition = str(state.get("definition", ""))
    length = state.get("length")
    total = length if isinstance(length, int) else len(definition)
    cut = len(definition) < total
    rows = [heading, kit.text(definition + ("…" if cut else ""))]
    if cut:
        rows.append(kit.showing(len(definition), total, "character", palette))
    see_also = [str(name) for name in state.get("see_also", [])]
    if see_also:
        rows.append(kit.join(("see also ", palette.muted), (" · ".join(see_also), "")))
    return Group(*rows)


# search ------------------------------------------------------------------------------------


def search_inspector(ctx: SurfaceContext) -> RenderableType:
    """``Searched “token” (4 terms)``: the word, then how many terms mention it."""
    total = result_state(ctx).get("total")
    suffix = None
    if ctx.error is None and isinstance(total, int):
        suffix = kit.text(f"({kit.plural(total, 'term')})", ctx.palette.muted)
    return kit.status_line(
        ctx,
        "Searching",
        "Searched",
        _quoted(ctx.args.get("query")),
        suffix,
        verb_failed="Search failed",
    )


def search_placeholder(ctx: SurfaceContext) -> RenderableType:
    """A skeleton per term to come (as many as the limit asks, up to the Render's rows)."""
    palette = ctx.palette
    limit = ctx.args.get("limit", 5)
    count = min(SEARCH_ROWS, limit if isinstance(limit, int) and limit > 0 else 5)
    name = kit.skeleton_bar(max(4, ctx.inner_width // 5), palette)
    gist = kit.skeleton_bar(max(4, ctx.inner_width // 2), palette)
    rows: list[RenderableType] = [
        kit.join(("• ", palette.muted), name, "  ", gist) for _ in range(count)
    ]
    rows.append(kit.text("searching the glossary…", f"italic {palette.muted}"))
    return Group(*rows)


@result_render("the search", error_view=_refusal)
def search_render(ctx: SurfaceContext, state: dict[str, Any]) -> RenderableType | None:
    """The terms found, one a line with the first sentence of each; cuts and misses in words."""
    palette = ctx.palette
    items = state.get("items")
    if not isinstance(items, list):
        return None
    if not items:
        return Group(
            kit.join(("No term mentions ", ""), (f"“{state.get('query', '')}”", "bold")),
            kit.text("try a shorter word, or define it by name", f"italic {palette.muted}"),
        )
    shown = items[:SEARCH_ROWS]
    names = [str(item.get("term", "")) for item in shown]
    # Names in a column (at most a third of the card), so the summaries start together.
    widest = max(Text(name).cell_len for name in names)
    column = min(widest, max(8, ctx.inner_width // 3))
    rows: list[RenderableType] = []
    for name, item in zip(names, shown, strict=True):
        short = kit.shorten(name, column)
        line = kit.join(
            ("• ", palette.muted),
            (short, f"bold {palette.accent}"),
            (" " * (column - Text(short).cell_len + 2), ""),
            (str(item.get("summary", "")), ""),
        )
        line.no_wrap = True
        line.overflow = "ellipsis"
        rows.append(line)
    total = state.get("total")
    total = total if isinstance(total, int) else len(items)
    if len(shown) < total:
        rows.append(kit.returned_note(len(shown), len(items), total, "term", palette))
    return Group(*rows)


SURFACES = SurfaceSet(
    inspectors={"define": define_inspector, "search": search_inspector},
    placeholders={"define": define_placeholder, "search": search_placeholder},
    renders={"define": define_render, "search": search_render},
)
