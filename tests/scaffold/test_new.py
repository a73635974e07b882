"""`workbench new`: the scaffold works at once — check, audit, pytest, ruff, mypy and the TUI
take the new tool as it is — and it never overwrites anything."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from workbench.app.app import WorkbenchApp
from workbench.app.widgets.tool_tree import ToolTree
from workbench.cli import main
from workbench.config import load_config
from workbench.fixtures.catalog import VariantRef
from workbench.project import open_project
from workbench.rendering.screen import screen_text, settle

HOUSE_RULES = ["--select", "E,F,I,B,BLE,UP,SIM,RUF", "--line-length", "100"]
MYPY_CACHE = Path.home() / ".cache" / "workbench-tests" / "mypy-scaffold"


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A command in the new project, as its author would run it (no PYTHONPATH needed)."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["TEXTUAL_ANIMATIONS"] = "none"
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=cwd, capture_output=True, text=True, env=env
    )


@pytest.fixture(autouse=True)
def forget_modules() -> Iterator[None]:
    """The new tools are imported in this process: forget them (and their project folders on
    sys.path) so the next test starts clean."""
    before = set(sys.modules)
    path = list(sys.path)
    yield
    sys.path[:] = path
    for name in set(sys.modules) - before:
        if name.startswith(("field_notes", "tiny_tool")):
            del sys.modules[name]


@pytest.mark.slow
def test_a_new_tool_passes_check_audit_pytest_ruff_and_mypy_at_once(tmp_path: Path) -> None:
    made = run(
        "workbench", "new", "field-notes", "--api", "searchNotes", "--api", "getNote", cwd=tmp_path
    )
    assert made.returncode == 0, made.stderr
    assert "Created the tool field-notes (package field_notes) — APIs: searchNotes, getNote" in (
        made.stdout
    )
    for path in (
        "field_notes/__init__.py",
        "field_notes/manifest.py",
        "field_notes/runtime.py",
        "field_notes/surfaces.py",
        "field_notes/fixtures/searchNotes.yaml",
        "field_notes/fixtures/getNote.yaml",
        "tests/test_tool_ui.py",
        "pyproject.toml",
        "snapshots/field-notes/searchNotes/several-matches/done-60-dark.svg",
    ):
        assert (tmp_path / path).is_file(), path
    checked = run("workbench", "check", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "2 fixture file(s), 8 variant(s), 0 problem(s)" in checked.stderr
    audited = run("workbench", "audit", cwd=tmp_path)
    assert audited.returncode == 0 and "✓ 0 findings" in audited.stderr, audited.stdout
    tested = run("pytest", "-q", "-p", "no:cacheprovider", cwd=tmp_path)
    assert tested.returncode == 0, tested.stdout[-3000:]
    assert "88 passed" in tested.stdout
    for rules in ([], HOUSE_RULES):
        linted = run("ruff", "check", *rules, ".", cwd=tmp_path)
        assert linted.returncode == 0, linted.stdout
    for width in ("88", "100"):
        formatted = run("ruff", "format", "--check", "--line-length", width, ".", cwd=tmp_path)
        assert formatted.returncode == 0, formatted.stdout
    typed = run("mypy", "--strict", "--cache-dir", str(MYPY_CACHE), "field_notes", cwd=tmp_path)
    assert typed.returncode == 0, typed.stdout


async def test_workbench_shows_the_new_tool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["new", "tiny-tool", "--no-snapshots"])
    assert result.exit_code == 0, result.output
    app = WorkbenchApp(lambda: open_project(config=load_config(tmp_path)), animate=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.app.workers.wait_for_complete()
        await settle(pilot)
        tree = app.screen.query_one(ToolTree)
        variants = [
            node.data.variant.id for node in tree.nodes() if isinstance(node.data, VariantRef)
        ]
        assert variants == ["several-matches", "no-match", "blank-query", "over-the-limit"]
        text = screen_text(app)
        assert "Tiny tool" in text and "Looked up: “tool” (3 items)" in text


def test_it_refuses_to_overwrite_and_says_what_exists(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(main, ["new", "tiny-tool", "--no-snapshots"]).exit_code == 0
    before = {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()}
    again = runner.invoke(main, ["new", "tiny-tool", "--api", "other", "--no-snapshots"])
    assert again.exit_code == 1
    assert again.stderr.splitlines() == [
        "workbench: error: tiny_tool/ already exists",
        "workbench: error: the project already has a tool named tiny-tool "
        "([tool.workbench] tools: tiny_tool:PACKAGE)",
        "workbench: nothing was written",
    ]
    after = {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()}
    assert after == before


def test_one_file_in_the_way_means_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_tool_ui.py").write_text("def test_mine() -> None: ...\n")
    result = CliRunner().invoke(main, ["new", "tiny-tool", "--no-snapshots"])
    assert result.exit_code == 1
    assert "workbench: error: tests/test_tool_ui.py already exists" in result.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["tests"]


def test_it_adds_to_an_existing_pyproject_keeping_its_comments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "mine"  # the distribution\n\n[tool.workbench]\n'
        'fixtures = []\ntools = "tiny_tool_x:PACKAGE"  # an older tool\n\n'
        '[tool.pytest.ini_options]\ntestpaths = ["checks"]\n'
    )
    (tmp_path / "checks").mkdir()
    (tmp_path / "checks" / "test_ui.py").write_text(
        "from workbench.testing.snapshots import test_tool_ui_snapshot  # noqa: F401\n"
    )
    result = CliRunner().invoke(main, ["new", "tiny-tool", "--dir", "src", "--no-snapshots"])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "pyproject.toml").read_text()
    assert 'name = "mine"  # the distribution' in text
    assert 'tools = [\n    "tiny_tool_x:PACKAGE",\n    "tiny_tool:PACKAGE",\n]' in text
    assert 'pythonpath = [\n    ".",\n    "src",\n]' in text
    assert (tmp_path / "src" / "tiny_tool" / "surfaces.py").is_file()
    assert "checks/test_ui.py already runs the snapshot suite" in result.stdout
    assert not (tmp_path / "checks" / "test_tool_ui.py").exists()


def test_a_crlf_pyproject_stays_crlf_and_keeps_its_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_bytes(b'[project]\r\nname = "mine"  # the distribution\r\n')
    pyproject.chmod(0o664)
    result = CliRunner().invoke(main, ["new", "tiny-tool", "--no-snapshots"])
    assert result.exit_code == 0, result.output
    data = pyproject.read_bytes()
    assert data.startswith(b'[project]\r\nname = "mine"  # the distribution\r\n')
    assert b"tiny_tool:PACKAGE" in data and data.count(b"\n") == data.count(b"\r\n")
    assert pyproject.stat().st_mode & 0o777 == 0o664


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["2fast"], "'2fast' cannot name a tool"),
        (["class"], "'class' is a Python keyword"),
        (
            ["ok-tool", "--api", "get-page"],
            "--api 'get-page': name an API as a Python method is named: letters, digits and _, "
            "starting with a letter (e.g. searchPages or search_pages)",
        ),
        (["ok-tool", "--api", "invoke"], "--api 'invoke': that name is taken"),
        (["ok-tool", "--api", "getPage", "--api", "get_page"], "name the same API"),
        (["json"], "a module named json is already importable"),
    ],
)
def test_names_that_cannot_work_are_refused_with_a_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, arguments: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["new", *arguments, "--no-snapshots"])
    assert result.exit_code in (1, 2)
    assert message in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_every_api_says_which_it_is_and_that_it_starts_as_the_example(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        main, ["new", "tiny-tool", "--api", "lookup", "--api", "store", "--no-snapshots"]
    )
    assert result.exit_code == 0, result.output
    assert (
        "Each API (lookup, store) starts as the same example, a lookup of items by a word, "
        "under its own name"
    ) in " ".join(result.stdout.split())
    manifest = (tmp_path / "tiny_tool" / "manifest.py").read_text()
    assert '"lookup: finds the items' in manifest and '"store: finds the items' in manifest
    assert "# store starts as the example API" in manifest
    project = open_project(config=load_config(tmp_path), installed=False)
    descriptions = [api.description for api in project.catalog.tools["tiny-tool"].manifest.api]
    assert len(set(descriptions)) == 2, descriptions
