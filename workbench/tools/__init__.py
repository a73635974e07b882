"""The bundled reference tools. Each is a package a tool author can copy to start a new one."""

from __future__ import annotations

import importlib

from workbench.tools.package import RuntimeServices, ToolPackage

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


__all__ = ["BUNDLED_TOOL_MODULES", "RuntimeServices", "ToolPackage", "bundled_packages"]
