"""The bundled reference tools. Each is a package a tool author can copy to start a new one."""

from __future__ import annotations

import importlib
from collections.abc import Iterable

from workbench.core.problems import Problem
from workbench.core.runtime import RuntimeServices
from workbench.tools.package import ToolPackage

BUNDLED_TOOL_MODULES: tuple[str, ...] = (
    "workbench.tools.web_browsing",
    "workbench.tools.calculator",
    "workbench.tools.local_system",
    "workbench.tools.task",
    "workbench.tools.skills",
)


def bundled_packages() -> list[ToolPackage]:
    """Import the bundled tools (each module exposes ``PACKAGE``)."""
    return [importlib.import_module(name).PACKAGE for name in BUNDLED_TOOL_MODULES]


def load_tool_modules(specs: Iterable[str]) -> tuple[list[ToolPackage], list[Problem]]:
    """Import ``module`` or ``module:attribute`` tool specs; failures become problems."""
    packages: list[ToolPackage] = []
    problems: list[Problem] = []
    for spec in specs:
        module_name, _, attribute = spec.partition(":")
        try:
            module = importlib.import_module(module_name)
            value = getattr(module, attribute or "PACKAGE")
        except Exception as error:  # noqa: BLE001 - a broken user module must not stop the rest
            problems.append(
                Problem(
                    file=spec,
                    message=f"cannot load tool package: {type(error).__name__}: {error}",
                    code="tool-module",
                )
            )
            continue
        items = value if isinstance(value, (list, tuple)) else [value]
        for item in items:
            if isinstance(item, ToolPackage):
                packages.append(item)
            else:
                problems.append(
                    Problem(
                        file=spec,
                        message=f"expected a ToolPackage, got {type(item).__name__}",
                        code="tool-module",
                    )
                )
    return packages, problems


__all__ = [
    "BUNDLED_TOOL_MODULES",
    "RuntimeServices",
    "ToolPackage",
    "bundled_packages",
    "load_tool_modules",
]
