"""Names say what things are: no two public classes of the package share a name."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections import defaultdict

import workbench


def every_module() -> list[str]:
    return sorted(
        info.name
        for info in pkgutil.walk_packages(workbench.__path__, prefix="workbench.")
        if not info.name.endswith("__main__")
    )


def test_no_two_public_classes_share_a_name() -> None:
    homes: dict[str, set[str]] = defaultdict(set)
    for name in every_module():
        module = importlib.import_module(name)
        for class_name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == name and not class_name.startswith("_"):
                homes[class_name].add(name)
    assert len(homes) > 100  # the walk really found the package's classes
    shared = {name: sorted(modules) for name, modules in homes.items() if len(modules) > 1}
    assert shared == {}, f"public classes sharing a name: {shared}"
