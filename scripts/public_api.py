"""List the public API (``workbench.api``) as one line per name and signature.

``tests/public_api.txt`` holds the listing of the released API; ``tests/test_public_api.py``
fails when a name in it disappears or a signature changes. After a deliberate change, bump
``API_VERSION`` (major for a removal or a changed signature, minor for an addition) and run::

    python scripts/public_api.py --write
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import inspect
import sys
import types
import warnings
from pathlib import Path
from typing import Any

from pydantic import BaseModel

LISTING = Path(__file__).resolve().parents[1] / "tests" / "public_api.txt"


def _signature(function: Any) -> str:
    try:
        return str(inspect.signature(function))
    except (TypeError, ValueError):
        return "(...)"


def _own_annotations(cls: type) -> dict[str, Any]:
    return dict(inspect.get_annotations(cls))


def _class_lines(prefix: str, cls: type) -> list[str]:
    bases = ", ".join(base.__name__ for base in cls.__bases__ if base is not object)
    lines = [f"{prefix}: class({bases})" if bases else f"{prefix}: class"]
    if issubclass(cls, enum.Enum):
        lines += [f"{prefix}.{member.name} = {member.value!r}" for member in cls]
        return lines
    if issubclass(cls, BaseModel):
        for name, info in cls.model_fields.items():
            annotation = _own_annotations(cls).get(name, info.annotation)
            lines.append(f"{prefix}.{name}: {annotation} (field)")
    elif dataclasses.is_dataclass(cls):
        annotations = _own_annotations(cls)
        for item in dataclasses.fields(cls):
            lines.append(f"{prefix}.{item.name}: {annotations.get(item.name, item.type)} (field)")
    else:
        for name, annotation in _own_annotations(cls).items():
            if not name.startswith("_"):
                lines.append(f"{prefix}.{name}: {annotation}")
    fields = (
        {item.name for item in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
    )
    for name, member in sorted(cls.__dict__.items()):
        if (name.startswith("_") and name != "__init__") or name in fields:
            continue
        if name == "__init__" and (issubclass(cls, BaseModel) or dataclasses.is_dataclass(cls)):
            continue  # the fields above are the constructor
        if isinstance(member, property):
            lines.append(f"{prefix}.{name} (property)")
        elif isinstance(member, (classmethod, staticmethod)):
            lines.append(f"{prefix}.{name}{_signature(member.__func__)}")
        elif inspect.isfunction(member):
            lines.append(f"{prefix}.{name}{_signature(member)}")
        elif isinstance(member, (str, int, float, tuple)) and not issubclass(cls, BaseModel):
            lines.append(f"{prefix}.{name} = {member!r}")
    return lines


def _value_lines(prefix: str, value: Any) -> list[str]:
    module = getattr(value, "__module__", None) or ""
    if (inspect.isclass(value) or inspect.isfunction(value)) and not module.startswith("workbench"):
        return [f"{prefix}: re-exported from {module}.{value.__qualname__}"]
    if inspect.isclass(value):
        return _class_lines(prefix, value)
    if inspect.isfunction(value):
        return [f"{prefix}{_signature(value)}"]
    if isinstance(value, (str, int, float, bool)):
        return [f"{prefix} = {value!r}"]
    if isinstance(value, dict):
        return [f"{prefix}: dict of {len(value)}"]
    # Type aliases (``Surface``, ``HumanIntervention``) and constant instances.
    if (
        isinstance(value, (types.GenericAlias, types.UnionType))
        or "typing" in type(value).__module__
    ):
        return [f"{prefix}: alias {value}"]
    return [f"{prefix}: {type(value).__name__}"]


def listing() -> list[str]:
    """Every public name of ``workbench.api`` (and of the kit it exports), one per line."""
    import workbench.api as api

    lines = [f"API_VERSION {api.API_VERSION}"]
    for name in sorted(api.__all__):
        with warnings.catch_warnings():
            # A deprecated name is still part of the API until the major moves: list it.
            warnings.simplefilter("ignore", DeprecationWarning)
            value = getattr(api, name)
        if isinstance(value, types.ModuleType):
            lines.append(f"{name}: module")
            for member in sorted(value.__all__):
                lines += _value_lines(f"{name}.{member}", getattr(value, member))
        else:
            lines += _value_lines(name, value)
    return lines


def compare(recorded: list[str], current: list[str]) -> tuple[list[str], list[str]]:
    """Lines of ``recorded`` missing from ``current`` (removed or changed), and new lines."""
    now = set(current)
    before = set(recorded)
    return [line for line in recorded if line not in now], [
        line for line in current if line not in before
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--write", action="store_true", help=f"rewrite {LISTING.name}")
    options = parser.parse_args()
    text = "\n".join(listing()) + "\n"
    if options.write:
        LISTING.write_text(text, encoding="utf-8")
        print(f"wrote {LISTING}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
