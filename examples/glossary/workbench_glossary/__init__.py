"""A glossary of LLM-agent terms as a Workbench tool package: an example of a third-party tool.

It imports ``workbench.api`` and nothing else of Workbench. Installed, it declares
:data:`PACKAGE` under the ``workbench.tools`` entry point (see pyproject.toml), so
``workbench`` shows it in any project, with its fixtures, without configuration.
"""

from __future__ import annotations

from pathlib import Path

from workbench.api import RuntimeServices, ToolPackage

from .manifest import IDENTIFIER, MANIFEST
from .runtime import GlossaryRuntime
from .surfaces import SURFACES


def create_runtime(services: RuntimeServices) -> GlossaryRuntime:
    """The runtime: a lookup in memory needs none of the host's services."""
    del services
    return GlossaryRuntime()


PACKAGE = ToolPackage(
    manifest=MANIFEST,
    surfaces=SURFACES,
    create_runtime=create_runtime,
    fixtures=Path(__file__).parent / "fixtures",
)

__all__ = ["IDENTIFIER", "MANIFEST", "PACKAGE", "GlossaryRuntime"]
