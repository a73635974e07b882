"""A throwaway project of the calculator tool, for tests that run pytest on it in a subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PYPROJECT = (
    '[tool.workbench]\nfixtures = ["fixtures"]\nsnapshots = "snaps"\ninclude_bundled '
    '= false\ntools = ["workbench.tools.calculator:PACKAGE"]\n'
)


def calculator_project(root: Path, fixture: str) -> Path:
    """``root`` as a project with one fixture file (``fixture``) and an empty tests folder."""
    (root / "pyproject.toml").write_text(PYPROJECT)
    (root / "fixtures").mkdir()
    (root / "fixtures" / "calc.yaml").write_text(fixture)
    (root / "tests").mkdir()
    return root


def run_pytest(*args: str) -> subprocess.CompletedProcess[str]:
    """pytest on the project's tests in a fresh interpreter (no cache written)."""
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
