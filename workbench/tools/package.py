"""What a tool author ships: a manifest, a runtime factory, surfaces and, optionally, fixtures."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.manifest import ToolManifest
from workbench.core.runtime import BaseRuntime, RuntimeServices
from workbench.surfaces.registry import SurfaceSet


@dataclass(frozen=True)
class ToolPackage:
    """A tool as its author ships it: manifest, surfaces and how to build its runtime."""

    manifest: ToolManifest
    surfaces: SurfaceSet = field(default_factory=SurfaceSet)
    create_runtime: Callable[[RuntimeServices], BaseRuntime] | None = None
    fixtures: Path | None = None
    """A directory of fixture files shipped with the package (``Path(__file__).parent /
    "fixtures"``): wherever the package is installed, the workbench shows them with it."""

    @property
    def identifier(self) -> str:
        return self.manifest.identifier
