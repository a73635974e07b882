"""Which Python modules make up a tool package, and importing them afresh.

``importlib.reload`` of one module leaves stale references behind (the package's
``__init__`` still holds the old ``SURFACES``), so a changed tool is re-imported whole: every
module of the tool is dropped from ``sys.modules`` and its spec imported again, in the
import order its own imports give. Workbench's own infrastructure (the kit, the registry, the
models) is never dropped: objects the app holds must keep their classes.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from workbench.tools.package import ToolPackage

_INFRASTRUCTURE = "workbench."
_RELOADABLE_INSIDE_WORKBENCH = ("workbench.tools.", "workbench.scaffold.template")


def _reloadable(name: str) -> bool:
    if name == "workbench" or (
        name.startswith(_INFRASTRUCTURE) and not name.startswith(_RELOADABLE_INSIDE_WORKBENCH)
    ):
        return False
    # The bundled tools' shared helpers (workbench.tools.discovery, .package) are infrastructure.
    return name not in ("workbench.tools", "workbench.tools.discovery", "workbench.tools.package")


@dataclass(frozen=True)
class ToolModules:
    """The modules of one tool package and where they live on disk."""

    spec: str
    """How the package is imported (``module:attribute``)."""
    names: frozenset[str]
    files: frozenset[Path]
    directory: Path | None
    """The package's folder (``None`` for a single-module tool)."""

    def owns(self, path: Path) -> bool:
        """Whether a change to ``path`` changes this tool."""
        resolved = path.resolve()
        if resolved in self.files:
            return True
        return self.directory is not None and resolved.is_relative_to(self.directory)


def spec_directory(spec: str) -> Path | None:
    """Where the module of ``spec`` lives, found without importing it."""
    import importlib.util

    name = spec.partition(":")[0]
    try:
        found = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if found is None or found.origin is None:
        return None
    origin = Path(found.origin).resolve()
    return origin.parent if found.submodule_search_locations else origin


def tool_modules(spec: str, package: ToolPackage | None) -> ToolModules:
    """The modules of the package imported by ``spec``: the spec's module and its submodules,
    every module loaded from its folder, and the modules its surfaces and runtime factory were
    defined in."""
    module_name = spec.partition(":")[0]
    root = sys.modules.get(module_name)
    root_file = getattr(root, "__file__", None) if root is not None else None
    directory: Path | None = None
    if root_file and getattr(root, "__path__", None):
        directory = Path(root_file).resolve().parent
    elif root is None:
        location = spec_directory(spec)
        directory = location if location is not None and location.is_dir() else None
    # Compared as strings: resolving the path of every loaded module costs more than the
    # re-import itself. Only the modules that match are resolved.
    prefixes = tuple(
        {f"{os.path.dirname(root_file)}{os.sep}", f"{directory}{os.sep}"}
        if root_file and directory is not None
        else ({f"{directory}{os.sep}"} if directory is not None else set())
    )
    defining: set[str] = {module_name}
    if package is not None:
        surfaces = package.surfaces
        for table in (
            surfaces.inspectors,
            surfaces.placeholders,
            surfaces.streamings,
            surfaces.renders,
            surfaces.interventions,
        ):
            defining.update(getattr(surface, "__module__", "") for surface in table.values())
        if surfaces.portal is not None:
            defining.add(getattr(surfaces.portal, "__module__", ""))
        if package.create_runtime is not None:
            defining.add(getattr(package.create_runtime, "__module__", ""))
    names: set[str] = set()
    files: set[Path] = set()
    for name, module in list(sys.modules.items()):
        if module is None or not _reloadable(name):
            continue
        file = getattr(module, "__file__", None)
        inside = bool(prefixes) and isinstance(file, str) and file.startswith(prefixes)
        if name in defining or name.startswith(f"{module_name}.") or inside:
            names.add(name)
            if isinstance(file, str):
                files.add(Path(file).resolve())
    return ToolModules(
        spec=spec, names=frozenset(names), files=frozenset(files), directory=directory
    )


def forget(names: Iterable[str]) -> None:
    """Drop modules from ``sys.modules`` so the next import reads their files again."""
    import importlib

    for name in names:
        if _reloadable(name):
            sys.modules.pop(name, None)
    # Finders cache directory listings: a module file added since would not be found.
    importlib.invalidate_caches()
