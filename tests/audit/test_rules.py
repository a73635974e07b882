"""Each audit rule catches a surface that breaks its principle and passes one that keeps it."""

from __future__ import annotations

from pathlib import Path

from rich.console import Group, RenderableType
from rich.text import Text

from tests.audit.helpers import audit, messages, variant
from workbench.core.manifest import ToolUi
from workbench.surfaces import kit
from workbench.surfaces.context import SurfaceContext
from workbench.surfaces.registry import SurfaceSet

LONG_QUERY = "how do I cancel an asyncio task that is stuck waiting on a socket read"
ITEMS = [{"name": f"item {index}"} for index in range(10)]


def good_inspector(ctx: SurfaceContext) -> RenderableType:
    state = ctx.result_state if isinstance(ctx.result_state, dict) else {}
    suffix = None
    if ctx.error is None and "items" in state:
        suffix = Text(f"({kit.plural(len(state['items']), 'item')})", style=ctx.palette.muted)
    return kit.status_line(
        ctx, "Looking up", "Looked up", kit.text(ctx.args.get("query", "")), suffix
    )


def item_list(ctx: SurfaceContext) -> RenderableType | None:
    notice = kit.ending_notice(ctx)
    if notice is not None:
        return notice
    state = ctx.result_state if isinstance(ctx.result_state, dict) else {}
    items = state.get("items")
    if not isinstance(items, list):
        return None
    if not items:
        return Text("∅ nothing matches this query", style=ctx.palette.muted)
    total = int(state.get("total", len(items)))
    rows: list[RenderableType] = [kit.text(kit.plural(total, "item"), "bold")]
    rows.extend(kit.text(f"· {item['name']}") for item in items[:3])
    note = kit.returned_note(min(3, len(items)), len(items), total, "item", ctx.palette)
    if note.plain:
        rows.append(note)
    return Group(*rows)


def good_placeholder(ctx: SurfaceContext) -> RenderableType:
    return Group(
        Text(f"{kit.spinner(ctx.frame)} looking up", style=ctx.palette.muted),
        *kit.skeleton_lines([20, 30, 25, 18], ctx.palette),
    )


GOOD = SurfaceSet(
    inspectors={"lookup": good_inspector},
    renders={"lookup": item_list},
    placeholders={"lookup": good_placeholder},
)


def surfaces(**overrides: object) -> SurfaceSet:
    """The good surfaces with some replaced by bad ones."""
    kinds = {
        "inspector": GOOD.inspectors,
        "render": GOOD.renders,
        "placeholder": GOOD.placeholders,
        "streaming": {},
    }
    chosen = {kind: dict(table) for kind, table in kinds.items()}
    for kind, surface in overrides.items():
        chosen[kind] = {"lookup": surface}
    return SurfaceSet(
        inspectors=chosen["inspector"],
        renders=chosen["render"],
        placeholders=chosen["placeholder"],
        streamings=chosen["streaming"],
    )


TYPICAL = variant(state={"items": ITEMS[:3], "total": 3})


# --- rule 13: contrast -------------------------------------------------------------------------


def test_contrast_catches_a_fixed_grey_and_a_faint_rule(tmp_path: Path) -> None:
    def render(ctx: SurfaceContext) -> RenderableType:
        return Group(Text("3 items found", style="#777777"), Text("─" * 20, style="#333333"))

    found = messages(audit(tmp_path, surfaces(render=render), [TYPICAL], rule="contrast"))
    assert any(
        "text “3 items found” is #777777 on #e0e0e0, 3.39:1 (needs 4.5:1 in the light theme)"
        in line
        for line in found
    ), found
    assert any("mark “────" in line and "#333333 on #121212" in line for line in found), found
    assert all("ctx.palette colour" in line for line in found)


def test_contrast_passes_the_palette_in_both_themes(tmp_path: Path) -> None:
    def render(ctx: SurfaceContext) -> RenderableType:
        palette = ctx.palette
        roles = ("primary", "accent", "success", "warning", "error", "muted")
        return Group(*(Text(role, style=getattr(palette, role)) for role in roles))

    assert audit(tmp_path, surfaces(render=render), [TYPICAL], rule="contrast") == []


def test_contrast_reads_the_background_a_segment_is_drawn_on(tmp_path: Path) -> None:
    def render(ctx: SurfaceContext) -> RenderableType:
        return Text("highlighted", style=f"{ctx.palette.foreground} on #888888")

    found = messages(audit(tmp_path, surfaces(render=render), [TYPICAL], rule="contrast"))
    assert found and all("drop the background #888888" in line for line in found)


# --- rule 1: status survives narrowing ------------------------------------------------------


def test_a_status_cut_at_the_end_is_caught(tmp_path: Path) -> None:
    def inspector(ctx: SurfaceContext) -> RenderableType:
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append("Looked up: ")
        line.append(str(ctx.args.get("query", "")), style=ctx.palette.subject)
        if ctx.result is not None:
            line.append(" ✗ LookupTimedOut", style=ctx.palette.error)
        return line

    bad = variant(
        query=LONG_QUERY,
        kind="error",
        success=False,
        state={},
        error={"type": "LookupTimedOut", "message": "the index did not answer"},
    )
    found = messages(
        audit(tmp_path, surfaces(inspector=inspector), [bad], rule="status-survives-narrowing")
    )
    assert found and found[0].startswith(
        "failed 60 dark: rule 1 (status-survives-narrowing): the status “✗ LookupTimedOut” is cut"
    ), found


def test_kit_status_line_shortens_the_subject_and_keeps_the_status(tmp_path: Path) -> None:
    long = variant(query=LONG_QUERY, state={"items": ITEMS[:2], "total": 2})
    assert audit(tmp_path, GOOD, [long], rule="status-survives-narrowing") == []


# --- rule 2 and 3: one line, never blank ------------------------------------------------------


def test_a_wrapping_or_blank_inspector_is_caught(tmp_path: Path) -> None:
    def wrapping(ctx: SurfaceContext) -> RenderableType:
        return Text(f"Looking up {ctx.args.get('query', '')} " * 3)

    found = audit(tmp_path, surfaces(inspector=wrapping), [TYPICAL], rule="inspector-one-line")
    assert found and "the Inspector takes 2 lines" in found[0].problem

    def blank(ctx: SurfaceContext) -> RenderableType:
        return Text("")

    found = audit(tmp_path, surfaces(inspector=blank), [TYPICAL], rule="inspector-never-blank")
    phases = {finding.key.phase.value for finding in found}
    assert phases == {"args-streaming", "executing", "done"}
    assert audit(tmp_path, GOOD, [TYPICAL], rule="inspector-one-line") == []
    assert audit(tmp_path, GOOD, [TYPICAL], rule="inspector-never-blank") == []


# --- rule 4: wording follows the phase ----------------------------------------------------------


def test_a_completed_verb_before_the_ending_is_caught(tmp_path: Path) -> None:
    def inspector(ctx: SurfaceContext) -> RenderableType:
        return Text(f"Looked up: {ctx.args.get('query', '')}", no_wrap=True)

    found = messages(
        audit(tmp_path, surfaces(inspector=inspector), [TYPICAL], rule="wording-follows-phase")
    )
    assert any(
        "executing 120 dark: rule 4 (wording-follows-phase): the Inspector says “Looked” while "
        "the call is executing" in line
        for line in found
    ), found


def test_called_on_a_cancelled_call_and_a_red_skip_are_caught(tmp_path: Path) -> None:
    def inspector(ctx: SurfaceContext) -> RenderableType:
        return Text(f"Called lookup: {ctx.args.get('query', '')}", no_wrap=True)

    def render(ctx: SurfaceContext) -> RenderableType:
        message = ctx.error.message if ctx.error else ""
        return kit.error_box(f"✗ {ctx.error.type if ctx.error else ''}", message, ctx.palette)

    cancelled = variant(
        "stopped",
        kind="cancel",
        success=False,
        outcome="cancelled",
        error={"type": "Cancelled", "message": "cancelled by the user"},
    )
    skipped = variant(
        "declined",
        kind="skip",
        success=False,
        outcome="skipped",
        error={"type": "SkippedByUser", "message": "The user skipped demo.lookup: not now"},
    )
    found = messages(
        audit(
            tmp_path,
            surfaces(inspector=inspector, render=render),
            [cancelled, skipped],
            rule="wording-follows-phase",
        )
    )
    assert any("the Inspector says “Called” on a call that was cancelled" in line for line in found)
    assert any("a skipped call is drawn in the error colour" in line for line in found), found


def test_kit_wording_passes_every_ending(tmp_path: Path) -> None:
    endings = [
        variant(
            "cancelled",
            kind="cancel",
            success=False,
            outcome="cancelled",
            error={"type": "Cancelled", "message": "cancelled by the user"},
        ),
        variant(
            "skipped",
            kind="skip",
            success=False,
            outcome="skipped",
            error={"type": "SkippedByUser", "message": "The user skipped it: not now"},
        ),
        variant(
            "blocked",
            kind="block",
            success=False,
            outcome="blocked",
            error={"type": "BlockedByPolicy", "message": "needs approval"},
        ),
        variant(
            "timed-out",
            kind="timeout",
            success=False,
            outcome="timed-out",
            error={"type": "Timeout", "message": "timed out after 5 s"},
        ),
    ]
    assert audit(tmp_path, GOOD, endings, rule="wording-follows-phase") == []


# --- rule 11: truncation is honest -------------------------------------------------------------


def test_a_cut_the_tool_made_must_be_said_with_its_numbers(tmp_path: Path) -> None:
    def render(ctx: SurfaceContext) -> RenderableType:
        items = ctx.result_state["items"]
        total = ctx.result_state["total"]
        return Group(
            *(kit.text(item["name"]) for item in items[:3]),
            kit.more_note(total - 3, 3, total, "item", ctx.palette),
        )

    capped = variant(kind="truncated", state={"items": ITEMS, "total": 50})
    found = messages(audit(tmp_path, surfaces(render=render), [capped], rule="truncation-honest"))
    assert any(
        "the tool returned 10 of 50 items, and the Render does not say so" in line for line in found
    ), found
    assert audit(tmp_path, GOOD, [capped], rule="truncation-honest") == []


def test_a_note_that_does_not_add_up_or_an_impossible_range_is_caught(tmp_path: Path) -> None:
    def render(ctx: SurfaceContext) -> RenderableType:
        return Group(Text("+5 more · showing 3 of 10 items"), Text("lines 1-1 of 0 in the file"))

    found = messages(audit(tmp_path, surfaces(render=render), [TYPICAL], rule="truncation-honest"))
    assert any("does not add up (10 - 3 is 7)" in line for line in found), found
    assert any("“lines 1-1 of 0” is not a range of the file" in line for line in found), found


def test_the_note_survives_the_hand_over_from_streaming(tmp_path: Path) -> None:
    output = [{"after_ms": 10, "text": "".join(f"line {n}\n" for n in range(1, 41))}]
    noisy = variant(state={"items": ITEMS[:3], "total": 3}, output=output)

    def streaming(ctx: SurfaceContext) -> RenderableType:
        return Group(*kit.output_tail(ctx.output, 5, ctx.palette))

    def render(ctx: SurfaceContext) -> RenderableType:
        return Group(*(kit.output_text(line.text, ctx.palette) for line in ctx.output.tail(5)))

    found = messages(
        audit(
            tmp_path,
            surfaces(streaming=streaming, render=render),
            [noisy],
            rule="truncation-honest",
        )
    )
    assert any("the Render shows part of the 40 lines without a note" in line for line in found)

    def honest(ctx: SurfaceContext) -> RenderableType:
        return Group(*kit.output_tail(ctx.output, 5, ctx.palette))

    assert (
        audit(
            tmp_path,
            surfaces(streaming=streaming, render=honest),
            [noisy],
            rule="truncation-honest",
        )
        == []
    )


# --- rule 11: no blank surface ------------------------------------------------------------------


def test_an_empty_result_needs_a_sentence(tmp_path: Path) -> None:
    def header_only(ctx: SurfaceContext) -> RenderableType:
        return Text("0 items", style="bold")

    def blank(ctx: SurfaceContext) -> RenderableType:
        return Text("1")

    empty = variant("nothing", kind="empty", state={"items": [], "total": 0})
    found = messages(
        audit(tmp_path, surfaces(render=header_only), [empty], rule="no-blank-surface")
    )
    assert found and "the result is empty and the Render does not say so" in found[0]
    found = messages(audit(tmp_path, surfaces(render=blank), [empty], rule="no-blank-surface"))
    assert found and "the Render shows “1”" in found[0]
    assert audit(tmp_path, GOOD, [empty], rule="no-blank-surface") == []


def test_a_surface_that_raises_is_caught(tmp_path: Path) -> None:
    def broken(ctx: SurfaceContext) -> RenderableType:
        raise KeyError("items")

    found = audit(tmp_path, surfaces(render=broken), [TYPICAL], rule="surface-crash")
    assert found and "the render surface raised an exception" in found[0].problem


# --- rule 8: the Placeholder keeps the Render's layout -----------------------------------------


def test_a_placeholder_much_shorter_than_the_render_is_caught(tmp_path: Path) -> None:
    def spinner(ctx: SurfaceContext) -> RenderableType:
        return Text("⠋ working…")

    def tall(ctx: SurfaceContext) -> RenderableType:
        return Group(*(Text(f"row {n}") for n in range(12)))

    found = messages(
        audit(
            tmp_path,
            surfaces(placeholder=spinner, render=tall),
            [TYPICAL],
            rule="placeholder-keeps-layout",
        )
    )
    assert (
        found and "the card grows by 11 rows when the result replaces the Placeholder" in found[0]
    )
    assert audit(tmp_path, GOOD, [TYPICAL], rule="placeholder-keeps-layout") == []


# --- rule 15: no debug data in the tool's surfaces ---------------------------------------------


def test_raw_json_and_internal_names_are_caught(tmp_path: Path) -> None:
    def dump(ctx: SurfaceContext) -> RenderableType:
        return kit.json_block(ctx.result_state, ctx.palette)

    def internal(ctx: SurfaceContext) -> RenderableType:
        return Text("approved: pathScopeAudit found nothing")

    found = audit(tmp_path, surfaces(render=dump), [TYPICAL], rule="no-debug-in-surfaces")
    assert found and "shows raw JSON" in found[0].problem
    found = audit(tmp_path, surfaces(render=internal), [TYPICAL], rule="no-debug-in-surfaces")
    assert found and "the workbench's internal “pathScopeAudit”" in found[0].problem
    assert audit(tmp_path, GOOD, [TYPICAL], rule="no-debug-in-surfaces") == []


def test_json_the_tool_returned_as_content_is_not_debug(tmp_path: Path) -> None:
    document = '{\n  "name": "demo",\n  "version": "1.0.0"\n}'

    def file_view(ctx: SurfaceContext) -> RenderableType:
        return kit.code_block(ctx.result_state["text"], "json", ctx.palette)

    read = variant(state={"text": document}, content=document)
    assert audit(tmp_path, surfaces(render=file_view), [read], rule="no-debug-in-surfaces") == []


# --- rule 13: plurals ---------------------------------------------------------------------------


def test_counts_that_disagree_with_their_nouns_are_caught(tmp_path: Path) -> None:
    def render(ctx: SurfaceContext) -> RenderableType:
        return Group(Text("1 results"), Text("3 replacement(s)"), Text("2 file"))

    found = [
        finding.problem
        for finding in audit(tmp_path, surfaces(render=render), [TYPICAL], rule="plurals")
    ]
    assert set(found) >= {"“1 results”", "“replacement(s)”", "“2 file”"}, found
    assert (
        audit(tmp_path, GOOD, [variant(state={"items": ITEMS[:1], "total": 1})], rule="plurals")
        == []
    )


def test_a_tools_own_output_is_quoted_not_judged(tmp_path: Path) -> None:
    def render(ctx: SurfaceContext) -> RenderableType:
        return kit.text(ctx.content)

    quoting = variant(content="1 files changed, 2 insertion(s)")
    assert audit(tmp_path, surfaces(render=render), [quoting], rule="plurals") == []


def test_an_app_ui_tool_without_a_text_fallback_is_caught(tmp_path: Path) -> None:
    from tests.audit.helpers import MANIFEST

    api = MANIFEST.api[0].model_copy(update={"ui": ToolUi(resource_uri="ui://demo/app.html")})
    with_ui = MANIFEST.model_copy(update={"api": [api]})
    structured_only = variant("structured", content='{"points": [1, 2]}', state={"points": [1, 2]})
    images_only = variant(
        "image",
        content="[image: image/png, 70 bytes]",
        state={"blocks": [{"type": "image", "mimeType": "image/png", "bytes": 70}]},
    )
    found = audit(
        tmp_path,
        SurfaceSet(),
        [structured_only, images_only, variant("texty", content="3 points, rising")],
        rule="app-ui-text-fallback",
        manifest=with_ui,
    )
    assert [finding.key.label for finding in found] == ["done 120 dark", "done 120 dark"]
    assert "has an app UI (ui://demo/app.html) but this result has no text" in found[0].problem
    # The same results from a tool without a UI are fine: their text is the JSON they sent.
    assert audit(tmp_path, SurfaceSet(), [structured_only], rule="app-ui-text-fallback") == []
