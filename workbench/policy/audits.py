"""Named dynamic audits. Manifests reference them by name; the functions live here."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

Audit = Callable[[Mapping[str, Any], Mapping[str, Any], "Path | None"], "str | None"]
"""``(args, parameters_schema, workspace) -> reason to ask, or None``."""

PATH_KEYS = (
    "path",
    "paths",
    "file",
    "files",
    "filename",
    "filepath",
    "file_path",
    "dir",
    "dirs",
    "directory",
    "cwd",
    "root",
    "target",
    "source",
    "destination",
    "dest",
    "src",
    "oldpath",
    "newpath",
    "old_path",
    "new_path",
    "pattern",
    "workdir",
    "output",
)


def _is_path_key(key: str, schema: Mapping[str, Any] | None) -> bool:
    if isinstance(schema, Mapping) and (
        schema.get("format") in ("path", "uri-reference") or schema.get("x-path") is True
    ):
        return True
    lowered = key.lower()
    return lowered in PATH_KEYS or lowered.endswith(
        ("path", "paths", "dir", "directory", "file", "files")
    )


def _looks_like_path(value: str) -> bool:
    return (
        value.startswith(("/", "~"))
        or value.startswith("..")
        or "/../" in value
        or value.startswith("\\\\")
    )


CONTENT_KEYS = frozenset(
    {
        "content",
        "text",
        "body",
        "oldstring",
        "newstring",
        "old_string",
        "new_string",
        "instruction",
        "description",
        "query",
        "message",
        "expression",
    }
)
"""Free-text arguments: a file's content starting with ``//`` is not a path."""
MAX_PATH_CHARS = 4096


def _declares_paths(schema: Mapping[str, Any] | None) -> bool:
    properties = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(properties, Mapping):
        return False
    for sub in properties.values():
        items = sub.get("items") if isinstance(sub, Mapping) else None
        if (isinstance(sub, Mapping) and sub.get("format") == "path") or (
            isinstance(items, Mapping) and items.get("format") == "path"
        ):
            return True
    return False


def extract_paths(
    args: Mapping[str, Any], schema: Mapping[str, Any] | None = None
) -> Iterator[str]:
    """Every value that names a path.

    A schema that marks its path arguments (``"format": "path"``) is taken at its word. For
    any other schema, a value counts by its key (``path``, ``cwd``, ``*File``...) or by its
    shape (absolute, ``~``, ``..``) — so a tool that calls its argument ``location`` but passes
    ``/etc/passwd`` is still caught, which a fixed list of field names would miss.
    """
    properties = schema.get("properties", {}) if isinstance(schema, Mapping) else {}
    if _declares_paths(schema):
        for key, value in args.items():
            sub = properties.get(key) if isinstance(properties, Mapping) else None
            if not isinstance(sub, Mapping):
                continue
            declared_items = sub.get("items")
            items = declared_items if isinstance(declared_items, Mapping) else {}
            if sub.get("format") == "path" and isinstance(value, str):
                yield value
            elif items.get("format") == "path" and isinstance(value, list):
                yield from (item for item in value if isinstance(item, str))
        return

    def walk(value: Any, key: str, sub_schema: Any) -> Iterator[str]:
        if isinstance(value, str):
            if _is_path_key(key, sub_schema) or (
                key.lower() not in CONTENT_KEYS
                and "\n" not in value
                and len(value) <= MAX_PATH_CHARS
                and _looks_like_path(value)
            ):
                yield value
        elif isinstance(value, Mapping):
            nested = sub_schema.get("properties", {}) if isinstance(sub_schema, Mapping) else {}
            for child_key, child in value.items():
                yield from walk(child, str(child_key), nested.get(child_key))
        elif isinstance(value, (list, tuple)):
            items = sub_schema.get("items") if isinstance(sub_schema, Mapping) else None
            for child in value:
                yield from walk(child, key, items)

    for key, value in args.items():
        yield from walk(
            value, str(key), properties.get(key) if isinstance(properties, Mapping) else None
        )


def is_inside(path: str, workspace: Path) -> bool:
    """Whether ``path`` (relative paths are relative to ``workspace``) stays inside it.

    Symlinks and ``..`` are resolved, so ``link-to-etc/passwd`` and ``a/../../x`` are caught.
    """
    root = Path(os.path.realpath(workspace))
    candidate = Path(os.path.expanduser(path))
    if not candidate.is_absolute():
        candidate = root / candidate
    resolved = Path(os.path.realpath(candidate))
    return resolved == root or root in resolved.parents


def path_scope_audit(
    args: Mapping[str, Any], schema: Mapping[str, Any], workspace: Path | None
) -> str | None:
    """Flag any path argument outside the workspace (glob patterns are checked by their base)."""
    if workspace is None:
        return "no workspace is set, so paths cannot be checked"
    outside = []
    for value in extract_paths(args, schema):
        base = value.split("*", 1)[0].split("?", 1)[0].split("[", 1)[0] or "."
        if not is_inside(base, workspace):
            outside.append(value)
    if outside:
        shown = ", ".join(outside[:3]) + (
            f" (+{len(outside) - 3} more)" if len(outside) > 3 else ""
        )
        return f"path outside the workspace: {shown}"
    return None


DEFAULT_AUDITS: dict[str, Audit] = {"pathScopeAudit": path_scope_audit}
