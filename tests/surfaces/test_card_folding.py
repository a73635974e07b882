"""``renderDisplayControl`` in the card: a ``collapsed`` API's done card folds to its Inspector
and one summary line that keeps the Render's outcome and cut; ``expand`` opens first and may
fold; ``alwaysExpand`` never folds; an error, skip or approval is never folded."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from workbench.core.call_state import Phase
from workbench.core.manifest import ToolManifest
from workbench.project import Project, open_project
from workbench.surfaces.card import card_renderable, compose_card
from workbench.surfaces.context import SurfaceContext

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def project() -> Project:
    return open_project([REPO / "fixtures"])


def lines(project: Project, reference: str, width: int, **kwargs: object) -> list[str]:
    ctx = context(project, reference, width)
    console = Console(width=width, record=True, color_system=None)
    console.print(card_renderable(ctx, project.registry, **kwargs))  # type: ignore[arg-type]
    return console.export_text().rstrip("\n").splitlines()


def context(
    project: Project,
    reference: str,
    width: int,
    phase: Phase | None = None,
    manifest: ToolManifest | None = None,
) -> SurfaceContext:
    catalog = project.catalog
    ref = catalog.resolve_ref(f"fixtures/local-system/{reference}")
    script = catalog.script_for(ref)
    state = script.state_at(phase or script.phases[-1])
    return SurfaceContext(
        state=state, manifest=manifest or catalog.tools[ref.tool].manifest, width=width
    )


@pytest.mark.parametrize("width", [30, 46, 60, 80, 100, 120])
@pytest.mark.parametrize(
    "reference",
    [
        "readFile.yaml#large-csv",
        "grepContent.yaml#thousands",
        "listFiles.yaml#whole-tree",
        "globFiles.yaml#many-reports",
        "grepContent.yaml#todos",
    ],
)
def test_a_collapsed_read_is_five_rows_and_keeps_the_cut(
    project: Project, reference: str, width: int
) -> None:
    folded = lines(project, reference, width)
    opened = lines(project, reference, width, expanded=True)
    # Frame, Inspector, rule, one summary line, frame: whatever the Render's height.
    assert len(folded) == 5 and len(opened) > 5
    assert folded[:2] == opened[:2] and folded[3].lstrip("│ ").startswith("▸ ")
    cut = [line for line in opened if "showing " in line]
    if cut and width >= 60:
        # The Render's "showing N of M" survives the fold, word for word.
        note = cut[0].strip("│ ").split(" · ")[0]
        assert note in folded[3], (folded, note)


def test_a_one_row_render_is_not_folded(project: Project) -> None:
    # Folding would hide nothing and still draw "▸" as if it did.
    ctx = context(project, "readFile.yaml#empty-file", 60)
    view = compose_card(ctx, project.registry)
    assert not view.folded


def test_grep_keeps_what_the_tool_returned_at_60_columns(project: Project) -> None:
    folded = lines(project, "grepContent.yaml#thousands", 60)
    assert "showing 14 of 200 matches returned · 3,200 in all" in folded[3]
    wide = lines(project, "grepContent.yaml#thousands", 100)
    assert "3,200 matches in 1 file" in wide[3] and "200 matches returned" in wide[3]


@pytest.mark.parametrize(
    "reference",
    ["readFile.yaml#missing-file", "listFiles.yaml#outside-workspace"],
)
def test_errors_skips_and_approvals_never_fold(project: Project, reference: str) -> None:
    catalog = project.catalog
    ref = catalog.resolve_ref(f"fixtures/local-system/{reference}")
    for phase in catalog.script_for(ref).phases:
        ctx = context(project, reference, 60, phase)
        view = compose_card(ctx, project.registry, expanded=False)
        assert not view.folded, phase


def with_control(project: Project, control: str | None) -> ToolManifest:
    manifest = project.catalog.tools["local-system"].manifest
    apis = [
        api.model_copy(update={"render_display_control": control or "expand"})
        if api.name == "readFile"
        else api
        for api in manifest.api
    ]
    if control is None:
        data = manifest.model_dump(by_alias=True)
        for api in data["api"]:
            api.pop("renderDisplayControl", None)
        return ToolManifest.model_validate(data)
    return manifest.model_copy(update={"api": apis})


@pytest.mark.parametrize(
    ("control", "first_look", "can_fold"),
    [
        ("collapsed", True, True),
        ("expand", False, True),
        ("alwaysExpand", False, False),
        (None, False, True),  # An API that does not say is open: nothing hidden unasked.
    ],
)
def test_each_display_control(
    project: Project, control: str | None, first_look: bool, can_fold: bool
) -> None:
    manifest = with_control(project, control)
    ctx = context(project, "readFile.yaml#large-csv", 60, manifest=manifest)
    assert compose_card(ctx, project.registry).folded is first_look
    assert compose_card(ctx, project.registry, expanded=False).folded is can_fold
    assert compose_card(ctx, project.registry, expanded=True).folded is False


def test_workbench_show_prints_the_first_look_and_the_full_card_beside_a_host(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from click.testing import CliRunner

    from workbench.cli import main

    monkeypatch.chdir(REPO)
    reference = "fixtures/local-system/readFile.yaml#large-csv"
    first = CliRunner().invoke(main, ["show", "--width", "60", reference])
    assert first.exit_code == 0 and len(first.output.splitlines()) == 5, first.output
    beside = CliRunner().invoke(main, ["show", "--width", "60", "--host", "codex", reference])
    full = beside.output.split("full card", 1)[1]
    assert beside.exit_code == 0 and "19,item-19,3,line 19" in full
