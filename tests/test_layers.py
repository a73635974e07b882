"""The import contracts in pyproject.toml hold over the real import graph, and the pure layers
load no Textual when every one of their modules is imported (checked in a fresh interpreter)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

import workbench

REPO = Path(__file__).resolve().parents[1]
PYPROJECT = REPO / "pyproject.toml"


def contract(contract_type: str, named: str = "") -> dict[str, Any]:
    """The one contract of ``contract_type`` whose name contains ``named``."""
    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    [found] = [
        item for item in contracts if item["type"] == contract_type and named in item["name"]
    ]
    return found


def modules_under(names: list[str]) -> list[str]:
    """Every module of the named packages (and the named plain modules), found on disk."""
    found: list[str] = []
    for name in names:
        found.append(name)
        path = Path(workbench.__file__).parent.joinpath(*name.split(".")[1:])
        if path.is_dir():
            found += [info.name for info in pkgutil.walk_packages([str(path)], prefix=f"{name}.")]
    return sorted(found)


def test_the_import_contracts_hold(capsys: pytest.CaptureFixture[str]) -> None:
    from importlinter.cli import lint_imports

    exit_code = lint_imports(config_filename=str(PYPROJECT), no_cache=True, no_logo=True)
    assert exit_code == 0, capsys.readouterr().out


def test_the_pure_layers_import_no_textual() -> None:
    pure = modules_under(contract("forbidden", "Textual")["source_modules"])
    # Discovery really walked the packages (a typo in the contract must not pass vacuously).
    assert {"workbench.core.reducer", "workbench.tools.task.surfaces", "workbench.session"} <= set(
        pure
    )
    assert len(pure) > 60
    code = (
        "import importlib, sys\n"
        f"for name in {pure!r}:\n"
        "    importlib.import_module(name)\n"
        "from workbench.tools import bundled_packages\n"
        "bundled_packages()\n"
        "import workbench.cli\n"  # every command module: `workbench check` must not load Textual
        "leaked = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print(','.join(leaked))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert result.stdout.strip() == "", f"Textual imported by a pure layer: {result.stdout}"


def test_drawing_a_snapshot_loads_no_part_of_the_app() -> None:
    # The snapshot run, the audit and their renderer draw cards without the TUI package.
    drawing = modules_under(contract("forbidden", "Drawing without the TUI")["source_modules"])
    assert "workbench.rendering.renderer" in drawing
    code = (
        "import importlib, sys\n"
        f"for name in {[*drawing, 'workbench.audit', 'workbench.testing.report']!r}:\n"
        "    importlib.import_module(name)\n"
        "leaked = sorted(m for m in sys.modules if m.startswith('workbench.app'))\n"
        "print(','.join(leaked))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert result.stdout.strip() == "", f"the app imported to draw: {result.stdout}"


def test_every_bundled_tool_is_held_to_the_public_api() -> None:
    """A tool added to the bundle is added to the contracts too, or this fails: the contract
    names its packages one by one."""
    from workbench.tools.discovery import BUNDLED_TOOL_MODULES

    api_only = contract("forbidden", "The bundled tools import Workbench only")
    assert sorted(api_only["source_modules"]) == sorted(BUNDLED_TOOL_MODULES)
    assert sorted(contract("independence", "bundled tool")["modules"]) == sorted(
        BUNDLED_TOOL_MODULES
    )
    assert "workbench.api" not in api_only["forbidden_modules"]


def test_the_agents_tools_are_held_to_the_public_api_too() -> None:
    agents = contract("forbidden", "agents' own UI-only tools")
    assert agents["source_modules"] == ["workbench.agents"]
    bundled = contract("forbidden", "The bundled tools import Workbench only")["forbidden_modules"]
    # Everything a bundled tool may not import, an agent's tool may not either.
    assert set(bundled) - {"workbench.tools.discovery", "workbench.tools.package"} <= set(
        agents["forbidden_modules"]
    )
