"""A throwaway project of the calculator tool: its fixture file, its pyproject.toml, and
pytest run on it in a subprocess (for tests of the snapshot suite, the gate and the reports)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

PYPROJECT = (
    '[tool.workbench]\nfixtures = ["fixtures"]\nsnapshots = "snaps"\ninclude_bundled '
    '= false\ntools = ["workbench.tools.calculator:PACKAGE"]\n'
)

ADD = (
    "  - id: add\n"
    "    label: Adds\n"
    "    kind: typical\n"
    '    args: {expression: "1 + 1"}\n'
    '    result: {success: true, content: "1 + 1 = 2", state: {value: "2", type: integer, '
    "digits: 1}}\n"
)
"""A sum: 10 cases (3 phases at 60 and 100 columns dark, 3 at 60 light, the ending at 100
light)."""


def calculator_fixture(*variants: str) -> str:
    """The calculator's fixture file with ``variants`` (YAML list items; ``ADD`` if none)."""
    return (
        "tool: calculator\napi: calculate\nvariants:\n"
        + "".join(variants or (ADD,))
        + 'waivers:\n  - {kind: empty, reason: "a sum is never empty"}\n'
    )


FIXTURE = calculator_fixture()
"""The fixture file of ``add`` alone."""


def hostile_fixture(*, waivers: bool = True) -> str:
    """A calculator fixture file of one sum whose label, arguments and result carry every
    hostile sequence (:data:`tests.hostile.ALL_HOSTILE`), written as YAML escapes them."""
    from tests.hostile import ALL_HOSTILE, HOSTILE

    variant = {
        "id": "hostile",
        "label": "Adds " + ALL_HOSTILE,
        "kind": "typical",
        "args": {"expression": "1 + 1 #" + HOSTILE["carriage-return"]},
        "result": {
            "success": True,
            "content": "1 + 1 = 2 " + ALL_HOSTILE,
            "state": {"value": "2", "type": "integer", "digits": 1},
        },
    }
    document: dict[str, object] = {"tool": "calculator", "api": "calculate", "variants": [variant]}
    if waivers:
        document["waivers"] = [{"kind": "empty", "reason": "a sum is never empty"}]
    # YAML escapes every character it cannot hold raw (\x1b, \U000e0041), as a user would.
    return yaml.safe_dump(document)


def calculator_project(root: Path, fixture: str = FIXTURE, *, tests: bool = False) -> Path:
    """``root`` as a project with one fixture file (``fixture``), its snapshots in
    ``snaps/``, and an empty tests folder if ``tests``."""
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (root / "fixtures").mkdir()
    (root / "fixtures" / "calc.yaml").write_text(fixture, encoding="utf-8")
    if tests:
        (root / "tests").mkdir()
    return root


def run_pytest(*args: str) -> subprocess.CompletedProcess[str]:
    """pytest on the project's tests in a fresh interpreter (no cache written)."""
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
