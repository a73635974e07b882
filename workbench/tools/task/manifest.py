"""The task tool's manifest."""

from __future__ import annotations

from workbench.api import SCHEMAS_CHECKED, ToolManifest
from workbench.tools.task.store import SETTABLE_STATUSES, STATUSES

IDENTIFIER = "task"

SYSTEM_ROLE = """You can plan and run work as tasks.

- **createTask**: create one task (name + instruction); use parentIdentifier for a subtask and
  dependsOn for ordering. Give it a `command` if running it should execute something.
- **createTasks**: prefer this over several createTask calls when planning a batch; it reports
  which tasks were created and which failed.
- **listTasks**: list tasks, optionally by status, parent or a text query.
- **runTask**: actually START a task: runs its command and records completed or failed. Its
  dependencies must be completed first. Do NOT use updateTaskStatus to start a task.
- **updateTaskStatus**: change a task's status by hand (completed, cancelled, paused, failed,
  todo); it only flips the status, it executes nothing. Include `error` when marking failed.

When planning: create the tasks (in one createTasks call), then run them in dependency order.
"""

_IDENTIFIER = {
    "type": "string",
    "pattern": "^(TASK-)?[0-9]+$",
    "description": 'A task identifier such as "TASK-3".',
}
_TASK = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name", "instruction"],
    "properties": {
        "name": {
            "type": "string",
            "minLength": 1,
            "maxLength": 200,
            "description": "Short, descriptive name.",
        },
        "instruction": {
            "type": "string",
            "description": "What the task should accomplish, in enough detail to do it.",
        },
        "priority": {
            "type": "integer",
            "minimum": 0,
            "maximum": 4,
            "default": 0,
            "description": "0 = none, 1 = urgent, 2 = high, 3 = normal, 4 = low.",
        },
        "parentIdentifier": {**_IDENTIFIER, "description": "Make this a subtask of that task."},
        "dependsOn": {
            "type": "array",
            "items": _IDENTIFIER,
            "uniqueItems": True,
            "description": "Tasks that must be completed before this one can run.",
        },
        "command": {
            "type": "string",
            "description": "Shell command runTask executes for this task (optional).",
        },
    },
}

MANIFEST = ToolManifest.model_validate(
    {
        "identifier": IDENTIFIER,
        "meta": {"title": "Tasks", "emoji": "📋", "description": "Plan, track and run tasks."},
        "systemRole": SYSTEM_ROLE,
        "api": [
            {
                "name": "createTask",
                "description": "Create one task. Prefer createTasks when creating several.",
                "parameters": _TASK,
            },
            {
                "name": "createTasks",
                "description": "Create several tasks in one call (preferred for planning). Each "
                "is created independently; the result lists which succeeded and which "
                "failed and why.",
                "parameters": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["tasks"],
                    "properties": {
                        "tasks": {
                            "type": "array",
                            "minItems": 1,
                            "maxItems": 100,
                            "items": _TASK,
                            "description": "The tasks to create, in order.",
                        }
                    },
                },
            },
            {
                "name": "listTasks",
                "description": "List tasks, most urgent first. Filters "
                "combine (AND); omitted filters "
                "are not applied.",
                "parameters": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {
                        "status": {
                            "type": "array",
                            "items": {"type": "string", "enum": list(STATUSES)},
                            "description": "Only tasks in these statuses.",
                        },
                        "parentIdentifier": {
                            **_IDENTIFIER,
                            "description": "Only subtasks of this task.",
                        },
                        "query": {
                            "type": "string",
                            "description": "Only tasks whose name or instruction "
                            "contains this text.",
                        },
                        "limit": {
                            "type": "integer",
                            "minimum": 1,
                            "maximum": 500,
                            "default": 50,
                            "description": "Most tasks to return; the total is always reported.",
                        },
                    },
                },
            },
            {
                "name": "updateTaskStatus",
                "description": "Set a task's status by hand. This does "
                "NOT run the task (use runTask). "
                "Include error when setting failed.",
                "humanIntervention": "required",
                "parameters": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["identifier", "status"],
                    "properties": {
                        "identifier": _IDENTIFIER,
                        "status": {
                            "type": "string",
                            "enum": list(SETTABLE_STATUSES),
                            "description": "The new status.",
                        },
                        "error": {
                            "type": "string",
                            "description": "Why the task failed (with status failed).",
                        },
                    },
                },
            },
            {
                "name": "runTask",
                "description": "Start a task: run its command in the workspace, stream its output, "
                "and record completed (exit 0) or failed. All dependsOn tasks must "
                "be completed.",
                "humanIntervention": "required",
                "defaultTimeoutMs": 300_000,
                "parameters": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["identifier"],
                    "properties": {"identifier": _IDENTIFIER},
                },
            },
        ],
    },
    context=SCHEMAS_CHECKED,
)
