"""Skills: SKILL.md folders with reference files (manifest, runtime, surfaces)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.api import RuntimeServices, ToolPackage
from workbench.tools.skills.manifest import IDENTIFIER, MANIFEST
from workbench.tools.skills.surfaces import SURFACES

if TYPE_CHECKING:
    from workbench.tools.skills.library import SkillLibrary
    from workbench.tools.skills.runtime import SkillsRuntime


def create_runtime(services: RuntimeServices) -> SkillsRuntime:
    """The runtime (and PyYAML, for front matter) is imported here, not with the package."""
    from workbench.tools.skills.library import BUNDLED_SKILLS, SkillLibrary
    from workbench.tools.skills.runtime import SkillsRuntime

    extra = services.settings.get("skills.paths", "")
    roots = [Path(item) for item in extra.split(":") if item] + [
        services.workspace / "skills",
        BUNDLED_SKILLS,
    ]
    return SkillsRuntime(SkillLibrary(roots))


ENVIRONMENT = {"WORKBENCH_SKILLS_PATH": "skills.paths"}
"""The environment variables this tool reads, and the settings key each becomes."""

PACKAGE = ToolPackage(
    manifest=MANIFEST,
    surfaces=SURFACES,
    create_runtime=create_runtime,
    environment=ENVIRONMENT,
)


def __getattr__(name: str) -> Any:
    if name == "SkillLibrary":
        from workbench.tools.skills.library import SkillLibrary

        return SkillLibrary
    if name == "SkillsRuntime":
        from workbench.tools.skills.runtime import SkillsRuntime

        return SkillsRuntime
    raise AttributeError(name)


__all__ = ["IDENTIFIER", "MANIFEST", "PACKAGE", "SkillLibrary", "SkillsRuntime"]
