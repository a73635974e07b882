"""Where an enum exists, code compares members, not their text: a renamed value fails loudly."""

from __future__ import annotations

import ast
import importlib
import inspect
from enum import Enum
from pathlib import Path

import workbench
from tests.test_names import every_module

PACKAGE = Path(workbench.__file__).parent


def enum_values() -> dict[str, str]:
    """Every value of every string enum the package defines, with the enum that owns it."""
    values: dict[str, str] = {}
    for name in every_module():
        module = importlib.import_module(name)
        for class_name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == name and issubclass(cls, Enum) and issubclass(cls, str):
                values.update({member.value: class_name for member in cls})
    return values


def value_comparisons(source: str, values: dict[str, str]) -> list[tuple[int, str]]:
    """``x.value == "literal"`` (or ``!=``) where the literal is some enum's value."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        has_value = any(isinstance(side, ast.Attribute) and side.attr == "value" for side in sides)
        for side in sides:
            if (
                has_value
                and isinstance(side, ast.Constant)
                and isinstance(side.value, str)
                and side.value in values
            ):
                found.append((node.lineno, f"{side.value!r} ({values[side.value]})"))
    return found


def test_the_scan_finds_a_value_compared_with_text() -> None:
    values = {"failed": "SourceState"}
    assert value_comparisons('if status.state.value == "failed": pass', values) == [
        (1, "'failed' (SourceState)")
    ]
    assert value_comparisons("if status.state is SourceState.FAILED: pass", values) == []
    assert value_comparisons('if field.value == "other": pass', values) == []


def test_no_enum_value_is_compared_with_its_text() -> None:
    values = enum_values()
    assert {"failed", "ready", "done", "portal"} <= set(values)  # the enums were found
    offenders = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {what}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line, what in value_comparisons(path.read_text(encoding="utf-8"), values)
    ]
    assert offenders == []
