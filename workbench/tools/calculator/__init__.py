"""Calculator: a pure-compute reference tool (manifest, runtime, surfaces)."""

from __future__ import annotations

from workbench.core.runtime import RuntimeServices
from workbench.tools.calculator.manifest import IDENTIFIER, MANIFEST
from workbench.tools.calculator.runtime import CalculatorRuntime
from workbench.tools.calculator.surfaces import SURFACES
from workbench.tools.package import ToolPackage


def create_runtime(services: RuntimeServices) -> CalculatorRuntime:
    del services
    return CalculatorRuntime()


PACKAGE = ToolPackage(manifest=MANIFEST, surfaces=SURFACES, create_runtime=create_runtime)

__all__ = ["IDENTIFIER", "MANIFEST", "PACKAGE", "CalculatorRuntime"]
