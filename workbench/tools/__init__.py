"""The bundled reference tools. Each is a package a tool author can copy to start a new one.

:mod:`workbench.tools.discovery` finds these and every other tool package (the project's,
installed packages' entry points, ``--tools`` options) and says where each came from.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable

from workbench.core.problems import Problem
from workbench.core.runtime import RuntimeServices
from workbench.tools.discovery import BUNDLED_TOOL_MODULES, discover, load_specs
from workbench.tools.package import ToolPackage


def bundled_packages() -> list[ToolPackage]:
    """Import the bundled tools (each module exposes ``PACKAGE``)."""
    return discover(bundled=True, plugins=False).packages


def settings_variables(packages: Iterable[ToolPackage]) -> dict[str, str]:
    """Environment variable -> settings key, for ``RuntimeServices.from_environment``: the
    bundled tools' variables (read whether or not a project loads those tools, as the HTTP
    source's allow list reads ``web.allow``) and those each of ``packages`` declares."""
    variables: dict[str, str] = {}
    for module in BUNDLED_TOOL_MODULES:
        package = getattr(importlib.import_module(module), "PACKAGE", None)
        if isinstance(package, ToolPackage):
            variables.update(package.environment)
    for package in packages:
        variables.update(package.environment)
    return variables


def load_tool_modules(specs: Iterable[str]) -> tuple[list[ToolPackage], list[Problem]]:
    """Import ``module`` or ``module:attribute`` tool specs; failures become problems."""
    return load_specs(specs, "option")


__all__ = [
    "BUNDLED_TOOL_MODULES",
    "RuntimeServices",
    "ToolPackage",
    "bundled_packages",
    "load_tool_modules",
    "settings_variables",
]
