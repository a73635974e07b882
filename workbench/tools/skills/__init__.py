"""Skills: SKILL.md folders with reference files (manifest, runtime, surfaces)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from workbench.api import RuntimeServices, ToolPackage, lazy_names
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


PACKAGE = ToolPackage(
    manifest=MANIFEST,
    surfaces=SURFACES,
    create_runtime=create_runtime,
    environment={"WORKBENCH_SKILLS_PATH": "skills.paths"},
)


__getattr__ = lazy_names(__name__, {"SkillLibrary": ".library", "SkillsRuntime": ".runtime"})


__all__ = ["IDENTIFIER", "MANIFEST", "PACKAGE", "SkillLibrary", "SkillsRuntime"]
