"""The local-system runtime as a user's settings create it, over an empty workspace."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.core.runtime import RuntimeServices
from workbench.tools.local_system import PACKAGE, LocalSystemRuntime


@pytest.fixture
def runtime(workspace: Path) -> LocalSystemRuntime:
    created = PACKAGE.create_runtime(RuntimeServices(workspace=workspace))  # type: ignore[misc]
    assert isinstance(created, LocalSystemRuntime)
    return created
