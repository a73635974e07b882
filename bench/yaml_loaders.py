"""Faster YAML loaders against PyYAML's, on the generated check project: speed and meaning.

Workbench reads fixtures with PyYAML's ``CSafeLoader`` (YAML 1.1, what users' files were
written against) plus a line map. This measures, for each other loader that is installed
(``pip install yaml-rs ryaml rapidyaml``; none is a dependency), how long it takes on the
files of ``bench/check.py``'s project and on how many files its data differs from ours, then
prints what it makes of YAML 1.1 spellings where 1.1 and 1.2 disagree. rapidyaml gives a
tree, not Python data: its time is the parse plus the least walk that makes Python data
(no tag resolution, no lines), a lower bound.

    python bench/yaml_loaders.py [--files 1000]
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from workbench.core.source_map import load_with_lines

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check import REPO, generate  # The same project as the check benchmark.

CASES = [
    "a: yes",
    "a: off",
    "a: 017",
    "a: 0o17",
    "a: 1e3",
    "a: 1_000",
    "a: 1:30",
    "a: 2001-12-14",
    "a: -.5",
    "a: =",
    "base: &b {x: 1}\nd: {<<: *b, y: 2}",
    "a: 1\na: 2",
]


def _ryml_data(text: str) -> Any:
    ryml = importlib.import_module("ryml")
    tree = ryml.parse_in_arena(text.encode())

    def walk(node: int) -> Any:
        if tree.is_map(node) or tree.is_seq(node):
            items = []
            child = tree.first_child(node)
            while child != ryml.NONE:
                key = bytes(tree.key(child)).decode() if tree.is_map(node) else None
                items.append((key, walk(child)))
                child = tree.next_sibling(child)
            return dict(items) if tree.is_map(node) else [value for _, value in items]
        return bytes(tree.val(node)).decode()

    return walk(tree.root_id())


def loaders() -> dict[str, Callable[[str], Any]]:
    found: dict[str, Callable[[str], Any]] = {
        "ours (CSafeLoader + lines)": lambda text: load_with_lines(text).data,
        "PyYAML CSafeLoader": lambda text: yaml.load(text, Loader=yaml.CSafeLoader),
    }
    for name, module, function in (("yaml-rs", "yaml_rs", "loads"), ("ryaml", "ryaml", "loads")):
        try:
            found[name] = getattr(importlib.import_module(module), function)
        except ImportError:
            print(f"{name}: not installed")
    try:
        importlib.import_module("ryml")
        found["rapidyaml (parse + walk)"] = _ryml_data
    except ImportError:
        print("rapidyaml: not installed")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="workbench-yaml-") as scratch:
        project = Path(scratch)
        generate(project, options.files)
        folders = [REPO / "fixtures", project / "generated"]
        texts = [
            path.read_text(encoding="utf-8")
            for folder in folders
            for path in sorted(folder.rglob("*.yaml"))
        ]
    size = sum(len(text.encode()) for text in texts) / 1e6
    print(f"{len(texts)} files ({size:.1f} MB); load average {os.getloadavg()[0]:.1f}")
    found = loaders()
    reference = [load_with_lines(text).data for text in texts]
    for name, load in found.items():
        times = []
        for _ in range(3):
            started = time.process_time()
            data = [load(text) for text in texts]
            times.append(time.process_time() - started)
        differ = sum(1 for ours, theirs in zip(reference, data, strict=True) if ours != theirs)
        print(f"{name:<28} {min(times) * 1000:6.0f} ms CPU (best of 3); differs on {differ} files")
    print("\nYAML 1.1 spellings (PyYAML's meaning first):")
    for case in CASES:
        row = []
        for load in found.values():
            try:
                row.append(repr(load(case)))
            except Exception as error:  # noqa: BLE001 - an error is an answer here
                row.append(f"error: {type(error).__name__}")
        print(f"  {case!r}: " + " | ".join(row[1:]))


if __name__ == "__main__":
    main()
