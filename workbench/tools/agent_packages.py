"""The coding agents' own tools (``claude-code``, ``codex``, ``gemini-cli``), offered to every
project on demand.

They are UI-only packages (:mod:`workbench.agents`): imported sessions call them, so their
surfaces draw such fixtures in any project, but a tool of theirs joins a project's tree,
coverage and snapshot matrix only through its fixtures, and only the APIs that have some. Their
kinds are observed, never owed: the project did not write those tools and cannot add a case
to them. A project's own package with the same identifier wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from workbench.core.manifest import ToolManifest
from workbench.core.problems import Problem
from workbench.fixtures.catalog import Catalog
from workbench.tools.discovery import load_specs
from workbench.tools.package import ToolPackage

AGENT_TOOL_MODULES: tuple[str, ...] = (
    "workbench.agents.claude_code",
    "workbench.agents.codex",
    "workbench.agents.gemini_cli",
)
"""Loaded by name, like the bundled tools: they are built on ``workbench.api``, a layer above."""

AGENT_ORIGIN = "bundled with Workbench (the agent's own tools: UI-only, no runtime)"


@lru_cache(maxsize=1)
def _loaded() -> tuple[tuple[ToolPackage, ...], tuple[Problem, ...]]:
    packages, problems = load_specs(AGENT_TOOL_MODULES, "bundled")
    return tuple(packages), tuple(problems)


def agent_packages(taken: Sequence[ToolPackage] = ()) -> list[ToolPackage]:
    """The agents' packages whose identifiers none of ``taken`` uses."""
    used = {package.identifier for package in taken}
    return [package for package in _loaded()[0] if package.identifier not in used]


def agent_problems() -> list[Problem]:
    """Why an agent package did not load (never expected: they ship with Workbench)."""
    return list(_loaded()[1])


def is_agent_manifest(manifest: ToolManifest) -> bool:
    """Whether ``manifest`` is one of the agents' own (not a project's tool of that name)."""
    return any(package.manifest is manifest for package in _loaded()[0])


def keep_agent_tools_in_use(catalog: Catalog, offered: Sequence[ToolPackage]) -> list[ToolPackage]:
    """The ``offered`` agent packages whose surfaces the project uses: all but those whose
    identifier a manifest file of the project took (its own tool of that name draws its own
    calls). Those in ``catalog`` are marked as the agents' own.

    ``catalog`` is :func:`~workbench.fixtures.catalog.build_catalog`'s with these packages'
    manifests offered: it already holds only the APIs some fixture file calls, and none of
    these tools when no fixture calls it.
    """
    kept: list[ToolPackage] = []
    for package in offered:
        tool = catalog.tools.get(package.identifier)
        if tool is not None and tool.manifest is not package.manifest:
            continue
        kept.append(package)
        if tool is not None:
            tool.origin = AGENT_ORIGIN
    return kept
