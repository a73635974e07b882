"""Project configuration: ``[tool.workbench]`` in the nearest pyproject.toml.

```toml
[tool.workbench]
fixtures = ["fixtures"]            # fixture directories, relative to pyproject.toml
tools = ["my_package.tools:PACKAGE"]   # tool packages (module or module:attribute)
snapshots = "snapshots"            # where the snapshot suite writes
reviews = "snapshots/reviews.yaml" # review decisions (default: reviews.yaml in snapshots)
include_bundled = false            # also load Workbench's own reference tools
recordings = "recordings"          # where the live TUI saves recorded calls (checked too)
screenshots = "."                  # where the TUI saves screenshots
plugins = true                     # installed tool packages (entry points), or a list of names
exclude = ["some-tool"]            # tools or entry points to leave out, whatever their origin
pythonpath = ["."]                 # where the tools modules are imported from (default: here)
hosts = ["claude-code", "codex"]   # hosts the audit holds the project to (default: none)
import_map = {github__list_issues = "issues.list"}  # `workbench import`: call name -> TOOL.API

[tool.workbench.limits]            # caps on what sources send (see workbench.core.limits)
max_message_bytes = "16MiB"
```

The table is validated by a pydantic model; a mistake is a :class:`ConfigError` whose
problems read ``pyproject.toml:LINE: tool.workbench.KEY: message``. Without a config,
Workbench uses its bundled reference tools and fixtures.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, ValidationError

import workbench
from workbench.core.limits import Limits, LimitsError
from workbench.core.problems import Problem, problems_from_validation
from workbench.core.source_map import SourceMap

SECTION = ("tool", "workbench")


def bundled_fixtures_dir() -> Path:
    """The reference fixtures: inside the installed package, or beside it in a checkout."""
    package_dir = Path(workbench.__file__).resolve().parent
    installed = package_dir / "_bundled" / "fixtures"
    if installed.is_dir():
        return installed
    return package_dir.parent / "fixtures"


class ConfigError(Exception):
    """A configuration file is malformed; each problem names the file, line and key."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(problem.format() for problem in self.problems))


def read_config_text(path: Path) -> str:
    """The text of a configuration file; :class:`ConfigError` saying why it cannot be read
    (missing, a folder, not UTF-8)."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else str(error)
        problem = Problem(file=str(path), message=f"cannot read: {reason or error}")
        raise ConfigError([problem]) from None


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return value
    raise ValueError("must be a string or a list of strings")


Strings = Annotated[list[str], PlainValidator(_strings)]


class HostsTable(BaseModel):
    """``[tool.workbench.hosts]``: targeted hosts and the project's own host profiles."""

    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)

    target: Strings = Field(default_factory=list)
    file: str | None = None
    """A YAML (or JSON) file of profiles, NAME -> profile, relative to pyproject.toml."""
    profiles: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """Inline profiles, NAME -> profile; a bundled NAME is overridden key by key."""


class WorkbenchTable(BaseModel):
    """``[tool.workbench]`` as written (paths still relative to pyproject.toml)."""

    # Strict: a quoted "false" is not a boolean here, and an unknown key is a typo to report.
    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)

    fixtures: Strings = Field(default_factory=lambda: ["fixtures"])
    tools: Strings = Field(default_factory=list)
    snapshots: str = "snapshots"
    reviews: str | None = None
    """The review decisions file; default ``reviews.yaml`` in the snapshot directory."""
    include_bundled: bool | None = None
    """Unset: load the bundled tools only when the fixture directories include theirs."""
    recordings: str | None = None
    """Where the live TUI saves recorded calls (default: ``recordings`` beside pyproject.toml);
    loaded with the fixtures, so ``workbench check`` covers them."""
    screenshots: str | None = None
    """Where the TUI saves screenshots (default: the working directory)."""
    limits: dict[str, Any] | None = None
    """Size caps (:class:`~workbench.core.limits.Limits`), checked by ``Limits.overridden``."""
    plugins: bool | Strings = True
    """Tool packages installed packages declare under the ``workbench.tools`` entry-point group:
    all of them (``true``), none, or the named entry points only."""
    exclude: Strings = Field(default_factory=list)
    """Tool identifiers or entry-point names to leave out, whatever their origin."""
    pythonpath: Strings = Field(default_factory=lambda: ["."])
    """Directories (relative to pyproject.toml) put first on ``sys.path`` before the ``tools``
    modules are imported, so a project's own tool packages load without being installed."""
    hosts: Strings | HostsTable | None = None
    """The hosts the audit holds the project to (a list of names), or a table with ``target``,
    a profiles ``file`` and inline ``profiles`` (see :mod:`workbench.hosts`)."""
    transcripts: Strings = Field(default_factory=list)
    """Agent sessions (files or globs, relative to pyproject.toml) the TUI's tree lists: each
    opens in the conversation view, as ``workbench open`` does."""
    import_map: dict[str, str] = Field(default_factory=dict)
    """``workbench import``: a name in a transcript (``Bash``, ``mcp__SERVER__TOOL``) -> the
    project's ``TOOL.API`` that draws its calls."""


@dataclass(frozen=True)
class WorkbenchConfig:
    root: Path
    fixture_dirs: tuple[Path, ...]
    tool_modules: tuple[str, ...] = ()
    snapshot_dir: Path = field(default_factory=lambda: Path("snapshots"))
    include_bundled: bool = True
    pyproject: Path | None = None
    limits: Limits = field(default_factory=Limits)
    recordings_dir: Path | None = None
    """Where recorded calls go; ``None``: ``recordings`` under the working directory."""
    screenshot_dir: Path | None = None
    """Where screenshots go; ``None``: the working directory."""

    @property
    def recordings(self) -> Path:
        """The folder recorded calls are saved into (and loaded from, when it exists)."""
        return self.recordings_dir or (self.root / "recordings")

    reviews: Path | None = None
    """Set when ``[tool.workbench] reviews`` names the file; see :attr:`review_file`."""

    @property
    def review_file(self) -> Path:
        """Where review decisions are kept: beside the snapshots they judge, by default."""
        return self.reviews if self.reviews is not None else self.snapshot_dir / "reviews.yaml"

    plugins: bool | tuple[str, ...] = True
    """All installed tool packages, none, or the named entry points (``[tool.workbench]
    plugins``); named ones count as the project's own in checks and snapshots."""
    exclude: tuple[str, ...] = ()
    python_paths: tuple[Path, ...] = ()
    target_hosts: tuple[str, ...] = ()
    """Hosts the audit holds the project to (``[tool.workbench] hosts``); none by default."""
    host_file: Path | None = None
    """The project's own host profiles file, when it names one."""
    host_profiles: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Inline host profiles from pyproject.toml, validated by :mod:`workbench.hosts`."""
    import_map: dict[str, str] = field(default_factory=dict)
    """``[tool.workbench] import_map``: transcript name -> ``TOOL.API`` (``workbench import``)."""
    transcripts: tuple[Path, ...] = ()
    """``[tool.workbench] transcripts``: the sessions the tree lists (globs expanded)."""
    transcript_folders: tuple[Path, ...] = ()
    """The folders those patterns search (each glob's fixed part): a session written there
    later is listed at the next start."""


def find_pyproject(start: Path) -> Path | None:
    return next((path for path in pyproject_candidates(start) if path.is_file()), None)


def pyproject_candidates(start: Path) -> Iterator[Path]:
    """Where :func:`find_pyproject` looks, in order: ``start`` and each folder above it."""
    for directory in (start, *start.parents):
        yield directory / "pyproject.toml"


_TABLE_HEADER = re.compile(r"^\s*\[\s*tool\s*\.\s*(?:workbench|\"workbench\")\s*\]\s*(?:#.*)?$")
_SUBTABLE_HEADER = re.compile(r"^\s*\[\s*tool\s*\.\s*workbench\s*\.\s*([A-Za-z0-9_-]+)\s*\]")
_ANY_HEADER = re.compile(r"^\s*\[\[?\s*[A-Za-z0-9_\"'. -]+\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"^\s*[\"']?([A-Za-z0-9_-]+)[\"']?\s*=")
_DOTTED_KEY = re.compile(r"^\s*(?:tool\s*\.\s*)?workbench\s*\.\s*([A-Za-z0-9_-]+)\s*=")
_TOML_POSITION = re.compile(r"\(at line (\d+), column \d+\)")


def toml_lines(text: str) -> SourceMap:
    """Lines of ``[tool.workbench]`` and its keys, found by scanning the text.

    tomllib keeps no positions; the table is almost always written as a header with one key
    per line, and dotted keys (``workbench.fixtures = ...`` under ``[tool]``) are found too.
    """
    source = SourceMap()
    inside = False
    for number, line in enumerate(text.splitlines(), start=1):
        if _TABLE_HEADER.match(line):
            inside = True
            source.lines.setdefault(SECTION, number)
            continue
        subtable = _SUBTABLE_HEADER.match(line)
        if subtable is not None:  # [tool.workbench.limits]: the key's line is its header
            source.lines.setdefault((*SECTION, subtable.group(1)), number)
            inside = False
            continue
        if _ANY_HEADER.match(line):
            inside = False
            continue
        dotted = _DOTTED_KEY.match(line)
        key = _KEY.match(line) if inside else None
        if dotted is not None:
            source.lines.setdefault(SECTION, number)
            source.lines.setdefault((*SECTION, dotted.group(1)), number)
        elif key is not None:
            source.lines.setdefault((*SECTION, key.group(1)), number)
    return source


def _read_table(pyproject: Path) -> tuple[str, dict[str, Any] | None]:
    """The file's text and its raw ``[tool.workbench]`` table (``None`` when there is none)."""
    file = str(pyproject)
    text = read_config_text(pyproject)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        position = _TOML_POSITION.search(str(error))
        line = int(position.group(1)) if position else None
        message = _TOML_POSITION.sub("", str(error)).strip()
        raise ConfigError(
            [Problem(file=file, line=line, message=f"not valid TOML: {message}", code="syntax")]
        ) from None
    tool_table = data.get("tool", {})
    table = tool_table.get("workbench") if isinstance(tool_table, dict) else None
    if table is None:
        return text, None
    if not isinstance(table, dict):
        problem = Problem(
            file=file,
            line=toml_lines(text).line_for(SECTION),
            field="tool.workbench",
            message="must be a table",
        )
        raise ConfigError([problem])
    return text, table


def parse_table(file: str, text: str, table: dict[str, Any]) -> WorkbenchTable:
    """Validate the table read from ``text``; a :class:`ConfigError` locates every mistake."""
    try:
        return WorkbenchTable.model_validate(table)
    except ValidationError as error:
        problems = problems_from_validation(error, file, toml_lines(text), prefix=SECTION)
        raise ConfigError(problems) from None


def load_config(start: Path | None = None) -> WorkbenchConfig:
    """Read the nearest pyproject.toml's ``[tool.workbench]``, or fall back to the bundled set."""
    start = (start or Path.cwd()).resolve()
    pyproject = find_pyproject(start)
    text, table = _read_table(pyproject) if pyproject is not None else ("", None)
    if pyproject is None or table is None:
        return WorkbenchConfig(
            root=start, fixture_dirs=(bundled_fixtures_dir(),), snapshot_dir=start / "snapshots"
        )
    settings = parse_table(str(pyproject), text, table)
    root = pyproject.parent
    fixture_dirs = tuple((root / path).resolve() for path in settings.fixtures)
    include_bundled = settings.include_bundled
    if include_bundled is None:
        # Workbench's own checkout lists the bundled fixtures; other projects opt in.
        include_bundled = bundled_fixtures_dir().resolve() in fixture_dirs
    try:
        limits = Limits().overridden(settings.limits, where="[tool.workbench.limits]")
    except LimitsError as error:
        line = toml_lines(text).line_for((*SECTION, "limits"))
        problem = Problem(str(pyproject), str(error), line=line, field="tool.workbench.limits")
        raise ConfigError([problem]) from None
    return WorkbenchConfig(
        root=root,
        fixture_dirs=fixture_dirs,
        tool_modules=tuple(settings.tools),
        snapshot_dir=(root / settings.snapshots).resolve(),
        include_bundled=include_bundled,
        pyproject=pyproject,
        limits=limits,
        recordings_dir=(root / settings.recordings).resolve() if settings.recordings else None,
        screenshot_dir=(root / settings.screenshots).resolve() if settings.screenshots else None,
        reviews=(root / settings.reviews).resolve() if settings.reviews else None,
        plugins=settings.plugins if isinstance(settings.plugins, bool) else tuple(settings.plugins),
        exclude=tuple(settings.exclude),
        python_paths=tuple((root / path).resolve() for path in settings.pythonpath),
        import_map=dict(settings.import_map),
        transcripts=_transcripts(root, settings.transcripts),
        transcript_folders=_glob_folders(root, settings.transcripts),
        **_host_settings(settings.hosts, root),
    )


def _transcripts(root: Path, patterns: list[str]) -> tuple[Path, ...]:
    """Each pattern's files, in order (a glob's sorted), each once; a plain path is kept even
    when it does not exist yet (the tree says so when it is opened)."""
    found: dict[Path, None] = {}
    for pattern in patterns:
        if any(character in pattern for character in "*?["):
            for path in sorted(root.glob(pattern)):
                if path.is_file():
                    found[path.resolve()] = None
        else:
            found[(root / pattern).resolve()] = None
    return tuple(found)


def _glob_folders(root: Path, patterns: list[str]) -> tuple[Path, ...]:
    """The folder each glob of ``patterns`` searches: its parts before the first with a
    wildcard."""
    found: dict[Path, None] = {}
    for pattern in patterns:
        parts = Path(pattern).parts
        fixed = next(
            (index for index, part in enumerate(parts) if any(c in part for c in "*?[")), None
        )
        if fixed is not None:
            found[(root.joinpath(*parts[:fixed])).resolve()] = None
    return tuple(found)


def _host_settings(hosts: list[str] | HostsTable | None, root: Path) -> dict[str, Any]:
    if hosts is None:
        return {}
    if isinstance(hosts, list):
        return {"target_hosts": tuple(hosts)}
    return {
        "target_hosts": tuple(hosts.target),
        "host_file": (root / hosts.file).resolve() if hosts.file else None,
        "host_profiles": dict(hosts.profiles),
    }
