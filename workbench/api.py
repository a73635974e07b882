"""The public API for tool authors: everything a tool package needs, in one import.

A tool package imports from here and nowhere else in Workbench::

    from workbench.api import SurfaceContext, SurfaceSet, ToolPackage, kit, to_result

- **Manifest**: :class:`ToolManifest` and its parts describe the tool and its APIs (JSON Schema
  parameters, a ``humanIntervention`` policy, timeouts).
- **Runtime and result funnel**: a :class:`BaseRuntime` subclass has one async method per API
  and returns every result through :func:`to_result` (or :func:`failure`), so ``content`` is
  never empty and ``error.type`` is a stable code.
- **Surfaces**: functions of a :class:`SurfaceContext` returning a Rich renderable, built with
  the surface kit (:mod:`kit <workbench.surfaces.kit>`: safe text, status lines, "showing N of
  M" notes, boxes, skeletons) and registered per API in a :class:`SurfaceSet`. Rich's
  ``RenderableType``, ``Group`` (rows under each other) and ``Text`` are here too.
- **Packaging**: a :class:`ToolPackage` bundles manifest, surfaces, runtime factory and
  fixtures; list it in ``[tool.workbench] tools`` or declare it under the
  :data:`ENTRY_POINT_GROUP` entry-point group of an installed distribution.
- **Testing**: ``from workbench.api import test_tool_ui_snapshot  # noqa: F401`` in a test
  module runs the snapshot suite and the render audit over the project's fixtures.

:data:`API_VERSION` follows semantic versioning: a name added is a minor release; a name
removed or a signature changed is a major one. ``tests/public_api.txt`` records every name
and signature, and a test fails when one disappears.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.text import Text

from workbench.core.call_state import CallState, Phase
from workbench.core.manifest import (
    DynamicAudit,
    DynamicIntervention,
    HumanIntervention,
    InterventionPolicy,
    InterventionRule,
    ToolApi,
    ToolManifest,
    ToolMeta,
)
from workbench.core.output_buffer import OutputBuffer
from workbench.core.result import ErrorType, ToolError, ToolResult, failure, to_result
from workbench.core.runtime import BaseRuntime, CallContext, RuntimeServices
from workbench.surfaces import kit
from workbench.surfaces.context import DARK_PALETTE, LIGHT_PALETTE, Palette, SurfaceContext
from workbench.surfaces.registry import Surface, SurfaceKind, SurfaceSet, editable
from workbench.tools.discovery import ENTRY_POINT_GROUP
from workbench.tools.package import ToolPackage

if TYPE_CHECKING:
    from workbench.testing.snapshots import test_tool_ui_snapshot

API_VERSION = "1.2"
"""The version of this API (``MAJOR.MINOR``): see the module docstring for what moves it."""

__all__ = [
    "API_VERSION",
    "DARK_PALETTE",
    "ENTRY_POINT_GROUP",
    "LIGHT_PALETTE",
    "BaseRuntime",
    "CallContext",
    "CallState",
    "DynamicAudit",
    "DynamicIntervention",
    "ErrorType",
    "Group",
    "HumanIntervention",
    "InterventionPolicy",
    "InterventionRule",
    "OutputBuffer",
    "Palette",
    "Phase",
    "RenderableType",
    "RuntimeServices",
    "Surface",
    "SurfaceContext",
    "SurfaceKind",
    "SurfaceSet",
    "Text",
    "ToolApi",
    "ToolError",
    "ToolManifest",
    "ToolMeta",
    "ToolPackage",
    "ToolResult",
    "editable",
    "failure",
    "kit",
    "test_tool_ui_snapshot",
    "to_result",
]


def __getattr__(name: str) -> Any:
    # The snapshot test needs pytest and Textual: loaded only by the test module that asks.
    if name == "test_tool_ui_snapshot":
        from workbench.testing.snapshots import test_tool_ui_snapshot

        return test_tool_ui_snapshot
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
