"""Example tool: a Workbench tool package.

Its manifest, runtime, surfaces and fixtures live side by side in this folder.

pyproject.toml lists it under ``[tool.workbench] tools``; ``workbench dev`` shows
every surface of every fixture and redraws them as you save. Published with an entry
point in the ``workbench.tools`` group, it shows wherever it is installed, fixtures too.
"""

from __future__ import annotations

from pathlib import Path

from workbench.api import RuntimeServices, ToolPackage

from .manifest import IDENTIFIER, MANIFEST
from .runtime import ExampleToolRuntime
from .surfaces import SURFACES


def create_runtime(services: RuntimeServices) -> ExampleToolRuntime:
    """The runtime, given what the host offers: workspace, settings and size limits."""
    del services
    return ExampleToolRuntime()


PACKAGE = ToolPackage(
    manifest=MANIFEST,
    surfaces=SURFACES,
    create_runtime=create_runtime,
    fixtures=Path(__file__).parent / "fixtures",
)

__all__ = ["IDENTIFIER", "MANIFEST", "PACKAGE", "ExampleToolRuntime"]
