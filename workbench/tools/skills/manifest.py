"""The skills tool's manifest."""

from __future__ import annotations

from workbench.api import SCHEMAS_CHECKED, ToolManifest

IDENTIFIER = "skills"

SYSTEM_ROLE = """Skills are written procedures for specific jobs (release notes, code review, ...).

- **activateSkill**: load a skill's instructions by name, then follow them. If the name is
  unknown, the result lists the skills that exist.
- **readReference**: read a file a skill points to (e.g. "references/template.md") once its
  instructions tell you to.

Activate a skill only when the user's request matches its description.
"""

MANIFEST = ToolManifest.model_validate(
    {
        "identifier": IDENTIFIER,
        "meta": {
            "title": "Skills",
            "emoji": "🧠",
            "description": "Load written procedures and their reference files.",
        },
        "systemRole": SYSTEM_ROLE,
        "api": [
            {
                "name": "activateSkill",
                "description": "Activate a skill by name to load its "
                "instructions; returns the instructions "
                "to follow. Unknown names return the list of available skills.",
                "parameters": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["name"],
                    "properties": {
                        "name": {
                            "type": "string",
                            "minLength": 1,
                            "description": 'The skill\'s name, e.g. "release-notes".',
                        }
                    },
                },
            },
            {
                "name": "readReference",
                "description": "Read one reference file of an activated skill, by its path inside "
                "the skill (as the instructions name it).",
                "parameters": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["skill", "path"],
                    "properties": {
                        "skill": {
                            "type": "string",
                            "minLength": 1,
                            "description": "The skill's name.",
                        },
                        "path": {
                            "type": "string",
                            "minLength": 1,
                            "description": 'Path inside the skill, e.g. "references/template.md".',
                        },
                    },
                },
            },
        ],
    },
    context=SCHEMAS_CHECKED,
)
