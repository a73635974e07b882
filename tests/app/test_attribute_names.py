"""No widget, screen or app of ours assigns an attribute that hides a Textual method.

``self.animate = animate`` once replaced ``animate()`` on the app, two screens and the tool
card (``app.animate("styles.opacity", 0.5)`` then raised ``TypeError: 'bool' object is not
callable``). The check reads every ``self.NAME = ...`` in our DOM classes' source and looks
NAME up on their Textual base classes.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import textwrap
import types

from textual.dom import DOMNode

import workbench.app
import workbench.testing
from workbench.app.app import WorkbenchApp


def our_dom_classes() -> list[type[DOMNode]]:
    found: list[type[DOMNode]] = []
    for package in (workbench.app, workbench.testing):
        names = [package.__name__] + [
            info.name
            for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}.")
        ]
        for name in names:
            module = importlib.import_module(name)
            found += [
                cls
                for _, cls in inspect.getmembers(module, inspect.isclass)
                if cls.__module__ == name and issubclass(cls, DOMNode)
            ]
    return found


def assigned_attributes(cls: type) -> set[str]:
    """Names ``NAME`` in ``self.NAME = ...`` (or ``self.NAME: T = ...``) anywhere in ``cls``."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        else:
            continue
        for target in targets:
            for item in target.elts if isinstance(target, ast.Tuple) else [target]:
                if (
                    isinstance(item, ast.Attribute)
                    and isinstance(item.value, ast.Name)
                    and item.value.id == "self"
                ):
                    names.add(item.attr)
    return names


def hidden_methods(cls: type) -> list[str]:
    textual_bases = [base for base in cls.__mro__ if base.__module__.startswith("textual.")]
    hidden = []
    for name in sorted(assigned_attributes(cls)):
        for base in textual_bases:
            if name in vars(base):
                value = vars(base)[name]
                if isinstance(value, (types.FunctionType, staticmethod, classmethod)):
                    hidden.append(f"{cls.__name__}.{name} hides {base.__name__}.{name}()")
                break
    return hidden


def test_no_instance_attribute_hides_a_textual_method() -> None:
    classes = our_dom_classes()
    assert {"WorkbenchApp", "LiveScreen", "FixtureScreen", "ToolCard"} <= {
        cls.__name__ for cls in classes
    }
    problems = [problem for cls in classes for problem in hidden_methods(cls)]
    assert problems == []


def test_the_check_catches_the_animate_mistake() -> None:
    class Shadowing(WorkbenchApp):
        def __init__(self) -> None:
            super().__init__(animate=False)
            self.animate = False  # type: ignore[assignment,method-assign]

    assert hidden_methods(Shadowing) == ["Shadowing.animate hides App.animate()"]
    assert callable(WorkbenchApp(animate=False).animate)
