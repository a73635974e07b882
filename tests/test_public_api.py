"""The public API (``workbench.api``) is versioned: removing a name or changing a signature
fails here until API_VERSION's major moves and ``tests/public_api.txt`` is rewritten."""

from __future__ import annotations

import inspect
import subprocess
import sys
import types
import warnings
from pathlib import Path

import pytest

import workbench.api as api
from scripts.public_api import LISTING, compare, listing

REPO = Path(__file__).resolve().parents[1]
REWRITE = "python scripts/public_api.py --write"


def test_nothing_recorded_in_the_public_api_has_gone_or_changed() -> None:
    removed, added = compare(LISTING.read_text(encoding="utf-8").splitlines(), listing())
    assert not removed, (
        "the public API lost or changed (tool packages out there import these):\n  "
        + "\n  ".join(removed)
        + f"\nRestore them, or bump API_VERSION's major and run `{REWRITE}`."
    )
    assert not added, (
        "new public names are not recorded yet:\n  "
        + "\n  ".join(added)
        + f"\nBump API_VERSION's minor and run `{REWRITE}`."
    )


def test_a_removed_name_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api, "__all__", [name for name in api.__all__ if name != "to_result"])
    removed, added = compare(LISTING.read_text(encoding="utf-8").splitlines(), listing())
    assert [line for line in removed if line.startswith("to_result(")] and not added


def test_a_changed_signature_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def status_line(ctx: object, verb: str) -> None:
        """A narrower status line."""

    status_line.__module__ = "workbench.surfaces.kit"
    monkeypatch.setattr(api.kit, "status_line", status_line)
    removed, added = compare(LISTING.read_text(encoding="utf-8").splitlines(), listing())
    assert [line for line in removed if line.startswith("kit.status_line(")]
    assert [line for line in added if line.startswith("kit.status_line(")]


def test_the_recorded_version_is_the_module_s() -> None:
    first = LISTING.read_text(encoding="utf-8").splitlines()[0]
    assert first == f"API_VERSION {api.API_VERSION}", f"run `{REWRITE}`"


def test_every_public_class_and_function_says_what_it_is() -> None:
    undocumented = []
    for name in api.__all__:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # the old snapshot import
            value = getattr(api, name)
        members = (
            [(f"kit.{member}", getattr(value, member)) for member in value.__all__]
            if isinstance(value, types.ModuleType)
            else [(name, value)]
        )
        for label, member in members:
            if (inspect.isclass(member) or inspect.isfunction(member)) and not inspect.getdoc(
                member
            ):
                undocumented.append(label)
    assert undocumented == []


def test_importing_the_api_loads_no_textual_and_no_pytest() -> None:
    code = (
        "import sys, workbench.api\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'textual', 'pytest'}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert result.stdout.strip() == "[]"


def test_the_snapshot_test_is_importable_from_the_api_deprecated() -> None:
    with pytest.warns(DeprecationWarning, match="tool_ui_snapshot` fixture"):
        from workbench.api import test_tool_ui_snapshot
    from workbench.testing.snapshots import test_tool_ui_snapshot as original

    assert test_tool_ui_snapshot is original
    with pytest.raises(AttributeError):
        _ = api.no_such_name  # type: ignore[attr-defined]
