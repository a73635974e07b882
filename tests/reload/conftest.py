"""A scaffolded project per test, and a clean ``sys.modules``/``sys.path`` after it."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from workbench.config import load_config
from workbench.project import Project, open_project
from workbench.scaffold import plan_scaffold, write_plan

_numbers = itertools.count()


@dataclass
class DevProject:
    root: Path
    module: str
    identifier: str

    @property
    def package(self) -> Path:
        return self.root / self.module

    def open(self) -> Project:
        return open_project(config=load_config(self.root))

    def edit(self, name: str, old: str, new: str) -> Path:
        path = self.package / name
        text = path.read_text()
        assert old in text, f"{old!r} not in {name}"
        path.write_text(text.replace(old, new))
        return path


def scaffolded(tmp_path: Path) -> Iterator[DevProject]:
    """A project made by `workbench new` (a unique module name: modules are process-wide)."""
    name = f"reload-tool-{next(_numbers)}-{tmp_path.name[-8:].strip('_-').lower() or 'x'}"
    name = "".join(char if char.isalnum() or char == "-" else "-" for char in name)
    plan = plan_scaffold(name, ["lookup"], tmp_path)
    write_plan(plan)
    modules = set(sys.modules)
    path = list(sys.path)
    yield DevProject(tmp_path, plan.tool.module, plan.tool.identifier)
    sys.path[:] = path
    for module in set(sys.modules) - modules:
        if module.startswith(plan.tool.module):
            del sys.modules[module]


@pytest.fixture
def dev_project(tmp_path: Path) -> Iterator[DevProject]:
    """A project made by `workbench new` in ``tmp_path``."""
    yield from scaffolded(tmp_path)
