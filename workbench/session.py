"""Build a live session from command-line options: sources, manager, surfaces and policy."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.config import WorkbenchConfig, load_config
from workbench.core.identifiers import slug
from workbench.core.manifest import ToolApi, ToolManifest
from workbench.core.runtime import RuntimeServices
from workbench.fixtures.files import find_files
from workbench.policy.engine import ApprovalMode, PolicyContext
from workbench.sources.health import SourcesReport
from workbench.sources.manager import ToolManager
from workbench.sources.mcp_config import expand_env, parse_header, read_mcp_config
from workbench.sources.mcp_source import DEFAULT_LOG_LEVEL, McpServerSpec, McpSource
from workbench.sources.python_source import PythonToolSource
from workbench.sources.timeouts import CallTimeout, resolve_call_timeout
from workbench.surfaces.registry import SurfaceRegistry
from workbench.tools import settings_variables
from workbench.tools.agent_packages import AGENT_ORIGIN, agent_packages
from workbench.tools.discovery import discover
from workbench.tools.package import ToolPackage


class SetupError(ValueError):
    """Options that cannot make a session (a bad config file, a bad --tools spec)."""


@dataclass
class LiveOptions:
    mcp: Sequence[str] = ()
    config_files: Sequence[Path] = ()
    tool_modules: Sequence[str] = ()
    skills: Sequence[Path] = ()
    include_bundled: bool = True
    include_demo: bool = False
    workspace: Path | None = None
    approval: ApprovalMode = "manual"
    allow: Sequence[str] = ()
    allow_hosts: Sequence[str] = ()
    handshake_timeout_s: float = 20.0
    timeout_s: float | None = None
    """``--timeout``: the hard limit on every call (else the API's, else the global default)."""
    extend_on_progress_s: float | None = None
    """``--extend-on-progress``: progress restarts the timeout, up to this in all."""
    roots: Sequence[Path] = ()
    """``--root``: the roots MCP servers are told (default: none)."""
    oauth: bool = False
    """``--oauth``: sign in to ``--mcp`` URLs that ask for it (authorization code + PKCE)."""
    open_browser: bool = False
    """``--open-browser``: open the sign-in page in a browser (else only print its URL)."""
    inherit_env: bool = False
    """``--inherit-env``: stdio servers get this process's whole environment (default: the
    SDK's minimum plus what their config names)."""
    log_level: str | None = DEFAULT_LOG_LEVEL
    """``--log-level``: the level MCP servers are asked to log at (``logging/setLevel``)."""
    headers: Sequence[str] = ()
    """``--header 'Name: value'``: sent to every ``--mcp`` URL (``${VAR}`` from the environment)."""
    catalog: bool = True
    """List MCP servers' resources, templates and prompts (``call`` and ``tools`` show none)."""


@dataclass
class LiveSession:
    manager: ToolManager
    registry: SurfaceRegistry
    policy: PolicyContext
    services: RuntimeServices
    config: WorkbenchConfig
    problems: list[str] = field(default_factory=list)
    timeout_s: float | None = None
    extend_on_progress_s: float | None = None
    origins: dict[tuple[str, str], str] = field(default_factory=dict)
    """(source name, tool identifier) -> where the in-process package came from, in words."""

    @property
    def secrets(self) -> list[str]:
        """Header values and OAuth tokens and secrets sent to MCP servers: never written into a
        fixture."""
        values: list[str] = []
        for source in self.manager.sources:
            if isinstance(source, McpSource):
                values.extend(value for value in source.spec.headers.values() if value)
                values.extend(source.oauth_secrets())
        return values

    def call_timeout(self, args: dict[str, Any], api: ToolApi | None) -> CallTimeout:
        """The deadline of one call with ``args`` to ``api`` under this session's options."""
        return resolve_call_timeout(
            args,
            api,
            override_s=self.timeout_s,
            extend_on_progress_s=self.extend_on_progress_s,
        )

    def report(self) -> SourcesReport:
        """How the sources started, and what did not load (after ``manager.start()``)."""
        return SourcesReport.of(self.manager, self.problems)

    @property
    def fixture_dir(self) -> Path:
        """Where recorded calls are saved: the project's first fixture directory (``fixtures/``
        when it lists none: its tool packages ship their own)."""
        if self.config.fixture_dirs:
            return self.config.fixture_dirs[0]
        return self.config.root / "fixtures"


def _skills_package(root: Path) -> ToolPackage:
    from workbench.tools.skills.library import SkillLibrary
    from workbench.tools.skills.manifest import MANIFEST
    from workbench.tools.skills.runtime import SkillsRuntime
    from workbench.tools.skills.surfaces import SURFACES

    identifier = slug(root.resolve().name, fallback="skills")
    manifest = MANIFEST.model_copy(
        update={
            "identifier": identifier,
            "meta": MANIFEST.meta.model_copy(update={"title": f"Skills · {root.name}"}),
        }
    )
    return ToolPackage(
        manifest=manifest,
        surfaces=SURFACES,
        create_runtime=lambda services: SkillsRuntime(SkillLibrary([root])),
    )


def http_manifests(config: WorkbenchConfig) -> list[ToolManifest]:
    """Manifest files in the fixture directories whose APIs name a URL."""
    _, manifest_files, _ = find_files(list(config.fixture_dirs))
    if not manifest_files:
        return []  # Most projects: the loader and its models are not even imported.
    from workbench.fixtures.loader import load_manifest_file

    manifests = []
    for path in manifest_files:
        manifest, _problems = load_manifest_file(path)
        if manifest is not None and any(api.url for api in manifest.api):
            manifests.append(manifest)
    return manifests


def build_session(options: LiveOptions, *, config: WorkbenchConfig | None = None) -> LiveSession:
    """Sources for every option; nothing is started yet."""
    config = config or load_config()
    workspace = (options.workspace or Path.cwd()).resolve()
    # No folder is offered unless the user names one: a server told about the working
    # directory may widen what it reads and writes to it (server-filesystem, server-pdf).
    roots = [Path(root).resolve() for root in options.roots]
    for root in roots:
        if not root.is_dir():
            raise SetupError(f"--root {root}: not a directory")
    headers: dict[str, str] = {}
    for header in options.headers:
        try:
            name, value = parse_header(header)
            headers[name] = expand_env(value, where=f"--header {name}")
        except ValueError as error:
            raise SetupError(str(error)) from None

    def mcp_source(spec: McpServerSpec, *, limits: Any = None) -> McpSource:
        if spec.inherit_env is None:
            spec.inherit_env = options.inherit_env
        return McpSource(
            spec,
            handshake_timeout_s=options.handshake_timeout_s,
            limits=limits,
            roots=roots,
            log_level=options.log_level,
            catalog=options.catalog,
        )

    manager = ToolManager()
    problems: list[str] = []

    discovery = discover(
        bundled=options.include_bundled and config.include_bundled,
        config_specs=config.tool_modules,
        option_specs=options.tool_modules,
        plugins=config.plugins,
        exclude=config.exclude,
        python_paths=config.python_paths,
        config_file=str(config.pyproject or "pyproject.toml"),
    )
    problems.extend(problem.format() for problem in discovery.problems)
    packages: list[ToolPackage] = discovery.packages
    origin_of = {id(found.package): found.origin.describe() for found in discovery.found}
    for skills_root in options.skills:
        if not Path(skills_root).is_dir():
            raise SetupError(f"--skills {skills_root}: not a directory")
        skills_package = _skills_package(Path(skills_root))
        packages.append(skills_package)
        origin_of[id(skills_package)] = f"--skills {skills_root}"
    # The agents' own tools are UI-only: listed beside the in-process tools, so that picking
    # one says it cannot be called (a session with no in-process tools gains no source for them).
    for agent_package in agent_packages(packages) if packages else []:
        packages.append(agent_package)
        origin_of[id(agent_package)] = AGENT_ORIGIN
    registry = SurfaceRegistry.from_packages(packages)
    # A source holds one package per identifier: a package named like an earlier one (a
    # --skills folder called "calculator") goes to another source, so the manager reports the
    # conflict instead of one silently replacing the other.
    groups: list[list[ToolPackage]] = []
    for package in packages:
        group = next(
            (
                items
                for items in groups
                if all(item.identifier != package.identifier for item in items)
            ),
            None,
        )
        if group is None:
            group = []
            groups.append(group)
        group.append(package)
    # Each tool package names the environment variables it reads (web.online, task.database).
    services = RuntimeServices.from_environment(
        workspace, limits=config.limits, variables=settings_variables(packages)
    )
    origins: dict[tuple[str, str], str] = {}
    for group in groups:
        source = PythonToolSource("python", group, services)
        manager.add(source)
        for package in group:
            origins[(source.name, package.identifier)] = origin_of[id(package)]

    if options.include_demo:
        from workbench.sources.demo_server import build_server

        # In-process, only the legacy handshake has a back-channel for the demo's elicitation
        # and sampling (the modern in-process path raises NoBackChannelError).
        manager.add(mcp_source(McpServerSpec(name="demo", server=build_server(), mode="legacy")))
    for value in options.mcp:
        try:
            spec = McpServerSpec.from_argument(value)
        except ValueError as error:
            raise SetupError(str(error)) from None
        if spec.url:
            spec.headers.update(headers)
            if options.oauth:
                from workbench.sources.oauth import OAuthSettings

                spec.oauth = OAuthSettings(open_browser=options.open_browser)
        manager.add(mcp_source(spec, limits=config.limits))
    for path in options.config_files:
        for spec in read_mcp_config(Path(path)):
            manager.add(mcp_source(spec, limits=config.limits))
    manifests = http_manifests(config)
    if manifests:
        from workbench.sources.http_source import HttpToolSource  # Imports httpx.

        allow = [
            *options.allow_hosts,
            *[item for item in services.settings.get("web.allow", "").split(",") if item],
        ]
        manager.add(
            HttpToolSource("http", manifests, allow=allow, max_bytes=config.limits.max_body_bytes)
        )

    policy = PolicyContext(
        mode=options.approval, allow_list=frozenset(options.allow), workspace=workspace
    )
    return LiveSession(
        manager=manager,
        registry=registry,
        policy=policy,
        services=services,
        config=config,
        problems=problems,
        timeout_s=options.timeout_s,
        extend_on_progress_s=options.extend_on_progress_s,
        origins=origins,
    )
