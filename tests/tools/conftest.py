"""Fixtures shared by the reference tools' tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """An empty workspace folder the tool under test works in."""
    root = tmp_path / "ws"
    root.mkdir()
    return root
