from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from workbench.app.app import WorkbenchApp
from workbench.project import Project, open_project

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def make_app(monkeypatch: pytest.MonkeyPatch) -> Callable[..., WorkbenchApp]:
    monkeypatch.chdir(REPO)

    def make(*paths: Path, loader: Callable[[], Project] | None = None) -> WorkbenchApp:
        return WorkbenchApp(loader or (lambda: open_project(list(paths))), animate=False)

    return make
