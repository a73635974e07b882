"""Settings every test process shares."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

_OWN_CACHE: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    # The catalog cache stays on, as users run it, but in a folder of this test process: tests
    # never write to the user's cache or the repo's .workbench/, nor share entries across runs.
    if "WORKBENCH_CACHE_DIR" not in os.environ:
        _OWN_CACHE.append(tempfile.mkdtemp(prefix="workbench-test-cache-"))
        os.environ["WORKBENCH_CACHE_DIR"] = _OWN_CACHE[0]
    # The suite tests Workbench, not the tool packages installed beside it (examples/glossary
    # once CI or an author installed it): installed plugins load only where a test asks.
    os.environ.setdefault("WORKBENCH_NO_PLUGINS", "1")


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _OWN_CACHE:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop("WORKBENCH_CACHE_DIR", None)
