"""Project configuration: ``[tool.workbench]`` in the nearest pyproject.toml.

```toml
[tool.workbench]
fixtures = ["fixtures"]            # fixture directories, relative to pyproject.toml
tools = ["my_package.tools:PACKAGE"]   # tool packages (module or module:attribute)
snapshots = "snapshots"            # where the snapshot suite writes
include_bundled = false            # also load Workbench's own reference tools

[tool.workbench.limits]            # caps on what sources send (see workbench.core.limits)
max_message_bytes = "16MiB"
```

Without a config, Workbench uses its bundled reference tools and fixtures.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import workbench
from workbench.core.limits import Limits, LimitsError


def bundled_fixtures_dir() -> Path:
    """The reference fixtures: inside the installed package, or beside it in a checkout."""
    package_dir = Path(workbench.__file__).resolve().parent
    installed = package_dir / "_bundled" / "fixtures"
    if installed.is_dir():
        return installed
    return package_dir.parent / "fixtures"


class ConfigError(Exception):
    """``[tool.workbench]`` is malformed; the message names the key."""


@dataclass(frozen=True)
class WorkbenchConfig:
    root: Path
    fixture_dirs: tuple[Path, ...]
    tool_modules: tuple[str, ...] = ()
    snapshot_dir: Path = field(default_factory=lambda: Path("snapshots"))
    include_bundled: bool = True
    pyproject: Path | None = None
    limits: Limits = field(default_factory=Limits)


def find_pyproject(start: Path) -> Path | None:
    for directory in (start, *start.parents):
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def _string_list(value: object, key: str) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return value
    raise ConfigError(f"[tool.workbench] {key} must be a string or a list of strings")


def load_config(start: Path | None = None) -> WorkbenchConfig:
    """Read the nearest pyproject.toml's ``[tool.workbench]``, or fall back to the bundled set."""
    start = (start or Path.cwd()).resolve()
    pyproject = find_pyproject(start)
    section: dict[str, object] | None = None
    if pyproject is not None:
        try:
            data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as error:
            raise ConfigError(f"{pyproject}: cannot read: {error}") from None
        tool_section = data.get("tool", {})
        section = tool_section.get("workbench") if isinstance(tool_section, dict) else None
    if section is None:
        return WorkbenchConfig(
            root=start, fixture_dirs=(bundled_fixtures_dir(),), snapshot_dir=start / "snapshots"
        )
    assert pyproject is not None
    root = pyproject.parent
    fixture_dirs = tuple(
        (root / path).resolve()
        for path in _string_list(section.get("fixtures", ["fixtures"]), "fixtures")
    )
    tools = tuple(_string_list(section.get("tools", []), "tools"))
    snapshots = section.get("snapshots", "snapshots")
    if not isinstance(snapshots, str):
        raise ConfigError("[tool.workbench] snapshots must be a string")
    include_bundled = section.get("include_bundled")
    if include_bundled is None:
        # Workbench's own checkout lists the bundled fixtures; other projects opt in.
        include_bundled = bundled_fixtures_dir().resolve() in fixture_dirs
    if not isinstance(include_bundled, bool):
        raise ConfigError("[tool.workbench] include_bundled must be true or false")
    try:
        limits = Limits().overridden(section.get("limits"), where="[tool.workbench.limits]")
    except LimitsError as error:
        raise ConfigError(f"{pyproject}: {error}") from None
    return WorkbenchConfig(
        root=root,
        fixture_dirs=fixture_dirs,
        tool_modules=tools,
        snapshot_dir=(root / snapshots).resolve(),
        include_bundled=include_bundled,
        pyproject=pyproject,
        limits=limits,
    )
