"""The template renderer: the template package is real Python, and its names are the slots.

``workbench/scaffold/template/`` is a working tool package (ruff, mypy and the render audit
check it like any other code). Rendering swaps its names for the new tool's, and repeats
each block between ``# >>> per api`` and ``# <<< per api`` once per API, dropping the marker
lines. Nothing else in the template is special, so it stays code a person can read and run.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

BLOCK_START = "# >>> per api"
BLOCK_END = "# <<< per api"

TEMPLATE_TOOL = {
    "ExampleToolRuntime": "{class_name}Runtime",
    "example-tool": "{identifier}",
    "example_tool": "{module}",
    "Example tool": "{title}",
}
"""The template tool's names, and what each becomes."""
TEMPLATE_API = {"findItems": "{api}", "find_items": "{api_snake}"}
"""The template API's names (as written, and in function names)."""


@dataclass(frozen=True)
class ToolNames:
    """Every spelling of the new tool's name the template needs."""

    identifier: str
    """``my-tool``: the manifest identifier, fixture ``tool:`` and snapshot folder."""
    module: str
    """``my_tool``: the Python package."""
    class_name: str
    """``MyTool``: prefix of the runtime class."""
    title: str
    """``My tool``: what the card's header says."""


@dataclass(frozen=True)
class ApiNames:
    name: str
    """As the model calls it and the runtime method is named: ``searchPages``."""
    snake: str
    """In surface function names: ``search_pages``."""


def snake_case(name: str) -> str:
    """``searchPages`` -> ``search_pages``; ``HTTPGet`` -> ``http_get``."""
    words = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    words = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", words)
    return words.lower()


def _swap(text: str, table: dict[str, str], values: dict[str, str]) -> str:
    # Longest first, so "ExampleToolRuntime" is replaced before anything inside it.
    for token in sorted(table, key=len, reverse=True):
        text = text.replace(token, table[token].format(**values))
    return text


def _separator(block: str) -> str:
    """Blank lines between two copies of a block: as between top-level definitions (two),
    methods (one) or items of a literal (none)."""
    first = block.lstrip("\n").split("\n", 1)[0]
    stripped = first.lstrip()
    definition = stripped.startswith(("def ", "async def ", "class ", "@"))
    if not definition:
        return "\n"
    return "\n\n\n" if first == stripped else "\n\n"


def render_fixture(text: str, tool: ToolNames, api: ApiNames) -> str:
    """A fixture file of one API: its names everywhere, no blocks."""
    return render_template(
        _swap(text, TEMPLATE_API, {"api": api.name, "api_snake": api.snake}), tool, [api]
    )


def render_template(text: str, tool: ToolNames, apis: Sequence[ApiNames]) -> str:
    """``text`` with the template's names replaced and each per-API block repeated."""
    tool_values = {
        "identifier": tool.identifier,
        "module": tool.module,
        "class_name": tool.class_name,
        "title": tool.title,
    }
    output: list[str] = []
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.strip() != BLOCK_START:
            output.append(line)
            index += 1
            continue
        end = next(
            (at for at in range(index + 1, len(lines)) if lines[at].strip() == BLOCK_END), None
        )
        if end is None:
            raise ValueError(f"line {index + 1}: {BLOCK_START!r} without {BLOCK_END!r}")
        block = "\n".join(lines[index + 1 : end]).strip("\n")
        copies = [
            _swap(block, TEMPLATE_API, {"api": api.name, "api_snake": api.snake}) for api in apis
        ]
        rendered = _separator(block).join(copies)
        output.extend(rendered.split("\n"))
        # Blank lines before the end marker separate the block from code right after it;
        # before the end of a class or file they would be one blank line too many.
        inner = lines[index + 1 : end]
        trailing = len(inner) - len("\n".join(inner).rstrip("\n").split("\n"))
        if end + 1 < len(lines) and lines[end + 1].strip():
            output.extend([""] * trailing)
        index = end + 1
    return _swap("\n".join(output), TEMPLATE_TOOL, tool_values)
