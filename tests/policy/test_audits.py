"""The path-scope audit: which argument values are paths, and whether they stay inside the
workspace."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from workbench.policy.audits import DEFAULT_AUDITS, extract_paths, is_inside, path_scope_audit


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "escape").symlink_to(outside, target_is_directory=True)
    (root / "inner").symlink_to(root / "src", target_is_directory=True)
    (root / "relative-escape").symlink_to(Path("..") / "outside", target_is_directory=True)
    return root


@pytest.mark.parametrize(
    ("path", "inside"),
    [
        (".", True),
        ("", True),
        ("src", True),
        ("src/new/deeper.py", True),
        ("src/../src/x", True),
        ("inner/x.py", True),
        ("..", False),
        ("../outside", False),
        ("a/../../x", False),
        ("escape", False),
        ("escape/secret.txt", False),
        ("relative-escape/secret.txt", False),
        ("/etc/passwd", False),
        ("/", False),
        ("~", False),
    ],
)
def test_is_inside(workspace: Path, path: str, inside: bool) -> None:
    assert is_inside(path, workspace) is inside


def test_absolute_paths_inside_and_a_sibling_with_a_shared_prefix(
    workspace: Path, tmp_path: Path
) -> None:
    assert is_inside(str(workspace / "src" / "a.py"), workspace)
    assert is_inside(str(workspace), workspace)
    sibling = tmp_path / "ws-other"
    sibling.mkdir()
    assert not is_inside(str(sibling / "x"), workspace)


def test_a_workspace_reached_through_a_symlink(workspace: Path, tmp_path: Path) -> None:
    alias = tmp_path / "alias"
    alias.symlink_to(workspace, target_is_directory=True)
    assert is_inside("src/a.py", alias)
    assert is_inside(str(workspace / "src"), alias)
    assert is_inside(os.path.realpath(alias / "src"), alias)
    assert not is_inside("escape/x", alias)


@pytest.mark.parametrize(
    ("args", "schema", "expected"),
    [
        ({"path": "src/a.py"}, None, ["src/a.py"]),
        ({"cwd": "build", "command": "make"}, None, ["build"]),
        ({"sourceFile": "a", "outputDir": "b", "name": "c"}, None, ["a", "b"]),
        ({"location": "/etc/passwd"}, None, ["/etc/passwd"]),
        ({"location": "~/secrets"}, None, ["~/secrets"]),
        ({"location": "../up"}, None, ["../up"]),
        ({"location": "a/../../up"}, None, ["a/../../up"]),
        ({"location": "relative/only"}, None, []),
        ({"where": "x"}, {"properties": {"where": {"type": "string", "format": "path"}}}, ["x"]),
        ({"where": "x"}, {"properties": {"where": {"type": "string", "x-path": True}}}, ["x"]),
        ({"paths": ["a", "b"]}, None, ["a", "b"]),
        ({"options": {"target": "t", "nested": {"file": "f"}}}, None, ["t", "f"]),
        ({"items": [{"path": "p1"}, {"path": "p2"}]}, None, ["p1", "p2"]),
        ({"path": 3, "count": 4}, None, []),
    ],
)
def test_extract_paths(
    args: dict[str, Any], schema: dict[str, Any] | None, expected: list[str]
) -> None:
    assert list(extract_paths(args, schema)) == expected


@pytest.mark.parametrize(
    ("args", "flagged"),
    [
        ({"path": "src/a.py"}, None),
        ({"pattern": "src/**/*.py"}, None),
        ({"pattern": "*.py"}, None),
        ({"pattern": "[ab]/*.py"}, None),
        ({"pattern": "/etc/*.conf"}, "/etc/*.conf"),
        ({"pattern": "../*"}, "../*"),
        ({"path": "escape/x"}, "escape/x"),
        ({"path": "src", "destination": "/tmp/elsewhere"}, "/tmp/elsewhere"),
    ],
)
def test_path_scope_audit(workspace: Path, args: dict[str, Any], flagged: str | None) -> None:
    reason = path_scope_audit(args, {}, workspace)
    if flagged is None:
        assert reason is None
    else:
        assert reason == f"path outside the workspace: {flagged}"


def test_path_scope_audit_lists_at_most_three_paths(workspace: Path) -> None:
    reason = path_scope_audit({"paths": ["/a", "/b", "src", "/c", "/d", "/e"]}, {}, workspace)
    assert reason == "path outside the workspace: /a, /b, /c (+2 more)"


def test_path_scope_audit_without_a_workspace() -> None:
    assert (
        path_scope_audit({"path": "src"}, {}, None)
        == "no workspace is set, so paths cannot be checked"
    )


def test_the_audit_is_registered_by_name() -> None:
    assert DEFAULT_AUDITS["pathScopeAudit"] is path_scope_audit


def test_declared_path_formats_are_taken_at_their_word() -> None:
    """A schema that marks its paths (format: path) is not second-guessed by shape."""
    from workbench.tools.local_system.manifest import MANIFEST

    write = MANIFEST.get_api("writeFile")
    grep = MANIFEST.get_api("grepContent")
    assert write is not None and grep is not None
    assert list(
        extract_paths(
            {"path": "src/a.js", "content": "// a comment\n/etc/passwd"}, write.parameters
        )
    ) == ["src/a.js"]
    assert list(extract_paths({"pattern": "/api/v1", "path": "src"}, grep.parameters)) == ["src"]
    assert path_scope_audit({"pattern": "/api/v1"}, grep.parameters, Path("/workspace")) is None
