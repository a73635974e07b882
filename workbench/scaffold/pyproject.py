"""The ``[tool.workbench]`` entries of a new tool, added to pyproject.toml as a person would.

tomlkit keeps the file's comments, order and layout: only the ``tools`` list (and, for a
package outside the project root, ``pythonpath``) changes. A project without a pyproject.toml
gets a short one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

NEW_PYPROJECT = """\
# Made by `workbench new`. Workbench reads [tool.workbench]; `pytest` runs the snapshot suite.
[tool.workbench]
# Fixture directories; each tool package here ships its own fixtures (ToolPackage.fixtures).
fixtures = []
# Tool packages, as module:attribute, imported from the directories in `pythonpath`.
tools = []
snapshots = "snapshots"
"""


@dataclass(frozen=True)
class PyprojectEdit:
    path: Path
    text: str
    created: bool
    changes: list[str] = field(default_factory=list)
    """What changed, in words: ``tools += "my_tool:PACKAGE"``."""


def _array(values: list[str]) -> Any:
    import tomlkit

    array = tomlkit.array()
    array.extend(values)
    if len(values) > 1:
        array.multiline(True)
    return array


def edit_pyproject(path: Path, text: str, spec: str, package_parent: Path) -> PyprojectEdit:
    """``text`` with ``spec`` in ``[tool.workbench] tools``, and ``package_parent`` importable.

    Raises :class:`ValueError` when the file is not TOML or the table is not one.
    """
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    created = not text
    try:
        document = tomlkit.parse(text or NEW_PYPROJECT)
    except TOMLKitError as error:
        raise ValueError(
            f"not valid TOML ({error}); fix it and run `workbench new` again"
        ) from None
    tool = document.get("tool")
    if tool is None:
        tool = tomlkit.table(is_super_table=True)
        document["tool"] = tool
    table = tool.get("workbench")
    if table is None:
        table = tomlkit.parse(NEW_PYPROJECT)["tool"]["workbench"]
        tool["workbench"] = table
    if not isinstance(table, dict):
        raise ValueError("[tool.workbench] is not a table")
    changes: list[str] = []
    tools = table.get("tools")
    current = [tools] if isinstance(tools, str) else list(tools or [])
    if spec not in current:
        table["tools"] = _array([*map(str, current), spec])
        changes.append(f'tools += "{spec}"')
    # find_pyproject looked upwards from the package's parent: it is inside the project.
    relative = package_parent.resolve().relative_to(path.parent.resolve()).as_posix()
    paths = table.get("pythonpath")
    current_paths = [paths] if isinstance(paths, str) else list(paths or ["."])
    if relative not in {Path(str(item)).as_posix() for item in current_paths}:
        table["pythonpath"] = _array([*map(str, current_paths), relative])
        changes.append(f'pythonpath += "{relative}"')
    return PyprojectEdit(path=path, text=tomlkit.dumps(document), created=created, changes=changes)
