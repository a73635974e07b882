"""Finding tool packages, and remembering where each came from.

Four places offer them: Workbench's bundled reference tools, the project's
``[tool.workbench] tools`` list, installed distributions that declare entry points in the
``workbench.tools`` group, and ``--tools`` options. A module that fails to import is a
problem naming the file and line where it failed; it never stops the others.

Entry points are listed with :func:`importlib.metadata.entry_points` (a scan of the installed
distributions' metadata, a few milliseconds) and imported only when a project is opened,
which the TUI does in a worker thread.
"""

from __future__ import annotations

import importlib
import os
import sys
import sysconfig
import traceback
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Literal

from workbench.api import ENTRY_POINT_GROUP, ToolPackage
from workbench.core.problems import Problem

BUNDLED_TOOL_MODULES: tuple[str, ...] = (
    "workbench.tools.web_browsing",
    "workbench.tools.calculator",
    "workbench.tools.local_system",
    "workbench.tools.task",
    "workbench.tools.skills",
)

NO_PLUGINS_ENV = "WORKBENCH_NO_PLUGINS"
"""Set (to anything but ``""`` or ``0``), installed tool packages are not loaded unless named:
``plugins = true`` then means none, like ``PYTEST_DISABLE_PLUGIN_AUTOLOAD``. Workbench's own
test suite sets it, so what happens to be installed in its environment cannot change it."""

OriginKind = Literal["bundled", "config", "plugin", "option"]

_IMPORTLIB = Path(importlib.__file__).resolve().parent
_THIS_FILE = Path(__file__).resolve()
_LIBRARIES = tuple(
    {Path(sysconfig.get_path(name)).resolve() for name in ("stdlib", "purelib", "platlib")}
)


@dataclass(frozen=True)
class ToolOrigin:
    """Where a tool package was found: what ``workbench tools`` prints beside it."""

    kind: OriginKind
    spec: str
    """``module`` or ``module:attribute``."""
    entry_point: str = ""
    """The entry point's name, for plugins."""
    distribution: str = ""
    """``name version`` of the distribution that declared the entry point."""

    def describe(self) -> str:
        if self.kind == "bundled":
            return f"bundled with Workbench ({self.spec})"
        if self.kind == "config":
            return f"[tool.workbench] tools: {self.spec}"
        if self.kind == "option":
            return f"--tools {self.spec}"
        where = f" from {self.distribution}" if self.distribution else ""
        return f"entry point {ENTRY_POINT_GROUP}: {self.entry_point} = {self.spec}{where}"


@dataclass(frozen=True)
class FoundPackage:
    """A tool package and its origin."""

    package: ToolPackage
    origin: ToolOrigin


@dataclass(frozen=True)
class FailedSpec:
    """A tool module that did not import, and why (``workbench dev`` retries it on a fix)."""

    origin: ToolOrigin
    problem: Problem


@dataclass
class Discovery:
    """Every tool package found, in order, and what could not be loaded."""

    found: list[FoundPackage] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    failed: list[FailedSpec] = field(default_factory=list)

    @property
    def packages(self) -> list[ToolPackage]:
        return [item.package for item in self.found]

    def origins(self) -> dict[str, ToolOrigin]:
        """Tool identifier -> origin (the first package of an identifier)."""
        origins: dict[str, ToolOrigin] = {}
        for item in self.found:
            origins.setdefault(item.package.identifier, item.origin)
        return origins


def raised_at(error: BaseException) -> tuple[str, int | None]:
    """The file and line where ``error`` happened in the author's code.

    A ``SyntaxError`` names its own place; otherwise the innermost frame that is not the
    import machinery's, preferring the author's code to a library's (a manifest that pydantic
    rejects is wrong where the manifest is written, not inside pydantic).
    """
    if isinstance(error, SyntaxError) and error.filename:
        return error.filename, error.lineno
    frames = [
        frame
        for frame in traceback.extract_tb(error.__traceback__)
        if not frame.filename.startswith("<frozen ")
        and not Path(frame.filename).resolve().is_relative_to(_IMPORTLIB)
        and Path(frame.filename).resolve() != _THIS_FILE
    ]
    own = [
        frame
        for frame in frames
        if not any(Path(frame.filename).resolve().is_relative_to(lib) for lib in _LIBRARIES)
    ]
    for found in (own, frames):
        if found:
            return found[-1].filename, found[-1].lineno
    return "", None


def _load_problem(spec: str, origin: ToolOrigin, error: BaseException) -> Problem:
    from workbench.fixtures.files import display_path

    file, line = raised_at(error)
    file = display_path(Path(file)) if file else ""
    reason = f"{type(error).__name__}: {error}"
    if isinstance(error, SyntaxError):
        reason = f"SyntaxError: {error.msg}"
    return Problem(
        file=file or spec,
        line=line,
        field="",
        message=f"cannot load tool package {spec} ({origin.describe()}): {reason}",
        code="tool-module",
    )


def load_spec(spec: str, origin: ToolOrigin) -> tuple[list[ToolPackage], list[Problem]]:
    """Import ``module`` or ``module:attribute`` (default ``PACKAGE``): one package or a list."""
    module_name, _, attribute = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
        value = getattr(module, attribute or "PACKAGE")
    except Exception as error:  # noqa: BLE001 - a broken user module must not stop the rest
        return [], [_load_problem(spec, origin, error)]
    items = value if isinstance(value, (list, tuple)) else [value]
    packages: list[ToolPackage] = []
    problems: list[Problem] = []
    for item in items:
        if isinstance(item, ToolPackage):
            packages.append(item)
        else:
            problems.append(
                Problem(
                    file=spec,
                    message=f"expected a ToolPackage, got {type(item).__name__} "
                    f"({origin.describe()})",
                    code="tool-module",
                )
            )
    return packages, problems


def load_specs(specs: Iterable[str], kind: OriginKind) -> tuple[list[ToolPackage], list[Problem]]:
    """:func:`load_spec` for each of ``specs``, all from the same kind of place."""
    packages: list[ToolPackage] = []
    problems: list[Problem] = []
    for spec in specs:
        loaded, failed = load_spec(spec, ToolOrigin(kind, spec))
        packages.extend(loaded)
        problems.extend(failed)
    return packages, problems


def load_entry_point(
    entry_point: EntryPoint, origin: ToolOrigin
) -> tuple[list[ToolPackage], list[Problem]]:
    """An entry point's value is a ``module:attribute`` spec like the config's."""
    return load_spec(entry_point.value, origin)


def plugin_entry_points() -> list[EntryPoint]:
    """Every ``workbench.tools`` entry point of the installed distributions, by name."""
    found = entry_points(group=ENTRY_POINT_GROUP)
    return sorted(found, key=lambda entry: entry.name)


def plugin_origin(entry_point: EntryPoint) -> ToolOrigin:
    dist = entry_point.dist
    distribution = f"{dist.name} {dist.version}" if dist is not None else ""
    return ToolOrigin("plugin", entry_point.value, entry_point.name, distribution)


def add_python_paths(paths: Iterable[Path]) -> None:
    """Put ``paths`` first on ``sys.path`` (once each), so project modules import as written."""
    for path in reversed(list(paths)):
        text = str(path)
        if text not in sys.path:
            sys.path.insert(0, text)


def discover(
    *,
    bundled: bool = True,
    config_specs: Sequence[str] = (),
    option_specs: Sequence[str] = (),
    plugins: bool | Sequence[str] = True,
    exclude: Sequence[str] = (),
    python_paths: Sequence[Path] = (),
    config_file: str = "pyproject.toml",
) -> Discovery:
    """Load every tool package on offer, in that order: bundled, config, plugins, options.

    ``plugins`` is ``True`` (every entry point), ``False`` or the entry points to load by
    name; a named one that is not installed is a problem. ``exclude`` drops entry points by
    name and packages by tool identifier. A package offered twice (a project that lists its
    own installed package in ``tools`` too) is kept once, with its first origin.
    :data:`NO_PLUGINS_ENV` turns ``plugins=True`` into ``False``.
    """
    if plugins is True and os.environ.get(NO_PLUGINS_ENV, "") not in ("", "0"):
        plugins = False
    add_python_paths(python_paths)
    excluded = set(exclude)
    discovery = Discovery()
    seen: set[int] = set()

    def take(packages: list[ToolPackage], problems: list[Problem], origin: ToolOrigin) -> None:
        discovery.problems.extend(problems)
        if problems and not packages:
            discovery.failed.append(FailedSpec(origin, problems[0]))
        for package in packages:
            if id(package) in seen or package.identifier in excluded:
                continue
            seen.add(id(package))
            discovery.found.append(FoundPackage(package, origin))

    if bundled:
        for module in BUNDLED_TOOL_MODULES:
            take(*load_spec(module, ToolOrigin("bundled", module)), ToolOrigin("bundled", module))
    for spec in config_specs:
        origin = ToolOrigin("config", spec)
        take(*load_spec(spec, origin), origin)
    if plugins is not False:
        wanted = None if plugins is True else set(plugins)
        installed = plugin_entry_points()
        for entry_point in installed:
            if entry_point.name in excluded:
                continue
            if wanted is not None and entry_point.name not in wanted:
                continue
            origin = plugin_origin(entry_point)
            take(*load_entry_point(entry_point, origin), origin)
        for name in sorted((wanted or set()) - {entry.name for entry in installed}):
            discovery.problems.append(
                Problem(
                    file=config_file,
                    field="tool.workbench.plugins",
                    message=f"no installed package declares {name!r} under the "
                    f"{ENTRY_POINT_GROUP} entry-point group (installed: "
                    f"{', '.join(entry.name for entry in installed) or 'none'})",
                    code="plugin",
                )
            )
    for spec in option_specs:
        origin = ToolOrigin("option", spec)
        take(*load_spec(spec, origin), origin)
    return discovery
