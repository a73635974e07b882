"""The CLI run in a project with the render cache on, in a cache folder of the test's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner


def cli_with_cache(monkeypatch: pytest.MonkeyPatch, root: Path, cache: Path) -> CliRunner:
    """A runner for commands run in ``root`` with their cache in ``cache`` (the suite turns
    the render cache off everywhere else)."""
    monkeypatch.delenv("WORKBENCH_NO_RENDER_CACHE", raising=False)
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(cache))
    monkeypatch.chdir(root)
    return CliRunner()
