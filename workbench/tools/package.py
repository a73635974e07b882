"""What a tool author ships: a manifest, a runtime factory and surfaces."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

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


@dataclass(frozen=True)
class ToolPackage:
    manifest: ToolManifest
    surfaces: SurfaceSet = field(default_factory=SurfaceSet)
    create_runtime: Callable[[RuntimeServices], BaseRuntime] | None = None

    @property
    def identifier(self) -> str:
        return self.manifest.identifier
