"""The public API for tool authors: everything a tool package needs, in one import.

A tool package imports from here and nowhere else in Workbench::

    from workbench.api import SurfaceContext, SurfaceSet, ToolPackage, kit, to_result

It sits directly above :mod:`workbench.surfaces` and below every package that uses tools, so
the bundled reference tools import Workbench through it alone, as any tool out there does
(import-linter contracts in ``pyproject.toml`` check both).

- **Manifest**: :class:`ToolManifest` and its parts describe the tool and its APIs (JSON Schema
  parameters, a ``humanIntervention`` policy, timeouts).
- **Runtime and result funnel**: a :class:`BaseRuntime` subclass has one async method per API
  and returns every result through :func:`to_result` (or :func:`failure`), so ``content`` is
  never empty and ``error.type`` is a stable code.
- **Surfaces**: functions of a :class:`SurfaceContext` returning a Rich renderable, built with
  the surface kit (:mod:`kit <workbench.surfaces.kit>`: safe text, status lines, "showing N of
  M" notes, boxes, skeletons) and registered per API in a :class:`SurfaceSet`. A Render made
  with :func:`result_render` starts at the drawing: how the call ended, its error and the
  result's ``state`` come first (:func:`outcome_view`, :func:`result_state` do the same
  steps one by one); a Placeholder leads with :func:`pending_line`. Rich's
  ``RenderableType``, ``Group`` (rows under each other) and ``Text`` are here too.
- **Packaging**: a :class:`ToolPackage` bundles manifest, surfaces, runtime factory and
  fixtures; list it in ``[tool.workbench] tools`` or declare it under the
  :data:`ENTRY_POINT_GROUP` entry-point group of an installed distribution.
- **Text and limits**: :func:`clean` (and :func:`clean_line`, :func:`clean_output` for what a
  process wrote) makes untrusted text safe to show; :data:`OutputStream` names a stream a
  runtime writes to; :class:`LimitExceeded` is what a capped read raises, with the cap to
  raise. :func:`safe_client` is an httpx client that refuses private addresses (with
  :func:`read_capped` and :class:`RequestRefused`, imported on first use), and
  :func:`extract_paths` finds the paths a call's args name, as the approval policy does.
- **Testing**: a test that asks for the ``tool_ui_snapshot`` fixture (from Workbench's pytest
  plugin) runs the snapshot suite and the render audit over the project's fixtures.
  ``from workbench.api import test_tool_ui_snapshot`` still works in 1.x, with a
  ``DeprecationWarning``.

:data:`API_VERSION` follows semantic versioning: a name added is a minor release; a name
removed or a signature changed is a major one. ``tests/public_api.txt`` records every name
and signature, and a test fails when one disappears.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.text import Text

from workbench.core.call_state import (
    TERMINAL_PHASES,
    Approval,
    CallState,
    Phase,
    ProgressInfo,
    Timings,
)
from workbench.core.events import OutputStream
from workbench.core.limits import LimitExceeded, Limits
from workbench.core.manifest import (
    SCHEMAS_CHECKED,
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
from workbench.core.sanitize import clean, clean_line, clean_output
from workbench.policy.audits import extract_paths
from workbench.surfaces import kit
from workbench.surfaces.context import DARK_PALETTE, LIGHT_PALETTE, Palette, SurfaceContext
from workbench.surfaces.registry import Surface, SurfaceKind, SurfaceSet, editable
from workbench.surfaces.render_parts import (
    ErrorView,
    outcome_view,
    pending_line,
    result_render,
    result_state,
)

if TYPE_CHECKING:
    from workbench.net.ssrf import RequestRefused, read_capped, safe_client

API_VERSION = "1.3"
"""The version of this API (``MAJOR.MINOR``): see the module docstring for what moves it."""

ENTRY_POINT_GROUP = "workbench.tools"
"""The entry-point group an installed distribution declares its tool packages under::

    [project.entry-points."workbench.tools"]
    notes = "acme_notes:PACKAGE"
"""


@dataclass(frozen=True)
class ToolPackage:
    """A tool as its author ships it: manifest, surfaces and how to build its runtime."""

    manifest: ToolManifest
    surfaces: SurfaceSet = field(default_factory=SurfaceSet)
    create_runtime: Callable[[RuntimeServices], BaseRuntime] | None = None
    fixtures: Path | None = None
    """A directory of fixture files shipped with the package (``Path(__file__).parent /
    "fixtures"``): wherever the package is installed, the workbench shows them with it."""
    environment: Mapping[str, str] = field(default_factory=dict)
    """The environment variables the runtime reads, each with the settings key it becomes
    (``{"WORKBENCH_WEB_ONLINE": "web.online"}``): ``create_runtime`` finds their values in
    ``services.settings``."""

    @property
    def identifier(self) -> str:
        return self.manifest.identifier


__all__ = [
    "API_VERSION",
    "DARK_PALETTE",
    "ENTRY_POINT_GROUP",
    "LIGHT_PALETTE",
    "SCHEMAS_CHECKED",
    "TERMINAL_PHASES",
    "Approval",
    "BaseRuntime",
    "CallContext",
    "CallState",
    "DynamicAudit",
    "DynamicIntervention",
    "ErrorType",
    "ErrorView",
    "Group",
    "HumanIntervention",
    "InterventionPolicy",
    "InterventionRule",
    "LimitExceeded",
    "Limits",
    "OutputBuffer",
    "OutputStream",
    "Palette",
    "Phase",
    "ProgressInfo",
    "RenderableType",
    "RequestRefused",
    "RuntimeServices",
    "Surface",
    "SurfaceContext",
    "SurfaceKind",
    "SurfaceSet",
    "Text",
    "Timings",
    "ToolApi",
    "ToolError",
    "ToolManifest",
    "ToolMeta",
    "ToolPackage",
    "ToolResult",
    "clean",
    "clean_line",
    "clean_output",
    "editable",
    "extract_paths",
    "failure",
    "kit",
    "outcome_view",
    "pending_line",
    "read_capped",
    "result_render",
    "result_state",
    "safe_client",
    "test_tool_ui_snapshot",  # noqa: F822 - served (deprecated) by __getattr__
    "to_result",
]


_NETWORK = frozenset({"RequestRefused", "read_capped", "safe_client"})
"""Names from the SSRF-safe HTTP layer, which imports httpx: loaded on first use."""


def __getattr__(name: str) -> Any:
    # Loaded only when asked for: the SSRF-safe client imports httpx (online runs only), and
    # the snapshot test needs pytest and Textual.
    if name in _NETWORK:
        from workbench.net import ssrf

        return getattr(ssrf, name)
    if name == "test_tool_ui_snapshot":
        warnings.warn(
            "`from workbench.api import test_tool_ui_snapshot` is deprecated and goes in API 2.0:"
            " ask for the `tool_ui_snapshot` fixture instead"
            " (def test_tool_ui(tool_ui_snapshot): tool_ui_snapshot())",
            DeprecationWarning,
            stacklevel=2,
        )
        # By name, not an import statement: the API sits below the testing package (which
        # needs pytest and Textual), and this deprecated path is the one way up.
        return importlib.import_module("workbench.testing.snapshots").test_tool_ui_snapshot
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
