"""The rules about what a surface claims: the outcome fits the phase, the count fits its verb,
and the model's unsent arguments are not shown as sent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from tests.audit.helpers import MANIFEST, audit, messages, variant
from workbench.core.manifest import ToolManifest
from workbench.surfaces import kit
from workbench.surfaces.context import SurfaceContext
from workbench.surfaces.registry import SurfaceSet

SKIPPED = variant(
    "skipped",
    kind="skip",
    success=False,
    outcome="skipped",
    error={"type": "SkippedByUser", "message": "The user skipped it: not now"},
)
BLOCKED = variant(
    "blocked",
    kind="block",
    success=False,
    outcome="blocked",
    error={"type": "BlockedByPolicy", "message": "needs approval"},
)
ALL_FAILED = variant(
    "all-failed",
    kind="error",
    success=False,
    content="both lookups failed",
    state={"succeeded": 0, "failed": 2},
    error={"type": "AllFailed", "message": "both lookups failed"},
)
SOME_FAILED = variant(
    "some-failed", state={"succeeded": 2, "failed": 1, "total": 3}, content="2 of 3 found"
)
ALL_FOUND = variant("all-found", state={"succeeded": 3, "failed": 0, "total": 3})


def _state(ctx: SurfaceContext) -> dict[str, Any]:
    return ctx.result_state if isinstance(ctx.result_state, dict) else {}


def inspector(ctx: SurfaceContext) -> RenderableType:
    return kit.status_line(ctx, "Looking up", "Looked up", kit.text(ctx.args.get("query", "")))


def printed_nothing_portal(ctx: SurfaceContext) -> RenderableType:
    """The old runCommand Portal: "printed nothing" whatever the ending."""
    rows: list[RenderableType] = [Text("∅ the lookup printed nothing")]
    notice = kit.portal_ending(ctx, what="the lookup")
    if notice is not None:
        rows.append(notice)
    return Group(*rows)


def honest_portal(ctx: SurfaceContext) -> RenderableType:
    notice = kit.portal_ending(ctx, what="the lookup")
    if notice is not None:
        return notice
    state = _state(ctx)
    found = int(state.get("succeeded", 0))
    total = found + int(state.get("failed", 0))
    if not found:
        return Text(f"No items found: {kit.plural(total, 'lookup')} failed")
    return Text(f"Found {kit.part_of(found, total, 'item')}")


def test_a_never_run_call_that_printed_nothing_is_caught(tmp_path: Path) -> None:
    bad = SurfaceSet(inspectors={"lookup": inspector}, portal=printed_nothing_portal)
    found = messages(audit(tmp_path, bad, [SKIPPED, BLOCKED], rule="outcome-follows-phase"))
    assert any(
        "blocked" in line and "“∅ the lookup printed nothing” on a call that was blocked" in line
        for line in found
    ), found
    assert any("on a call that was skipped and never ran" in line for line in found), found
    good = SurfaceSet(inspectors={"lookup": inspector}, portal=honest_portal)
    assert audit(tmp_path, good, [SKIPPED, BLOCKED], rule="outcome-follows-phase") == []


def test_a_success_title_and_a_tick_on_nothing_are_caught_on_a_failure(tmp_path: Path) -> None:
    def titled_portal(ctx: SurfaceContext) -> RenderableType:
        return Group(Text("📋 Found items", style="bold"), Text("✗ lookup one"))

    def ticked_render(ctx: SurfaceContext) -> RenderableType:
        state = _state(ctx)
        return Text(f"✓ {state.get('succeeded', 0)} found  ✗ {state.get('failed', 0)} failed")

    bad = SurfaceSet(
        inspectors={"lookup": inspector}, renders={"lookup": ticked_render}, portal=titled_portal
    )
    found = messages(audit(tmp_path, bad, [ALL_FAILED], rule="outcome-follows-phase"))
    assert any("the Portal is titled “📋 Found items” on a call that failed" in f for f in found)
    assert any("“✓ 0 found  ✗ 2 failed” puts a tick on nothing" in f for f in found), found
    good = SurfaceSet(inspectors={"lookup": inspector}, portal=honest_portal)
    assert audit(tmp_path, good, [ALL_FAILED], rule="outcome-follows-phase") == []


def breakdown_inspector(ctx: SurfaceContext) -> RenderableType:
    """The old crawlMultiPages Inspector: the total with a breakdown after the verb."""
    state = _state(ctx)
    suffix = None
    if "succeeded" in state:
        failed = f", {state['failed']} failed" if state.get("failed") else ""
        suffix = Text(f"({state['succeeded']} fetched{failed})")
    subject = kit.text(kit.plural(int(state.get("total", 3)), "item")) if state else None
    return kit.status_line(ctx, "Fetching", "Fetched", subject, suffix)


def part_of_inspector(ctx: SurfaceContext) -> RenderableType:
    state = _state(ctx)
    subject = suffix = None
    if "succeeded" in state:
        subject = kit.text(kit.part_of(int(state["succeeded"]), int(state["total"]), "item"))
        if state.get("failed"):
            suffix = Text(f"({state['failed']} failed)")
    return kit.status_line(ctx, "Fetching", "Fetched", subject, suffix)


def test_a_count_whose_verb_is_true_of_only_some_is_caught(tmp_path: Path) -> None:
    bad = SurfaceSet(inspectors={"lookup": breakdown_inspector})
    found = messages(audit(tmp_path, bad, [SOME_FAILED, ALL_FOUND], rule="count-fits-verb"))
    assert any(
        "“Fetched: … 3 items (2 fetched, 1 failed)” claims all 3 items were fetched while "
        "only 2 were" in line
        for line in found
    ), found
    assert any("“3 items (3 fetched)” says the count twice" in line for line in found), found
    good = SurfaceSet(inspectors={"lookup": part_of_inspector})
    assert audit(tmp_path, good, [SOME_FAILED, ALL_FOUND], rule="count-fits-verb") == []


def test_kit_part_of_names_the_part_only_when_it_is_not_the_whole() -> None:
    assert kit.part_of(2, 3, "page") == "2 of 3 pages"
    assert kit.part_of(20, 20, "page") == "20 pages"
    assert kit.part_of(1, 1, "entry") == "1 entry"
    assert kit.part_of(0, 1_200, "task") == "0 of 1,200 tasks"


WITH_DEFAULT = ToolManifest.model_validate(
    {
        **MANIFEST.model_dump(by_alias=True, exclude_none=True),
        "api": [
            {
                "name": "lookup",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "scope": {"type": "string", "default": "everywhere"},
                        "query": {"type": "string"},
                    },
                },
            }
        ],
    }
)


def _scoped(default: str) -> Any:
    def scoped_inspector(ctx: SurfaceContext) -> RenderableType:
        scope = ctx.args.get("scope", default)
        return kit.status_line(ctx, "Looking up", "Looked up", kit.text(f"{scope}"))

    return scoped_inspector


def test_a_default_shown_while_the_arguments_stream_is_caught(tmp_path: Path) -> None:
    streamed = {**variant(), "partial_args": {"query": "look"}}
    bad = SurfaceSet(inspectors={"lookup": _scoped("everywhere")})
    found = messages(
        audit(tmp_path, bad, [streamed], rule="no-default-as-argument", manifest=WITH_DEFAULT)
    )
    assert found and "args-streaming" in found[0], found
    assert "the Inspector shows “everywhere”, the default of scope, before the model" in found[0]

    def waits_for_scope(ctx: SurfaceContext) -> RenderableType:
        default = "" if ctx.state.is_args_streaming else "everywhere"
        return _scoped(default)(ctx)

    good = SurfaceSet(inspectors={"lookup": waits_for_scope})
    assert (
        audit(tmp_path, good, [streamed], rule="no-default-as-argument", manifest=WITH_DEFAULT)
        == []
    )
