"""Local system: files and commands in a workspace (manifest, runtime, surfaces)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from workbench.api import RuntimeServices, ToolPackage
from workbench.tools.local_system.manifest import IDENTIFIER, MANIFEST
from workbench.tools.local_system.surfaces import SURFACES

if TYPE_CHECKING:
    from workbench.tools.local_system.runtime import LocalSystemRuntime


def create_runtime(services: RuntimeServices) -> LocalSystemRuntime:
    """The runtime is imported here, not with the package: listing tools needs none."""
    from workbench.tools.local_system.commands import CommandRunner
    from workbench.tools.local_system.files import WorkspaceFiles
    from workbench.tools.local_system.runtime import LocalSystemRuntime

    return LocalSystemRuntime(WorkspaceFiles(services.workspace), CommandRunner())


PACKAGE = ToolPackage(manifest=MANIFEST, surfaces=SURFACES, create_runtime=create_runtime)


def __getattr__(name: str) -> Any:
    if name == "LocalSystemRuntime":
        from workbench.tools.local_system.runtime import LocalSystemRuntime

        return LocalSystemRuntime
    raise AttributeError(name)


__all__ = ["IDENTIFIER", "MANIFEST", "PACKAGE", "LocalSystemRuntime"]
