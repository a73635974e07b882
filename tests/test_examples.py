"""The examples/ projects are third-party tool packages: they reach Workbench through
``workbench.api`` alone (so the public API is shown to be enough), declare their tools under
the entry-point group, and the CI command runs each of them."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

import workbench.api as api

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(path.parent for path in (REPO / "examples").glob("*/pyproject.toml"))
PUBLIC = "workbench.api"
IMPORTERS = {"import_module", "__import__"}


def _is_workbench(module: str) -> bool:
    return module == "workbench" or module.startswith("workbench.")


def private_imports(source: str, filename: str = "<example>") -> list[str]:
    """Every way ``source`` reaches into Workbench other than ``workbench.api``'s public
    names, as ``file:line: what``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source, filename)):
        where = f"{filename}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import):
            found += [
                f"{where}: import {alias.name}"
                for alias in node.names
                if _is_workbench(alias.name) and alias.name != PUBLIC
            ]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == PUBLIC:
                found += [
                    f"{where}: from {PUBLIC} import {alias.name} (not in its __all__)"
                    for alias in node.names
                    if alias.name not in api.__all__
                ]
            elif _is_workbench(node.module):
                found.append(f"{where}: from {node.module} import …")
        elif isinstance(node, ast.Call):
            # importlib.import_module("workbench.x") or __import__("workbench.x"): the same
            # reach into internals, spelled so that an import statement scan would miss it.
            function = node.func
            name = function.attr if isinstance(function, ast.Attribute) else ""
            name = function.id if isinstance(function, ast.Name) else name
            if name in IMPORTERS and node.args:
                first = node.args[0]
                if (
                    isinstance(first, ast.Constant)
                    and isinstance(first.value, str)
                    and _is_workbench(first.value)
                    and first.value != PUBLIC
                ):
                    found.append(f"{where}: {name}({first.value!r})")
    return found


def test_there_is_an_example() -> None:
    assert EXAMPLES, "examples/ has no project with a pyproject.toml"


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.name)
def test_an_example_imports_nothing_of_workbench_but_its_public_api(example: Path) -> None:
    sources = sorted(example.rglob("*.py"))
    assert sources
    found: list[str] = []
    for path in sources:
        found += private_imports(path.read_text(encoding="utf-8"), str(path.relative_to(REPO)))
    assert not found, "an example must use workbench.api only:\n  " + "\n  ".join(found)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.name)
def test_an_example_is_a_package_that_depends_on_workbench_and_declares_its_tools(
    example: Path,
) -> None:
    project = tomllib.loads((example / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = [re.split(r"[\s<>=!~\[;]", spec, maxsplit=1)[0] for spec in project["dependencies"]]
    assert "workbench" in names
    declared = project["entry-points"][api.ENTRY_POINT_GROUP]
    assert declared
    for spec in declared.values():
        module = spec.partition(":")[0]
        assert (example / Path(*module.split("."))).is_dir() or (
            example / f"{module.replace('.', '/')}.py"
        ).is_file(), f"{spec} is not in {example.name}/"


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.name)
def test_the_ci_command_installs_and_runs_every_example(example: Path) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    command = readme.split("<!-- ci:test-command", 1)[1].split("```sh\n", 1)[1].split("\n", 1)[0]
    where = f"examples/{example.name}"
    assert f"pip install -e {where}" in command or f"pip install -e ./{where}" in command
    assert f"cd {where}" in command


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from workbench.api import kit, to_result\nimport workbench.api as wb\n", []),
        ("from .surfaces import SURFACES\nimport rich\n", []),
        ("from workbench.surfaces import kit\n", ["x.py:1: from workbench.surfaces import …"]),
        ("import workbench.core.result\n", ["x.py:1: import workbench.core.result"]),
        ("from workbench import api\n", ["x.py:1: from workbench import …"]),
        (
            "from workbench.api import TYPE_CHECKING\n",
            ["x.py:1: from workbench.api import TYPE_CHECKING (not in its __all__)"],
        ),
        (
            "import importlib\n\ndef f():\n    importlib.import_module('workbench.tools')\n",
            ["x.py:4: import_module('workbench.tools')"],
        ),
        ("__import__('workbench.core')\n", ["x.py:1: __import__('workbench.core')"]),
    ],
)
def test_the_scan_finds_each_way_into_internals(source: str, expected: list[str]) -> None:
    assert private_imports(source, "x.py") == expected
