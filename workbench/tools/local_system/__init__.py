"""Local system: files and commands in a workspace (manifest, runtime, surfaces)."""

from __future__ import annotations

from workbench.core.runtime import RuntimeServices
from workbench.tools.local_system.commands import CommandRunner
from workbench.tools.local_system.files import WorkspaceFiles
from workbench.tools.local_system.manifest import IDENTIFIER, MANIFEST
from workbench.tools.local_system.runtime import LocalSystemRuntime
from workbench.tools.local_system.surfaces import SURFACES
from workbench.tools.package import ToolPackage


def create_runtime(services: RuntimeServices) -> LocalSystemRuntime:
    return LocalSystemRuntime(WorkspaceFiles(services.workspace), CommandRunner())


PACKAGE = ToolPackage(manifest=MANIFEST, surfaces=SURFACES, create_runtime=create_runtime)

__all__ = ["IDENTIFIER", "MANIFEST", "PACKAGE", "LocalSystemRuntime"]
