"""Reload a project after its files change: fixtures, manifests, tool code, pyproject.toml.

:class:`ProjectReloader` keeps what the last load found (each tool package, its origin and its
modules) and, given the paths that changed, redoes only what they touch: a fixture or manifest
file re-reads the catalog; a tool's Python module re-imports that tool; pyproject.toml opens
the project afresh. A tool whose code no longer loads is kept with its last manifest and
:mod:`~workbench.reload.broken` surfaces that show the error, never its previous version.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from workbench.config import WorkbenchConfig, load_config
from workbench.core.problems import Problem
from workbench.fixtures.files import FIXTURE_SUFFIXES
from workbench.project import Project, assemble, discover_packages, fixture_paths_for
from workbench.reload.broken import broken_surfaces
from workbench.reload.modules import ToolModules, forget, spec_directory, tool_modules
from workbench.surfaces.kit import noun
from workbench.tools.discovery import (
    Discovery,
    FailedSpec,
    FoundPackage,
    ToolOrigin,
    load_spec,
)
from workbench.tools.package import ToolPackage

PYTHON_SUFFIX = ".py"


@dataclass(frozen=True)
class ReloadOutcome:
    """One reload: the new project, what triggered it and what it did."""

    project: Project
    changed: tuple[Path, ...]
    reimported: tuple[str, ...] = ()
    """Specs of the tool packages imported again."""
    broken: tuple[str, ...] = ()
    """Specs that failed to import (their tools show the error)."""
    reopened: bool = False
    """pyproject.toml changed: the whole project was opened again."""
    seconds: float = 0.0

    @property
    def problems(self) -> list[Problem]:
        """The new project's errors in the files that changed (a fixture that no longer parses)."""
        changed = {path.resolve() for path in self.changed}
        root = self.project.config.root  # Problems name files relative to it.
        return [
            problem
            for problem in self.project.catalog.problems
            if problem.severity == "error" and (root / problem.file).resolve() in changed
        ]

    @property
    def failing(self) -> bool:
        """A changed file no longer loads: its tool or its fixtures show an error."""
        return bool(self.broken or self.problems)

    def note(self) -> str:
        """``↻ surfaces.py 84 ms``: the status line's short form."""
        names = sorted({path.name for path in self.changed})
        files = ", ".join(names[:2]) + (f" +{len(names) - 2}" if len(names) > 2 else "")
        if self.broken:
            return f"✗ {files}: does not load"
        if problems := self.problems:
            return f"✗ {files}: {len(problems)} {noun(len(problems), 'problem')}"
        return f"↻ {files} {self.seconds * 1000:.0f} ms"

    def summary(self) -> str:
        """``reloaded my_tool (surfaces.py) in 84 ms``, for a notification."""
        names = sorted({path.name for path in self.changed})
        files = ", ".join(names[:3]) + (f" +{len(names) - 3}" if len(names) > 3 else "")
        if self.reopened:
            what = "reopened the project"
        elif self.broken:
            what = f"{', '.join(spec.partition(':')[0] for spec in self.broken)} does not load"
        elif problems := self.problems:
            what = f"{len(problems)} {noun(len(problems), 'problem')}, see Problems"
        elif self.reimported:
            what = "reloaded " + ", ".join(spec.partition(":")[0] for spec in self.reimported)
        else:
            what = "reloaded the fixtures"
        return f"{what} ({files}) in {self.seconds * 1000:.0f} ms"


@dataclass
class _Entry:
    """One tool package as last loaded (or the stand-in of one that no longer loads)."""

    found: FoundPackage
    modules: ToolModules
    broken: Problem | None = None


@dataclass
class ProjectReloader:
    """Reloads ``project`` as its files change; one reload at a time."""

    project: Project
    _entries: list[_Entry] = field(default_factory=list, init=False)
    _failed: list[FailedSpec] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        self._index(self.project)

    def _index(self, project: Project) -> None:
        self._entries = [
            _Entry(found, tool_modules(found.origin.spec, found.package))
            for found in project.packages
        ]
        self._failed = list(project.failed)

    @property
    def config(self) -> WorkbenchConfig:
        return self.project.config

    # --- what to watch ---------------------------------------------------------------------

    def watched_paths(self) -> list[Path]:
        """Directories and files whose changes matter: fixture dirs, tool folders, the config."""
        found: set[Path] = set()
        packages = [entry.found.package for entry in self._entries]
        for path in fixture_paths_for(self.config, packages, self.project.paths):
            if path.exists():
                found.add(path.resolve())
        for entry in self._entries:
            if entry.modules.directory is not None:
                found.add(entry.modules.directory)
            found.update(file.parent for file in entry.modules.files)
        for failed in self._failed:
            location = spec_directory(failed.origin.spec)
            if location is not None:
                found.add(location if location.is_dir() else location.parent)
        if self.config.pyproject is not None:
            found.add(self.config.pyproject.resolve())
        # A directory inside another watched one adds nothing but duplicate events.
        return sorted(
            path
            for path in found
            if not any(other != path and path.is_relative_to(other) for other in found)
        )

    def is_relevant(self, path: Path) -> bool:
        """Whether a change to ``path`` needs a reload (and is not a cache or editor file)."""
        if self.config.pyproject is not None and path == self.config.pyproject.resolve():
            return True
        if path.suffix == PYTHON_SUFFIX:
            return bool(self._owner_specs([path])) or _loaded_module(path)
        return path.suffix in FIXTURE_SUFFIXES

    # --- reloading ---------------------------------------------------------------------------

    def reload(self, changed: Iterable[Path]) -> ReloadOutcome:
        """Redo what ``changed`` touches and return the new project."""
        started = time.perf_counter()
        paths = tuple(sorted({path.resolve() for path in changed}))
        pyproject = self.config.pyproject
        if pyproject is not None and pyproject.resolve() in paths:
            return self._reopen(paths, started)
        python = [path for path in paths if path.suffix == PYTHON_SUFFIX]
        specs = self._owner_specs(python)
        if not specs and any(_loaded_module(path) for path in python):
            # A module outside every tool's folder (a shared helper): any tool may import it.
            specs = [
                entry.modules.spec
                for entry in self._entries
                if entry.found.origin.kind != "bundled"
            ]
        _drop_bytecode(python)
        reimported, broken = self._reimport(specs)
        self.project = self._assemble()
        return ReloadOutcome(
            project=self.project,
            changed=paths,
            reimported=tuple(reimported),
            broken=tuple(broken),
            seconds=time.perf_counter() - started,
        )

    def _reopen(self, paths: tuple[Path, ...], started: float) -> ReloadOutcome:
        forget(name for entry in self._entries for name in entry.modules.names)
        _drop_bytecode(file for entry in self._entries for file in entry.modules.files)
        config = load_config(self.config.root)
        self.project = assemble(config, discover_packages(config), self.project.paths)
        self._index(self.project)
        return ReloadOutcome(
            project=self.project,
            changed=paths,
            reopened=True,
            broken=tuple(failed.origin.spec for failed in self._failed),
            seconds=time.perf_counter() - started,
        )

    def _owner_specs(self, paths: Sequence[Path]) -> list[str]:
        specs = [
            entry.modules.spec
            for entry in self._entries
            if any(entry.modules.owns(path) for path in paths)
        ]
        for failed in self._failed:
            location = spec_directory(failed.origin.spec)
            if location is not None and any(
                path == location or path.is_relative_to(location) for path in paths
            ):
                specs.append(failed.origin.spec)
        return list(dict.fromkeys(specs))

    def _reimport(self, specs: Sequence[str]) -> tuple[list[str], list[str]]:
        if not specs:
            return [], []
        wanted = set(specs)
        forget(
            name
            for entry in self._entries
            if entry.modules.spec in wanted
            for name in entry.modules.names
        )
        reimported: list[str] = []
        broken: list[str] = []
        entries: list[_Entry] = []
        done: set[str] = set()
        for entry in self._entries:
            spec = entry.modules.spec
            if spec not in wanted:
                entries.append(entry)
            elif spec not in done:
                # A module offering several packages is one spec: import it once.
                done.add(spec)
                previous = [item for item in self._entries if item.modules.spec == spec]
                loaded, problem = _load(entry.found.origin, previous)
                entries.extend(loaded)
                (broken if problem is not None else reimported).append(spec)
        failed: list[FailedSpec] = []
        for item in self._failed:
            if item.origin.spec not in wanted:
                failed.append(item)
                continue
            loaded, problem = _load(item.origin, [])
            entries.extend(loaded)
            if problem is None:
                reimported.append(item.origin.spec)
            else:
                broken.append(item.origin.spec)
                failed.append(FailedSpec(item.origin, problem))
        self._entries = entries
        self._failed = failed
        return reimported, broken

    def _assemble(self) -> Project:
        discovery = Discovery(
            found=[entry.found for entry in self._entries],
            problems=[
                *(entry.broken for entry in self._entries if entry.broken is not None),
                *(failed.problem for failed in self._failed),
            ],
            failed=list(self._failed),
        )
        return assemble(self.config, discovery, self.project.paths)


def _load(origin: ToolOrigin, previous: list[_Entry]) -> tuple[list[_Entry], Problem | None]:
    """Import ``origin``'s spec afresh; when it fails, a stand-in for each package it had."""
    packages, problems = load_spec(origin.spec, origin)
    if packages and not problems:
        return [
            _Entry(FoundPackage(package, origin), tool_modules(origin.spec, package))
            for package in packages
        ], None
    problem = problems[0] if problems else Problem(file=origin.spec, message="no tool package")
    stand_ins = []
    for entry in previous:
        # The last manifest keeps the tool's fixtures in place; its surfaces show the error.
        manifest = entry.found.package.manifest
        stand_in = ToolPackage(
            manifest=manifest,
            surfaces=broken_surfaces(problem, manifest.api_names()),
            fixtures=entry.found.package.fixtures,
        )
        stand_ins.append(_Entry(FoundPackage(stand_in, origin), entry.modules, broken=problem))
    return stand_ins, problem


def _loaded_module(path: Path) -> bool:
    """Whether a module loaded from ``path`` is in ``sys.modules``."""
    resolved = path.resolve()
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        # The name first: resolving every loaded module's path would take tens of ms.
        if isinstance(file, str) and file.endswith(path.name) and Path(file).resolve() == resolved:
            return True
    return False


def _drop_bytecode(files: Iterable[Path]) -> None:
    """Remove cached bytecode of ``files``: a file saved twice within a second with the same
    size would otherwise load its stale .pyc (the cache is keyed on mtime seconds and size)."""
    for file in files:
        try:
            Path(importlib.util.cache_from_source(str(file))).unlink(missing_ok=True)
        except (NotImplementedError, ValueError, OSError):
            continue
