"""What a tool author ships; defined in :mod:`workbench.api`, which tools import it from.

Kept so ``from workbench.tools.package import ToolPackage`` goes on working.
"""

from __future__ import annotations

from workbench.api import ToolPackage

__all__ = ["ToolPackage"]
