"""The host rules hold a project to the hosts it targets, and to none by default."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Group, RenderableType
from rich.text import Text

from tests.audit.helpers import audit, messages, variant
from workbench.hosts import bundled_hosts
from workbench.surfaces import kit
from workbench.surfaces.context import SurfaceContext
from workbench.surfaces.registry import SurfaceSet

HOSTS = bundled_hosts()
ROWS = [f"row {index}: " + "z" * 30 for index in range(4_000)]
HUGE = "\n".join(["3 rows failed, showing all 4,000", *ROWS, "end of the report"])


def inspector(ctx: SurfaceContext) -> RenderableType:
    return kit.status_line(ctx, "Looking up", "Looked up", kit.text(ctx.args.get("query", "")))


def rows_only(ctx: SurfaceContext) -> RenderableType | None:
    """A Render that starts straight with the data: nothing of its own says what came out."""
    notice = kit.ending_notice(ctx)
    if notice is not None:
        return notice
    return Group(*(kit.text(line) for line in ctx.content.splitlines()[1:30]))


def summary_first(ctx: SurfaceContext) -> RenderableType | None:
    notice = kit.ending_notice(ctx)
    if notice is not None:
        return notice
    rows = ctx.content.splitlines()[1:30]
    return Group(Text("4,000 rows · 3 failed", style="bold"), *(kit.text(line) for line in rows))


def surfaces(render: object) -> SurfaceSet:
    return SurfaceSet(inspectors={"lookup": inspector}, renders={"lookup": render})  # type: ignore[dict-item]


def test_no_targeted_host_means_no_host_finding(tmp_path: Path) -> None:
    found = audit(tmp_path, surfaces(rows_only), [variant(content=HUGE)])
    assert not [finding for finding in found if finding.rule.startswith("host-")]


def test_content_over_a_hosts_cap_names_the_host_and_the_rules_source(tmp_path: Path) -> None:
    found = audit(
        tmp_path,
        surfaces(summary_first),
        [variant(content=HUGE)],
        rule="host-model-cap",
        hosts=(HOSTS.get("codex"), HOSTS.get("gemini-cli")),
    )
    text = messages(found)
    assert {finding.host for finding in found} == {"codex", "gemini-cli"}
    assert any("under Codex CLI" in line and "TruncationPolicy" in line for line in text), text
    assert any("passes the 40,000 characters cap" in line for line in text), text


def test_a_head_keeping_host_cuts_the_last_line_and_a_head_tail_host_keeps_it(
    tmp_path: Path,
) -> None:
    found = audit(
        tmp_path,
        surfaces(summary_first),
        [variant(content=HUGE)],
        rule="host-cuts-key-text",
        hosts=(HOSTS.get("opencode"), HOSTS.get("gemini-cli")),
    )
    text = messages(found)
    assert [finding.host for finding in found] == ["opencode"], text
    assert "the last line (“end of the report”) is in the part the host cuts" in text[0]


def test_content_that_restates_the_state_is_found_only_for_projects_with_hosts(
    tmp_path: Path,
) -> None:
    state = {"items": [{"name": "a"}, {"name": "b"}]}
    blob = variant(content=json.dumps(state), state=state)
    assert not audit(tmp_path, surfaces(summary_first), [blob], rule="host-content-restates-state")
    found = audit(
        tmp_path / "2",
        surfaces(summary_first),
        [blob],
        rule="host-content-restates-state",
        hosts=(HOSTS.get("claude-code"),),
    )
    assert len(found) == 1 and "reads a blob" in found[0].problem


def test_a_first_look_of_only_data_is_found_and_a_summary_line_passes(tmp_path: Path) -> None:
    claude = (HOSTS.get("claude-code"),)
    bad = audit(
        tmp_path, surfaces(rows_only), [variant(content=HUGE)], rule="host-first-look", hosts=claude
    )
    assert len(bad) == 1 and "only the tool's data" in bad[0].problem
    good = audit(
        tmp_path / "2",
        surfaces(summary_first),
        [variant(content=HUGE)],
        rule="host-first-look",
        hosts=claude,
    )
    assert good == []


def test_a_waiver_can_name_one_host(tmp_path: Path) -> None:
    waiver = {
        "rule": "host-model-cap",
        "host": "gemini-cli",
        "reason": "our gemini users raise truncateToolOutputThreshold",
    }
    found = audit(
        tmp_path,
        surfaces(summary_first),
        [variant(content=HUGE)],
        rule="host-model-cap",
        audit_waivers=[waiver],
        hosts=(HOSTS.get("codex"), HOSTS.get("gemini-cli")),
    )
    assert {finding.host for finding in found} == {"codex"}
