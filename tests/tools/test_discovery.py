"""Tools from installed packages: the ``workbench.tools`` entry-point group, found with no
config, listed or excluded by ``[tool.workbench]``, and a broken plugin is a problem, not a crash.

Each test installs a small distribution the way pip lays one out (a package beside its
``.dist-info`` with ``entry_points.txt``) in a folder on ``sys.path``: importlib.metadata
finds it exactly as it finds a pip-installed one.
"""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from click.testing import CliRunner

from workbench.cli import main
from workbench.config import load_config
from workbench.project import open_project
from workbench.surfaces.registry import SurfaceKind
from workbench.tools import discovery
from workbench.tools.discovery import (
    ENTRY_POINT_GROUP,
    NO_PLUGINS_ENV,
    discover,
    plugin_entry_points,
)

PLUGIN = """\
from pathlib import Path

from workbench.api import BaseRuntime, SurfaceSet, ToolManifest, ToolPackage, kit, to_result

MANIFEST = ToolManifest.model_validate(
    {
        "identifier": "{identifier}",
        "meta": {"title": "Acme notes", "emoji": "📒"},
        "api": [{"name": "find", "parameters": {"type": "object", "properties": {}}}],
    }
)


def find_inspector(ctx):
    return kit.status_line(ctx, "Finding notes", "Found notes")


class NotesRuntime(BaseRuntime):
    api_names = ("find",)

    async def find(self, args, ctx):
        return to_result(success=True, content="2 notes", state={"count": 2})


PACKAGE = ToolPackage(
    manifest=MANIFEST,
    surfaces=SurfaceSet(inspectors={"find": find_inspector}),
    create_runtime=lambda services: NotesRuntime(),
    fixtures=Path(__file__).parent / "fixtures",
)
"""

FIXTURE = """\
tool: {identifier}
api: find
variants:
  - id: two-notes
    label: Two notes found
    kind: typical
    args: {{}}
    result: {{success: true, content: "2 notes", state: {{count: 2}}}}
"""


def install(
    site: Path,
    module: str,
    *,
    entry: str = "notes",
    identifier: str = "acme-notes",
    code: str | None = None,
) -> None:
    """Lay out ``module`` as an installed distribution ``{module}-1.0`` declaring ``entry``."""
    package = site / module
    (package / "fixtures").mkdir(parents=True)
    (package / "__init__.py").write_text(
        code if code is not None else PLUGIN.replace("{identifier}", identifier)
    )
    (package / "fixtures" / "find.yaml").write_text(FIXTURE.format(identifier=identifier))
    dist = site / f"{module}-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {module.replace('_', '-')}\nVersion: 1.0\n"
    )
    (dist / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{entry} = {module}:PACKAGE\n")


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on sys.path to install distributions into; their modules are forgotten after.

    Installed plugins load again (the suite turns them off), but only this folder's: a tool
    package installed in the test environment itself is no part of these tests."""
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.delenv(NO_PLUGINS_ENV, raising=False)
    monkeypatch.setattr(
        discovery,
        "entry_points",
        lambda **selection: [
            entry
            for entry in entry_points(**selection)
            if entry.dist is not None
            and Path(str(entry.dist.locate_file(""))).resolve().is_relative_to(folder.resolve())
        ],
    )
    before = set(sys.modules)
    path = list(sys.path)
    yield folder
    sys.path[:] = path
    for name in set(sys.modules) - before:
        module = sys.modules.get(name)
        if module is not None and str(getattr(module, "__file__", "")).startswith(str(folder)):
            del sys.modules[name]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with a config of its own and nothing else (no bundled tools)."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text("[tool.workbench]\nfixtures = []\n")
    monkeypatch.chdir(root)
    return root


def test_an_installed_plugin_shows_with_its_fixtures_and_no_config(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(site, "acme_notes_a")
    bare = tmp_path / "bare"  # no pyproject.toml anywhere above: the bundled set, plus plugins
    bare.mkdir()
    monkeypatch.chdir(bare)
    project = open_project(config=load_config(bare))
    tool = project.catalog.tools["acme-notes"]
    assert tool.origin == (
        "entry point workbench.tools: notes = acme_notes_a:PACKAGE from acme-notes-a 1.0"
    )
    assert [ref.variant.id for ref in tool.apis["find"].variants()] == ["two-notes"]
    assert "calculator" in project.catalog.tools  # the bundled tools are still there
    assert project.registry.has_own("acme-notes", "find", SurfaceKind.INSPECTOR)


def test_the_config_can_list_or_exclude_plugins(site: Path, project: Path) -> None:
    install(site, "acme_notes_b", entry="notes")
    install(site, "acme_todo_b", entry="todo", identifier="acme-todo")
    pyproject = project / "pyproject.toml"
    assert set(open_project().catalog.tools) == {"acme-notes", "acme-todo"}
    pyproject.write_text('[tool.workbench]\nfixtures = []\nplugins = ["todo"]\n')
    assert set(open_project().catalog.tools) == {"acme-todo"}
    pyproject.write_text('[tool.workbench]\nfixtures = []\nexclude = ["todo"]\n')
    assert set(open_project().catalog.tools) == {"acme-notes"}
    pyproject.write_text('[tool.workbench]\nfixtures = []\nexclude = ["acme-notes"]\n')
    assert set(open_project().catalog.tools) == {"acme-todo"}
    pyproject.write_text("[tool.workbench]\nfixtures = []\nplugins = false\n")
    assert open_project().catalog.tools == {}


def test_a_named_plugin_that_is_not_installed_is_a_problem(site: Path, project: Path) -> None:
    install(site, "acme_notes_c")
    (project / "pyproject.toml").write_text(
        '[tool.workbench]\nfixtures = []\nplugins = ["notes", "nope"]\n'
    )
    problems = [problem.format() for problem in open_project().catalog.problems]
    assert any(
        "no installed package declares 'nope' under the workbench.tools entry-point group"
        in problem
        and "installed: " in problem
        for problem in problems
    ), problems


def test_a_plugin_that_fails_to_import_is_a_located_problem_not_a_crash(
    site: Path, project: Path
) -> None:
    install(site, "acme_broken_d", code="import os\n\nraise RuntimeError('no database')\n")
    install(site, "acme_notes_d", entry="fine")
    loaded = open_project()
    assert set(loaded.catalog.tools) == {"acme-notes"}
    [problem] = [item for item in loaded.catalog.problems if item.code == "tool-module"]
    assert problem.file.endswith("acme_broken_d/__init__.py") and problem.line == 3
    assert "RuntimeError: no database" in problem.message
    assert "entry point workbench.tools: notes = acme_broken_d:PACKAGE" in problem.message
    # The CLI reports it and goes on.
    runner = CliRunner()
    listed = runner.invoke(main, ["tools"])
    assert listed.exit_code == 0, listed.output
    assert "⚠ " in listed.stdout and "RuntimeError: no database" in listed.stdout
    assert (
        "    acme-notes — entry point workbench.tools: fine = acme_notes_d:PACKAGE "
        "from acme-notes-d 1.0"
    ) in listed.stdout.splitlines()


def test_the_gates_cover_only_the_project_s_own_tools_and_named_plugins(
    site: Path, project: Path
) -> None:
    install(site, "acme_notes_e")
    runner = CliRunner()
    report = json.loads(runner.invoke(main, ["check", "--format", "json"]).stdout)
    assert report["variants"] == 0  # an installed plugin is not the project's to gate
    (project / "pyproject.toml").write_text(
        '[tool.workbench]\nfixtures = []\nplugins = ["notes"]\n'
    )
    named = runner.invoke(main, ["check", "--format", "json", "--no-audit"])
    assert json.loads(named.stdout)["variants"] == 1


def test_a_package_listed_in_tools_and_declared_as_a_plugin_loads_once(
    site: Path, project: Path
) -> None:
    install(site, "acme_notes_f")
    (project / "pyproject.toml").write_text(
        '[tool.workbench]\nfixtures = []\ntools = ["acme_notes_f:PACKAGE"]\n'
    )
    loaded = open_project()
    assert [found.origin.kind for found in loaded.packages] == ["config"]
    assert loaded.catalog.problems == []


def test_listing_entry_points_is_cheap_and_imports_nothing(site: Path) -> None:
    install(site, "acme_lazy_g", code="raise SystemExit('imported!')\n")
    names = [entry.name for entry in plugin_entry_points()]
    assert "notes" in names and "acme_lazy_g" not in sys.modules


def test_a_project_module_loads_from_the_project_folder_without_install(
    project: Path,
) -> None:
    (project / "local_tool_h").mkdir()
    (project / "local_tool_h" / "__init__.py").write_text(PLUGIN.replace("{identifier}", "local-h"))
    (project / "pyproject.toml").write_text(
        textwrap.dedent(
            """\
            [tool.workbench]
            fixtures = []
            tools = ["local_tool_h:PACKAGE"]
            plugins = false
            """
        )
    )
    try:
        assert set(open_project().catalog.tools) == {"local-h"}
    finally:
        sys.modules.pop("local_tool_h", None)


def test_no_plugins_env_turns_off_installed_plugins_but_not_named_ones(
    site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(site, "acme_notes_e")
    monkeypatch.setenv(NO_PLUGINS_ENV, "1")
    assert not discover(bundled=False, plugins=True).found
    named = discover(bundled=False, plugins=["notes"])
    assert [found.package.identifier for found in named.found] == ["acme-notes"]
    monkeypatch.setenv(NO_PLUGINS_ENV, "0")
    assert [found.package.identifier for found in discover(bundled=False).found] == ["acme-notes"]


def test_several_specs_load_at_once_and_a_broken_one_is_a_problem_naming_its_origin() -> None:
    packages, problems = discovery.load_specs(
        ["workbench.tools.calculator", "no_such_module_here"], "option"
    )
    assert [package.identifier for package in packages] == ["calculator"]
    [problem] = problems
    assert "cannot load tool package no_such_module_here (--tools no_such_module_here)" in (
        problem.message
    )
