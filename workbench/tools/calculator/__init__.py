"""Calculator: a pure-compute reference tool (manifest, runtime, surfaces)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from workbench.api import RuntimeServices, ToolPackage
from workbench.tools.calculator.manifest import IDENTIFIER, MANIFEST
from workbench.tools.calculator.surfaces import SURFACES

if TYPE_CHECKING:
    from workbench.tools.calculator.runtime import CalculatorRuntime


def create_runtime(services: RuntimeServices) -> CalculatorRuntime:
    """The runtime is imported here, not with the package: listing tools needs none."""
    from workbench.tools.calculator.runtime import CalculatorRuntime

    del services
    return CalculatorRuntime()


PACKAGE = ToolPackage(manifest=MANIFEST, surfaces=SURFACES, create_runtime=create_runtime)


def __getattr__(name: str) -> Any:
    if name == "CalculatorRuntime":
        from workbench.tools.calculator.runtime import CalculatorRuntime

        return CalculatorRuntime
    raise AttributeError(name)


__all__ = ["IDENTIFIER", "MANIFEST", "PACKAGE", "CalculatorRuntime"]
