"""The skills runtime: a skill library injected through the constructor."""

from __future__ import annotations

import asyncio
from typing import Any

from workbench.api import BaseRuntime, CallContext, ToolError, ToolResult, to_result
from workbench.tools.skills.library import SkillError, SkillLibrary, count_lines


def _error(error: SkillError, available_label: str) -> ToolResult:
    listing = ", ".join(error.available) if error.available else "none"
    content = f"{error.message}. {available_label}: {listing}."
    return to_result(
        success=False,
        content=content,
        state={"available": error.available},
        error=ToolError(
            type=error.error_type, message=error.message, body={"available": error.available}
        ),
    )


class SkillsRuntime(BaseRuntime):
    api_names = ("activateSkill", "readReference")

    def __init__(self, library: SkillLibrary) -> None:
        self.library = library

    async def activateSkill(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        name = str(args.get("name", ""))
        try:
            skill, body, truncated, total_lines = await asyncio.to_thread(
                self.library.activate, name
            )
        except SkillError as error:
            return _error(error, "Available skills")
        references = skill.references()
        state = {
            "name": skill.name,
            "description": skill.description,
            "references": references,
            "lines": count_lines(body),
            "totalLines": total_lines,
            "truncated": truncated,
        }
        note = "\n\n[the skill was longer; only the first part is shown]" if truncated else ""
        return to_result(success=True, content=body + note, state=state)

    async def readReference(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        name = str(args.get("skill", ""))
        path = str(args.get("path", ""))
        try:
            skill, text, size, truncated, total_lines = await asyncio.to_thread(
                self.library.read_reference, name, path
            )
        except SkillError as error:
            return _error(
                error,
                f"References of {name!r}"
                if error.error_type != "SkillNotFound"
                else "Available skills",
            )
        state = {
            "skill": skill.name,
            "path": path,
            "size": size,
            "lines": count_lines(text),
            "totalLines": total_lines,
            "truncated": truncated,
        }
        if not text.strip():
            return to_result(success=True, content=f"{path} of {skill.name} is empty.", state=state)
        note = f"\n\n[truncated: showing {len(text):,} of {size:,} characters]" if truncated else ""
        return to_result(success=True, content=text + note, state=state)
