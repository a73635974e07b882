"""Open a project: its config, tool packages and fixtures, as one catalog and registry."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from workbench.config import WorkbenchConfig, bundled_fixtures_dir, load_config
from workbench.fixtures.cache import CatalogCache, cache_dir
from workbench.fixtures.catalog import Catalog, build_catalog
from workbench.surfaces.registry import SurfaceRegistry
from workbench.tools import bundled_packages, load_tool_modules
from workbench.tools.package import ToolPackage


@dataclass
class Project:
    config: WorkbenchConfig
    catalog: Catalog
    registry: SurfaceRegistry


def build_registry(packages: Iterable[ToolPackage]) -> SurfaceRegistry:
    """The packages' surfaces; of two packages with one identifier the first wins (the catalog
    reports the conflict)."""
    registry = SurfaceRegistry()
    seen: set[str] = set()
    for package in packages:
        if package.identifier not in seen:
            seen.add(package.identifier)
            registry.register_set(package.identifier, package.surfaces)
    return registry


def project_cache(config: WorkbenchConfig) -> CatalogCache:
    """The catalog cache of ``config``'s project (``.workbench/cache/`` beside its
    pyproject.toml, or the user's cache directory when there is no project)."""
    return CatalogCache(cache_dir(config.root, project=config.pyproject is not None))


def open_project(
    paths: Sequence[Path] = (),
    *,
    config: WorkbenchConfig | None = None,
    cache: CatalogCache | None = None,
) -> Project:
    """Load the configured project; ``paths`` (fixture files or dirs) replace its fixture dirs.

    Unchanged files come from the project's catalog cache unless ``cache`` says otherwise
    (``CatalogCache.disabled()`` parses everything).
    """
    config = config or load_config()
    packages = bundled_packages() if config.include_bundled else []
    module_packages, problems = load_tool_modules(config.tool_modules)
    packages.extend(module_packages)
    fixture_paths: list[Path] = list(paths) or list(config.fixture_dirs)
    if (
        not paths
        and config.include_bundled
        and bundled_fixtures_dir().resolve() not in [p.resolve() for p in fixture_paths]
    ):
        fixture_paths.insert(0, bundled_fixtures_dir())
    recordings = config.recordings
    if (
        not paths
        and recordings.is_dir()
        and not any(recordings.resolve().is_relative_to(p.resolve()) for p in fixture_paths)
    ):
        # Calls recorded in the live TUI are fixtures like any other: checked and shown.
        fixture_paths.append(recordings)
    catalog = build_catalog(
        fixture_paths,
        [package.manifest for package in packages],
        root=config.root,
        extra_problems=problems,
        cache=cache if cache is not None else project_cache(config),
    )
    return Project(config=config, catalog=catalog, registry=build_registry(packages))
