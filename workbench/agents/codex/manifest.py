"""Codex's built-in tools, as the tool specs of its source (``codex-rs/core/src/tools``)
declare them. The descriptions are ours, a line each. Older rollouts' names are here too:
``timeout`` (read as ``timeout_ms``) and ``with_escalated_permissions`` (before
``sandbox_permissions``)."""

from __future__ import annotations

from workbench.agents.schema import api, boolean, choice, items, number, record, string, strings
from workbench.api import SCHEMAS_CHECKED, ToolManifest

IDENTIFIER = "codex"

_RUN_OPTIONS = {
    "workdir": string("The folder to run it in."),
    "timeout_ms": number("Milliseconds before it is stopped."),
    "timeout": number("Milliseconds before it is stopped (older rollouts' name)."),
    "with_escalated_permissions": boolean(
        "Older rollouts: run outside the sandbox (now sandbox_permissions)."
    ),
    "sandbox_permissions": string(
        '"use_default" or "require_escalated" (run outside the sandbox).'
    ),
    "justification": string("Why it must run outside the sandbox, shown to the user."),
    "prefix_rule": strings("A command prefix the user may approve for later calls."),
}

MANIFEST = ToolManifest.model_validate(
    {
        "identifier": IDENTIFIER,
        "meta": {
            "title": "Codex",
            "emoji": "◎",
            "description": "Codex's own tools, drawn from imported sessions (they run only "
            "inside Codex).",
        },
        "api": [
            api(
                "shell",
                "Run a command given as an argument list (execvp).",
                {"command": strings("The command and its arguments."), **_RUN_OPTIONS},
                ("command",),
            ),
            api(
                "shell_command",
                "Run a shell script in the user's shell.",
                {
                    "command": string("The script."),
                    "login": boolean("Run it in a login shell."),
                    **_RUN_OPTIONS,
                },
                ("command",),
            ),
            api(
                "exec_command",
                "Run a command in a session that can be written to and read later.",
                {
                    "cmd": string("The command."),
                    "workdir": string("The folder to run it in."),
                    "shell": string("The shell to run it with."),
                    "login": boolean("Run it in a login shell."),
                    "tty": boolean("Give it a terminal."),
                    "yield_time_ms": number("Milliseconds to wait for output before answering."),
                    "max_output_tokens": number("The most output to return, in tokens."),
                    "sandbox_permissions": _RUN_OPTIONS["sandbox_permissions"],
                    "justification": _RUN_OPTIONS["justification"],
                    "prefix_rule": _RUN_OPTIONS["prefix_rule"],
                },
                ("cmd",),
            ),
            api(
                "apply_patch",
                "Add, update, move or delete files with one patch (*** Begin Patch ... End Patch).",
                {"input": string("The whole patch.")},
                ("input",),
            ),
            api(
                "update_plan",
                "Replace the plan: steps with their states, at most one in progress.",
                {
                    "explanation": string("Why the plan changed."),
                    "plan": items(
                        "The steps, in order.",
                        record(
                            {
                                "step": string("The step."),
                                "status": choice(
                                    "Where it stands.", "pending", "in_progress", "completed"
                                ),
                            },
                            ("step", "status"),
                        ),
                    ),
                },
                ("plan",),
            ),
            api(
                "web_search",
                "Search the web (the model's own web_search tool; a rollout records the query).",
                {"query": string("The search query.")},
                ("query",),
            ),
            api(
                "view_image",
                "Attach a local image for the model to see.",
                {"path": string("The image's path.")},
                ("path",),
            ),
        ],
    },
    context=SCHEMAS_CHECKED,
)

FAMILIES = {
    "shell": "shell",
    "shell_command": "shell",
    "exec_command": "shell",
    "apply_patch": "edit",
    "update_plan": "todo",
    "web_search": "web-search",
    "view_image": "image",
}
"""Which family of surfaces draws each API."""
