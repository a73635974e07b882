"""The reload engine: a saved surface, manifest or fixture becomes a new project; a tool
whose code stops loading shows its error instead of its previous version."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

from rich.console import Console

from tests.reload.conftest import DevProject
from workbench.core.call_state import Phase
from workbench.project import Project
from workbench.reload.reloader import ProjectReloader
from workbench.reload.watcher import reloads
from workbench.surfaces.context import SurfaceContext
from workbench.surfaces.registry import SurfaceKind


def draw(project: Project, tool: str, kind: SurfaceKind, phase: Phase = Phase.DONE) -> str:
    manifest = project.catalog.tools[tool].manifest
    [variant] = [
        ref for ref in project.catalog.all_variants() if ref.variant.id == "several-matches"
    ]
    state = project.catalog.script_for(variant).state_at(phase)
    surface = project.registry.resolve(tool, "lookup", kind).surface
    console = Console(width=80, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(surface(SurfaceContext(state=state, manifest=manifest, width=80)))
    return console.export_text()


def test_a_saved_surface_module_is_what_the_next_project_draws(dev_project: DevProject) -> None:
    reloader = ProjectReloader(dev_project.open())
    assert "Looked up" in draw(reloader.project, dev_project.identifier, SurfaceKind.INSPECTOR)
    changed = dev_project.edit("surfaces.py", '"Looked up"', '"Found"')
    outcome = reloader.reload([changed])
    assert outcome.reimported == (f"{dev_project.module}:PACKAGE",) and not outcome.broken
    assert outcome.summary().startswith(f"reloaded {dev_project.module} (surfaces.py) in ")
    assert "Found: “tool” (3 items)" in draw(
        outcome.project, dev_project.identifier, SurfaceKind.INSPECTOR
    )


def test_a_module_that_no_longer_imports_shows_its_error_not_the_old_version(
    dev_project: DevProject,
) -> None:
    reloader = ProjectReloader(dev_project.open())
    broken = dev_project.edit("surfaces.py", "def lookup_error(", "def lookup_error(:")
    outcome = reloader.reload([broken])
    assert outcome.broken == (f"{dev_project.module}:PACKAGE",)
    project = outcome.project
    inspector = draw(project, dev_project.identifier, SurfaceKind.INSPECTOR)
    assert "✗ Does not load: SyntaxError: invalid syntax at surfaces.py:" in inspector
    render = draw(project, dev_project.identifier, SurfaceKind.RENDER)
    assert "surfaces.py:" in render and "def lookup_error(:" in render
    assert "the previous version is not shown" in render and "Getting started" not in render
    [problem] = [item for item in project.catalog.problems if item.code == "tool-module"]
    assert problem.file.endswith("surfaces.py") and problem.line is not None
    # Its fixtures stay where they were: the tree keeps the selection.
    assert [ref.variant.id for ref in project.catalog.all_variants()][:1] == ["several-matches"]
    fixed = dev_project.edit("surfaces.py", "def lookup_error(:", "def lookup_error(")
    again = reloader.reload([fixed])
    assert again.reimported and not again.broken and again.project.catalog.problems == []
    assert "Looked up" in draw(again.project, dev_project.identifier, SurfaceKind.INSPECTOR)


def test_an_exception_at_import_is_located_in_the_tool_s_file(dev_project: DevProject) -> None:
    reloader = ProjectReloader(dev_project.open())
    changed = dev_project.edit(
        "manifest.py", 'IDENTIFIER = "', 'raise LookupError("no such thing")\nIDENTIFIER = "'
    )
    project = reloader.reload([changed]).project
    render = draw(project, dev_project.identifier, SurfaceKind.RENDER)
    assert "LookupError: no such thing" in render and "manifest.py:" in render


def test_a_manifest_that_pydantic_rejects_is_located_in_the_manifest(
    dev_project: DevProject,
) -> None:
    reloader = ProjectReloader(dev_project.open())
    changed = dev_project.edit("manifest.py", '"emoji": "🧰"', '"emoji": 42')
    outcome = reloader.reload([changed])
    [problem] = [item for item in outcome.project.catalog.problems if item.code == "tool-module"]
    assert problem.file.endswith("manifest.py") and problem.line is not None  # not pydantic's
    inspector = draw(outcome.project, dev_project.identifier, SurfaceKind.INSPECTOR)
    assert "ValidationError: 1 validation error for ToolManifest" in inspector
    assert "meta.emoji" not in inspector  # the Inspector keeps to the reason's first line


def test_a_tool_that_never_loaded_loads_once_fixed(dev_project: DevProject) -> None:
    path = dev_project.edit("runtime.py", "DEFAULT_LIMIT = 5", "DEFAULT_LIMIT = 5 +")
    reloader = ProjectReloader(dev_project.open())
    assert dev_project.identifier not in reloader.project.catalog.tools
    assert dev_project.package in reloader.watched_paths()
    path.write_text(path.read_text().replace("DEFAULT_LIMIT = 5 +", "DEFAULT_LIMIT = 5"))
    outcome = reloader.reload([path])
    assert outcome.reimported and dev_project.identifier in outcome.project.catalog.tools


def test_a_saved_fixture_is_read_again_without_importing_anything(
    dev_project: DevProject,
) -> None:
    reloader = ProjectReloader(dev_project.open())
    fixture = dev_project.package / "fixtures" / "lookup.yaml"
    fixture.write_text(fixture.read_text().replace("A word found in several items", "Renamed"))
    outcome = reloader.reload([fixture])
    assert outcome.reimported == () and outcome.summary().startswith("reloaded the fixtures")
    labels = [ref.variant.label for ref in outcome.project.catalog.all_variants()]
    assert "Renamed" in labels


def test_a_changed_pyproject_opens_the_project_again(dev_project: DevProject) -> None:
    reloader = ProjectReloader(dev_project.open())
    pyproject = dev_project.root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + f'exclude = ["{dev_project.identifier}"]\n')
    outcome = reloader.reload([pyproject])
    assert outcome.reopened and dev_project.identifier not in outcome.project.catalog.tools


def test_two_saves_in_one_second_of_the_same_size_both_count(dev_project: DevProject) -> None:
    reloader = ProjectReloader(dev_project.open())
    first = dev_project.edit("surfaces.py", '"Looked up"', '"Looked AA"')
    reloader.reload([first])
    stamp = first.stat().st_mtime
    second = dev_project.edit("surfaces.py", '"Looked AA"', '"Looked BB"')
    os.utime(second, (stamp, stamp))  # the same mtime and size: only the bytes differ
    project = reloader.reload([second]).project
    assert "Looked BB" in draw(project, dev_project.identifier, SurfaceKind.INSPECTOR)


def test_only_the_tool_folders_fixtures_and_config_are_watched(
    dev_project: DevProject,
) -> None:
    reloader = ProjectReloader(dev_project.open())
    assert set(reloader.watched_paths()) == {
        dev_project.package.resolve(),
        (dev_project.root / "pyproject.toml").resolve(),
    }
    assert reloader.is_relevant(dev_project.package / "surfaces.py")
    assert reloader.is_relevant(dev_project.package / "fixtures" / "lookup.yaml")
    assert not reloader.is_relevant(dev_project.package / "notes.txt")
    assert not reloader.is_relevant(dev_project.root / "unrelated.py")


async def test_the_watcher_reloads_after_a_save_and_stops_when_asked(
    dev_project: DevProject,
) -> None:
    reloader = ProjectReloader(dev_project.open())
    stop = asyncio.Event()
    seen = []

    async def watch() -> None:
        async for outcome in reloads(reloader, stop=stop):
            seen.append(outcome)
            stop.set()

    task = asyncio.create_task(watch())
    await asyncio.sleep(0.3)  # the watcher is up
    started = time.perf_counter()
    dev_project.edit("surfaces.py", '"Looked up"', '"Found"')
    await asyncio.wait_for(task, timeout=10)
    assert [outcome.changed for outcome in seen] == [
        ((dev_project.package / "surfaces.py").resolve(),)
    ]
    assert time.perf_counter() - started < 5  # generous: the bench measures the real figure
    assert Path(seen[0].changed[0]).name == "surfaces.py"
