"""The host profiles a project sees: the bundled ones, then the project's own over them.

A project adds hosts or overrides bundled ones key by key (``[tool.workbench.hosts]`` in
pyproject.toml, or the YAML file it names). A mistake is a located :class:`Problem`
(``file:line: field: message``) and leaves the other profiles usable.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from workbench.core.problems import Problem, problems_from_validation
from workbench.core.source_map import SourceError, SourceMap, load_with_lines
from workbench.hosts.profile import HostProfile

if TYPE_CHECKING:
    from workbench.config import WorkbenchConfig

PROFILES_DIR = Path(__file__).resolve().parent / "profiles"
MAX_PROFILE_BYTES = 1 << 20
"""A host profile is a page of settings; a bigger file is refused, not parsed."""


@dataclass(frozen=True)
class HostSet:
    """Every known host by name, the project's targets, and what was wrong on the way."""

    profiles: dict[str, HostProfile]
    targets: tuple[str, ...] = ()
    problems: list[Problem] = field(default_factory=list)
    origins: dict[str, str] = field(default_factory=dict)
    """Where each profile was read from (a file, or ``file [tool.workbench.hosts]``)."""

    def get(self, name: str) -> HostProfile:
        """The host ``name``; :class:`LookupError` names the known ones."""
        try:
            return self.profiles[name]
        except KeyError:
            known = ", ".join(sorted(self.profiles))
            raise LookupError(f"unknown host {name!r} (hosts: {known})") from None

    def targeted(self) -> list[HostProfile]:
        """The targeted hosts that exist (an unknown target is among the problems)."""
        return [self.profiles[name] for name in self.targets if name in self.profiles]


@cache
def bundled_hosts() -> HostSet:
    """The profiles that ship with Workbench (read once per process)."""
    profiles: dict[str, HostProfile] = {}
    problems: list[Problem] = []
    origins: dict[str, str] = {}
    for path in sorted(PROFILES_DIR.glob("*.yaml")):
        raw, source, read_problems = _read(path)
        problems.extend(read_problems)
        if raw is None:
            continue
        profile = _validate(raw, str(path), source, ())
        if isinstance(profile, HostProfile):
            profiles[profile.name] = profile
            origins[profile.name] = str(path)
        else:
            problems.extend(profile)
    return HostSet(profiles=profiles, problems=problems, origins=origins)


def load_hosts(config: WorkbenchConfig | None = None) -> HostSet:
    """The bundled hosts with the project's own over them, and the project's targets."""
    base = bundled_hosts()
    if config is None:
        return base
    profiles = dict(base.profiles)
    origins = dict(base.origins)
    problems = list(base.problems)
    raw_by_name = {name: profile.model_dump(mode="json") for name, profile in profiles.items()}
    if config.host_file is not None:
        display = _display(config.host_file, config.root)
        raw, source, read_problems = _read(config.host_file, display)
        problems.extend(read_problems)
        if raw is not None and not isinstance(raw, Mapping):
            problems.append(Problem(display, "must map host names to profiles", line=1))
        elif raw is not None:
            _add(raw, display, source, (), raw_by_name, profiles, origins, problems)
    if config.host_profiles:
        pyproject = config.pyproject
        display = _display(pyproject, config.root) if pyproject else "pyproject.toml"
        source = _toml_profile_lines(pyproject) if pyproject else SourceMap()
        prefix = ("tool", "workbench", "hosts", "profiles")
        _add(
            config.host_profiles, display, source, prefix, raw_by_name, profiles, origins, problems
        )
    for name in config.target_hosts:
        if name not in profiles:
            file = _display(config.pyproject, config.root) if config.pyproject else "pyproject.toml"
            known = ", ".join(sorted(profiles))
            problems.append(
                Problem(
                    file,
                    f"unknown host {name!r} (hosts: {known})",
                    line=_toml_key_line(config.pyproject, "hosts"),
                    field="tool.workbench.hosts",
                )
            )
    return HostSet(
        profiles=profiles, targets=config.target_hosts, problems=problems, origins=origins
    )


def _add(
    raw: Mapping[str, Any],
    file: str,
    source: SourceMap,
    prefix: tuple[str, ...],
    raw_by_name: dict[str, dict[str, Any]],
    profiles: dict[str, HostProfile],
    origins: dict[str, str],
    problems: list[Problem],
) -> None:
    for name, table in raw.items():
        where = (*prefix, str(name))
        if not isinstance(table, Mapping):
            problems.append(
                Problem(file, "must be a table", line=source.line_for(where), field=".".join(where))
            )
            continue
        # A bundled host is overridden key by key; a new one is written whole.
        merged = _merge(raw_by_name.get(str(name), {}), {"name": str(name), **table})
        profile = _validate(merged, file, source, where)
        if isinstance(profile, HostProfile):
            profiles[profile.name] = profile
            raw_by_name[profile.name] = merged
            origins[profile.name] = file
        else:
            problems.extend(profile)


def _validate(
    raw: Any, file: str, source: SourceMap, prefix: tuple[str, ...]
) -> HostProfile | list[Problem]:
    try:
        return HostProfile.model_validate(raw)
    except ValidationError as error:
        return problems_from_validation(error, file, source, prefix=prefix)


def _merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _read(path: Path, display: str | None = None) -> tuple[Any, SourceMap, list[Problem]]:
    file = display or str(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_PROFILE_BYTES + 1)
    except OSError as error:
        return None, SourceMap(), [Problem(file, f"cannot read: {error.strerror or error}")]
    if len(data) > MAX_PROFILE_BYTES:
        return None, SourceMap(), [Problem(file, "larger than 1 MiB: not a host profile file")]
    try:
        loaded = load_with_lines(data.decode("utf-8"))
    except UnicodeDecodeError:
        return None, SourceMap(), [Problem(file, "not UTF-8 text")]
    except SourceError as error:
        return None, SourceMap(), [Problem(file, error.message, line=error.line, code="syntax")]
    return loaded.data, loaded.source, []


def _display(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


_PROFILE_HEADER = re.compile(
    r"^\s*\[\s*tool\.workbench\.hosts\.profiles\.\"?([A-Za-z0-9_-]+)\"?((?:\.[A-Za-z0-9_-]+)*)\s*\]"
)
_HEADER = re.compile(r"^\s*\[")
_KEY = re.compile(r"^\s*[\"']?([A-Za-z0-9_-]+)[\"']?\s*=")


def _toml_profile_lines(pyproject: Path) -> SourceMap:
    """Lines of ``[tool.workbench.hosts.profiles.NAME(.PART)]`` tables and their keys.

    tomllib keeps no positions; profiles are written as tables with one key per line.
    """
    source = SourceMap()
    try:
        text = pyproject.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return source
    current: tuple[str, ...] | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        header = _PROFILE_HEADER.match(line)
        if header is not None:
            parts = tuple(part for part in header.group(2).split(".") if part)
            current = ("tool", "workbench", "hosts", "profiles", header.group(1), *parts)
            source.lines.setdefault(current, number)
            continue
        if _HEADER.match(line):
            current = None
            continue
        key = _KEY.match(line)
        if key is not None and current is not None:
            source.lines.setdefault((*current, key.group(1)), number)
    return source


def _toml_key_line(pyproject: Path | None, key: str) -> int | None:
    if pyproject is None:
        return None
    from workbench.config import SECTION, toml_lines

    try:
        text = pyproject.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return toml_lines(text).line_for((*SECTION, key))


def names(hosts: Iterable[HostProfile]) -> str:
    return ", ".join(host.name for host in hosts)
