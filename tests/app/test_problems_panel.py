"""Pilot tests: broken variants are marked in the tree, the problems panel is one row a problem,
and a problem opens in $EDITOR at its line (or is copied where no editor can take over)."""

from __future__ import annotations

import contextlib
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from workbench.app.app import WorkbenchApp
from workbench.app.screens.fixture_screen import FixtureScreen
from workbench.app.widgets.problems_panel import ProblemsPanel
from workbench.app.widgets.tool_tree import ToolTree
from workbench.fixtures.catalog import VariantRef
from workbench.rendering.screen import screen_text, settle

BROKEN_THREE_WAYS = """\
tool: calculator
api: calculate
variants:
  - id: fine
    label: Adds
    kind: typical
    args: {expression: "1 + 1"}
    result: {success: true, content: "1 + 1 = 2", state: {value: "2"}}
  - id: bad-args
    label: Bad args
    kind: typical
    args: {expression: 7}
    result: {success: true, content: "7 = 7", state: {value: "7"}}
  - id: unlabelled
    kind: typical
    args: {expression: "1"}
    result: {success: true, content: "1 = 1"}
  - id: fine
    label: The same id again
    kind: typical
    args: {expression: "2"}
    result: {success: true, content: "2 = 2"}
"""


async def ready(pilot: Pilot) -> FixtureScreen:
    await pilot.app.workers.wait_for_complete()
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, FixtureScreen)
    return screen


def leaves(tree: ToolTree) -> list[str]:
    """The variant rows the fixture files gave (not the samples of APIs without fixtures)."""
    return [
        node.label.plain
        for node in tree.nodes()
        if (isinstance(node.data, VariantRef) and not node.data.generated)
        or (isinstance(node.data, tuple) and node.data[0] == "broken")
    ]


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    folder = tmp_path / "fixtures"
    folder.mkdir()
    (folder / "calc.yaml").write_text(BROKEN_THREE_WAYS)
    return folder


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_broken_variants_are_marked_and_the_good_one_replays(
    make_app: Callable[..., WorkbenchApp], broken: Path, theme: str
) -> None:
    app = make_app(broken)
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = theme
        screen = await ready(pilot)
        tree = screen.query_one(ToolTree)
        assert leaves(tree) == [
            "fine  typical",
            "✗ bad-args  typical",  # loaded, replays, but its args break the schema
            "✗ unlabelled  line 14",  # did not load: where to look
            "✗ fine (again)  line 18",
        ]
        assert screen.ref is not None and screen.ref.variant.id == "fine"
        assert "1 + 1 = 2" in screen_text(app)


async def test_the_panel_shows_one_row_per_problem_under_its_file(
    make_app: Callable[..., WorkbenchApp], broken: Path
) -> None:
    app = make_app(broken)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await ready(pilot)
        panel = screen.query_one(ProblemsPanel)
        option_list = panel.query_one(OptionList)
        assert [problem.line for problem in panel.problems] == [12, 14, 18]
        # One heading and one row for each problem, nothing wrapped.
        assert option_list.option_count == 4
        assert option_list.virtual_size.height == 4
        text = screen_text(app)
        assert "3 problems in 1 file" in text
        assert "▾ 12 [1].args.expression:" in text
        assert "● 14 [2].label: Field req" in text
        # The highlighted problem's message is shown in full below, and only there.
        detail = panel.query_one("#problem-detail", Static)
        assert str(detail.render()) == "7 is not of type 'string'"
        assert text.count("7 is not of type") == 1
        assert 1 <= detail.outer_size.height <= 3
        assert panel.outer_size.height <= 11


async def test_enter_on_a_broken_variant_goes_to_its_problem_and_c_copies_it(
    make_app: Callable[..., WorkbenchApp], broken: Path
) -> None:
    app = make_app(broken)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        tree = screen.query_one(ToolTree)
        node = next(node for node in tree.nodes() if node.label.plain.startswith("✗ unlabelled"))
        tree.move_cursor(node)
        await pilot.press("enter")
        await settle(pilot)
        panel = screen.query_one(ProblemsPanel)
        assert app.focused is panel.query_one(OptionList)
        assert panel.current is not None and panel.current.line == 14
        assert "e Edit at line" in screen_text(app)
        await pilot.press("c")
        assert app.clipboard == f"{broken / 'calc.yaml'}:14: Field required"


async def test_e_opens_the_editor_at_the_line_then_reloads(
    make_app: Callable[..., WorkbenchApp],
    broken: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    called = tmp_path / "editor-args"
    editor = tmp_path / "fake editor"
    # The "editor" records how it was called and fixes the file, as a person would.
    editor.write_text(
        f'#!/bin/sh\necho "$@" > "{called}"\nfor last; do :; done\n'
        'sed -i \'s/expression: 7/expression: "7"/\' "$last"\n'
    )
    editor.chmod(editor.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("EDITOR", f"'{editor}' --wait")
    monkeypatch.delenv("VISUAL", raising=False)
    suspended: list[bool] = []

    @contextlib.contextmanager
    def suspend(self: WorkbenchApp) -> Iterator[None]:
        # The headless driver cannot hand the terminal over; a real one can.
        suspended.append(True)
        yield

    monkeypatch.setattr(WorkbenchApp, "suspend", suspend)
    app = make_app(broken)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        panel = screen.query_one(ProblemsPanel)
        panel.query_one(OptionList).focus()
        await pilot.press("e")
        assert suspended == [True]
        assert called.read_text().split() == ["--wait", "+12", str(broken / "calc.yaml")]
        await settle(pilot)
        await app.workers.wait_for_complete()
        await settle(pilot)
        # Back from the editor, the file is read again: the args problem is gone.
        assert [problem.line for problem in panel.problems] == [14, 18]


async def test_where_the_app_cannot_suspend_e_copies_the_location(
    make_app: Callable[..., WorkbenchApp], broken: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EDITOR", "vi")
    app = make_app(broken)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        panel = screen.query_one(ProblemsPanel)
        panel.query_one(OptionList).focus()
        await pilot.press("down", "e")
        assert app.clipboard == f"{broken / 'calc.yaml'}:14: Field required"
        titles = [notification.title for notification in app._notifications]
        assert titles == ["Copied (this terminal cannot hand over to an editor)"]
