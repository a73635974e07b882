"""Open a project: its config, tool packages and fixtures, as one catalog and registry."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from workbench.config import WorkbenchConfig, bundled_fixtures_dir, load_config
from workbench.core.manifest import ToolManifest
from workbench.fixtures.cache import CatalogCache, cache_dir
from workbench.fixtures.catalog import Catalog, build_catalog
from workbench.surfaces.registry import SurfaceRegistry
from workbench.tools.agent_packages import agent_packages, agent_problems, keep_agent_tools_in_use
from workbench.tools.discovery import Discovery, FailedSpec, FoundPackage, discover
from workbench.tools.package import ToolPackage


@dataclass
class Project:
    config: WorkbenchConfig
    catalog: Catalog
    registry: SurfaceRegistry
    packages: list[FoundPackage] = field(default_factory=list)
    """The tool packages loaded, each with where it came from."""
    failed: list[FailedSpec] = field(default_factory=list)
    """Tool modules that did not import (their problems are in the catalog too)."""
    paths: tuple[Path, ...] = ()
    """Fixture paths given instead of the configured ones (``--fixtures``), if any."""

    def known_apis(self) -> dict[str, frozenset[str]]:
        """Each tool's API names that a transcript's call may be drawn by, as ``workbench
        import`` knows them: the catalog's tools and the agents' own."""
        known = {
            agent.identifier: frozenset(agent.manifest.api_names()) for agent in agent_packages()
        }
        return {**known, **self.catalog.api_names()}

    def manifest_for(self, tool: str) -> ToolManifest | None:
        """The manifest that draws ``tool``'s calls (its title, its APIs' titles): the
        catalog's, else an agent's own UI-only package's, which the catalog holds only while
        some fixture calls it (an imported call is drawn by it all the same)."""
        manifest = self.catalog.manifest_for(tool)
        if manifest is None:  # A project's own tool of an agent's name is in the catalog.
            agents = agent_packages()
            manifest = next((agent.manifest for agent in agents if agent.identifier == tool), None)
        return manifest


def build_registry(packages: Iterable[ToolPackage]) -> SurfaceRegistry:
    """The packages' surfaces; of two packages with one identifier the first wins (the catalog
    reports the conflict)."""
    return SurfaceRegistry.from_packages(packages)


def project_cache(config: WorkbenchConfig) -> CatalogCache:
    """The catalog cache of ``config``'s project (``.workbench/cache/`` beside its
    pyproject.toml, or the user's cache directory when there is no project)."""
    return CatalogCache(cache_dir(config.root, project=config.pyproject is not None))


def discover_packages(config: WorkbenchConfig, *, installed: bool = True) -> Discovery:
    """The project's tool packages: bundled (if it includes them), its ``tools``, and installed
    plugins — all of them with ``installed``, else only those ``plugins`` names."""
    plugins = config.plugins if installed or not isinstance(config.plugins, bool) else False
    return discover(
        bundled=config.include_bundled,
        config_specs=config.tool_modules,
        plugins=plugins,
        exclude=config.exclude,
        python_paths=config.python_paths,
        config_file=str(config.pyproject or "pyproject.toml"),
    )


def fixture_paths_for(
    config: WorkbenchConfig, packages: Sequence[ToolPackage], paths: Sequence[Path] = ()
) -> list[Path]:
    """What the catalog reads: ``paths`` alone when given; else the configured fixture dirs,
    the bundled fixtures (when the bundled tools are in) and the packages' own fixtures."""
    if paths:
        return list(paths)
    bundled = [bundled_fixtures_dir()] if config.include_bundled else []
    shipped = [package.fixtures for package in packages if package.fixtures is not None]
    fixture_paths: list[Path] = []
    seen: set[Path] = set()
    for path in [*bundled, *config.fixture_dirs, *shipped]:
        resolved = path.resolve()
        # A configured directory that is missing is reported; a package's is only optional.
        if resolved in seen or (path in shipped and not path.is_dir()):
            continue
        seen.add(resolved)
        fixture_paths.append(path)
    recordings = config.recordings
    if recordings.is_dir() and not any(
        recordings.resolve().is_relative_to(path.resolve()) for path in fixture_paths
    ):
        # Calls recorded in the live TUI are fixtures like any other: checked and shown.
        fixture_paths.append(recordings)
    return fixture_paths


def assemble(
    config: WorkbenchConfig,
    discovery: Discovery,
    paths: Sequence[Path] = (),
    *,
    cache: CatalogCache | None = None,
    jobs: int = 1,
) -> Project:
    """The catalog and registry of already-loaded packages.

    Unchanged files come from the project's catalog cache unless ``cache`` says otherwise
    (``CatalogCache.disabled()`` parses everything). ``jobs`` > 1 lets many files be parsed
    in forked processes: only for callers with no other threads (the CLI gates).
    """
    packages = discovery.packages
    # The agents' own tools draw imported calls in any project; the catalog keeps only the
    # APIs some fixture calls.
    agents = agent_packages(packages)
    catalog = build_catalog(
        fixture_paths_for(config, packages, paths),
        [package.manifest for package in packages],
        root=config.root,
        extra_problems=[*discovery.problems, *agent_problems()],
        cache=cache if cache is not None else project_cache(config),
        jobs=jobs,
        offered_manifests=[package.manifest for package in agents],
    )
    agents = keep_agent_tools_in_use(catalog, agents)
    for identifier, origin in discovery.origins().items():
        tool = catalog.tools.get(identifier)
        if tool is not None and tool.packaged:
            tool.origin = origin.describe()
    return Project(
        config=config,
        catalog=catalog,
        registry=build_registry([*packages, *agents]),
        packages=list(discovery.found),
        failed=list(discovery.failed),
        paths=tuple(paths),
    )


def open_project(
    paths: Sequence[Path] = (),
    *,
    config: WorkbenchConfig | None = None,
    installed: bool = True,
    cache: CatalogCache | None = None,
    jobs: int = 1,
) -> Project:
    """Load the configured project; ``paths`` (fixture files or dirs) replace its fixture dirs.

    ``installed=False`` is for the gates (check, audit, coverage, snapshots): they cover the
    project's own tools and only the plugins it names, never whatever else is installed.
    Unchanged files come from the project's catalog cache unless ``cache`` says otherwise;
    ``jobs`` as for :func:`assemble`.
    """
    config = config or load_config()
    return assemble(
        config, discover_packages(config, installed=installed), paths, cache=cache, jobs=jobs
    )
