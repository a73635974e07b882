"""What a tool author ships: a manifest, a runtime factory and surfaces."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.limits import Limits
from workbench.core.manifest import ToolManifest
from workbench.core.runtime import BaseRuntime
from workbench.surfaces.registry import SurfaceSet


@dataclass(frozen=True)
class RuntimeServices:
    """Services a runtime may be built with; tests pass in-memory or temporary ones."""

    workspace: Path = field(default_factory=Path.cwd)
    offline: bool = True
    """Use bundled data instead of the network where a tool can (the demo default)."""
    settings: dict[str, str] = field(default_factory=dict)
    limits: Limits = field(default_factory=Limits)
    """The size caps (``[tool.workbench.limits]``) a runtime applies to what it downloads."""

    @classmethod
    def from_environment(
        cls,
        workspace: Path | None = None,
        environ: dict[str, str] | None = None,
        *,
        limits: Limits | None = None,
    ) -> RuntimeServices:
        """Settings from ``WORKBENCH_*`` variables (``WORKBENCH_WEB_ONLINE`` -> ``web.online``)."""
        env = dict(os.environ if environ is None else environ)
        names = {
            "WORKBENCH_WEB_ONLINE": "web.online",
            "WORKBENCH_SEARXNG_URL": "web.searxng_url",
            "WORKBENCH_WEB_ALLOW": "web.allow",
            "WORKBENCH_SKILLS_PATH": "skills.paths",
            "WORKBENCH_TASK_DATABASE": "task.database",
        }
        settings = {key: env[name] for name, key in names.items() if env.get(name)}
        online = settings.get("web.online", "0") not in ("", "0", "false")
        return cls(
            workspace=workspace or Path.cwd(),
            offline=not online,
            settings=settings,
            limits=limits or Limits(),
        )


@dataclass(frozen=True)
class ToolPackage:
    manifest: ToolManifest
    surfaces: SurfaceSet = field(default_factory=SurfaceSet)
    create_runtime: Callable[[RuntimeServices], BaseRuntime] | None = None

    @property
    def identifier(self) -> str:
        return self.manifest.identifier
