"""Codex's built-in tools as a UI-only tool package: a manifest and surfaces, no runtime.

The tools run inside Codex; Workbench draws the calls an imported session made of them.
"""

from __future__ import annotations

from workbench.agents.codex.manifest import FAMILIES, MANIFEST
from workbench.agents.surfaces.families import surface_set
from workbench.api import ToolPackage

PACKAGE = ToolPackage(manifest=MANIFEST, surfaces=surface_set(FAMILIES))
