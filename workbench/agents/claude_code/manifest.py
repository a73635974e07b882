"""Claude Code's built-in tools, as its published tool input types (``sdk-tools.d.ts``) and
tool reference describe them. The descriptions are ours, a line each.

Sessions of older versions are imported as they were, so the inputs those versions documented
are here too: TodoWrite items with ``priority`` and ``id`` (before ``activeForm``), Edit's
``expected_replacements`` (before ``replace_all``), Task without ``subagent_type`` (before
subagents could be chosen). The tools later versions renamed are here under both names: Task
and Agent, KillBash and KillShell, BashOutput and TaskOutput (with TaskStop, which stops
shells and subagents alike)."""

from __future__ import annotations

from workbench.agents.schema import (
    api,
    boolean,
    choice,
    items,
    number,
    record,
    string,
    strings,
)
from workbench.api import SCHEMAS_CHECKED, ToolManifest

IDENTIFIER = "claude-code"

TODO_STATES = ("pending", "in_progress", "completed")
TODO_PRIORITIES = ("high", "medium", "low")

MANIFEST = ToolManifest.model_validate(
    {
        "identifier": IDENTIFIER,
        "meta": {
            "title": "Claude Code",
            "emoji": "✳",
            "description": "Claude Code's own tools, drawn from imported sessions (they run "
            "only inside Claude Code).",
        },
        "api": [
            api(
                "Bash",
                "Run a shell command in Claude Code's persistent shell.",
                {
                    "command": string("The command to run."),
                    "timeout": number(
                        "Milliseconds before it is stopped (at most 600000).", maximum=600000
                    ),
                    "description": string("What the command does, in a few words."),
                    "run_in_background": boolean(
                        "Run it in the background; read it with BashOutput."
                    ),
                },
                ("command",),
            ),
            api(
                "BashOutput",
                "Read what a background shell printed since the last read.",
                {
                    "bash_id": string("The background shell's id."),
                    "filter": string("A regular expression: only lines that match are returned."),
                },
                ("bash_id",),
            ),
            *(
                api(
                    name,
                    "Stop a background shell.",
                    {"shell_id": string("The background shell's id.")},
                    ("shell_id",),
                )
                for name in ("KillShell", "KillBash")
            ),
            api(
                "TaskOutput",
                "Read what a background shell or subagent has put out, waiting for it or not.",
                {
                    "task_id": string("The background task's id."),
                    "block": boolean("Wait until the task ends."),
                    "timeout": number("Milliseconds to wait at most."),
                },
                ("task_id",),
            ),
            api(
                "TaskStop",
                "Stop a background shell or subagent.",
                {
                    "task_id": string("The background task's id."),
                    "shell_id": string("The background shell's id (the older name)."),
                },
                ("task_id",),
                formerly=(("shell_id",),),
            ),
            api(
                "Read",
                "Read a file (text with line numbers, images, PDFs, notebooks).",
                {
                    "file_path": string("The absolute path of the file."),
                    "offset": number("The line to start at."),
                    "limit": number("How many lines to read."),
                },
                ("file_path",),
            ),
            api(
                "Write",
                "Write a whole file, creating or replacing it.",
                {
                    "file_path": string("The absolute path of the file."),
                    "content": string("The file's new content."),
                },
                ("file_path", "content"),
            ),
            api(
                "Edit",
                "Replace an exact string in a file.",
                {
                    "file_path": string("The absolute path of the file."),
                    "old_string": string("The text to replace."),
                    "new_string": string("The text to put in its place."),
                    "replace_all": boolean("Replace every occurrence (default false)."),
                    "expected_replacements": number(
                        "Older versions: how many occurrences to replace (default 1)."
                    ),
                },
                ("file_path", "old_string", "new_string"),
            ),
            api(
                "MultiEdit",
                "Make several replacements in one file, in order, all or none.",
                {
                    "file_path": string("The absolute path of the file."),
                    "edits": items(
                        "The replacements, applied in order.",
                        record(
                            {
                                "old_string": string("The text to replace."),
                                "new_string": string("The text to put in its place."),
                                "replace_all": boolean("Replace every occurrence."),
                            },
                            ("old_string", "new_string"),
                        ),
                        minItems=1,
                    ),
                },
                ("file_path", "edits"),
            ),
            api(
                "NotebookEdit",
                "Replace, insert or delete a cell of a Jupyter notebook.",
                {
                    "notebook_path": string("The absolute path of the notebook."),
                    "cell_id": string("The cell to edit (insert: the cell to insert after)."),
                    "new_source": string("The cell's new source."),
                    "cell_type": choice("The cell's type.", "code", "markdown"),
                    "edit_mode": choice("What to do to the cell.", "replace", "insert", "delete"),
                },
                ("notebook_path", "new_source"),
            ),
            api(
                "Grep",
                "Search file contents with ripgrep.",
                {
                    "pattern": string("The regular expression to search for."),
                    "path": string("The file or folder to search (default: the working folder)."),
                    "glob": string('Only files matching this glob ("*.py").'),
                    "output_mode": choice(
                        "What to return.", "content", "files_with_matches", "count"
                    ),
                    "-B": number("Lines of context before each match (content mode)."),
                    "-A": number("Lines of context after each match (content mode)."),
                    "-C": number("Lines of context around each match (content mode)."),
                    "-n": boolean("Show line numbers (content mode)."),
                    "-i": boolean("Ignore case."),
                    "type": string('Only files of this ripgrep type ("py", "rust").'),
                    "head_limit": number("Return only the first N results."),
                    "multiline": boolean("Let patterns span lines."),
                },
                ("pattern",),
            ),
            api(
                "Glob",
                "Find files by glob pattern, newest first.",
                {
                    "pattern": string('The glob ("**/*.ts").'),
                    "path": string("The folder to search (default: the working folder)."),
                },
                ("pattern",),
            ),
            api(
                "LS",
                "List a folder.",
                {
                    "path": string("The absolute path of the folder."),
                    "ignore": strings("Globs of entries to leave out."),
                },
                ("path",),
            ),
            api(
                "WebFetch",
                "Fetch a URL and answer a prompt about its content.",
                {
                    "url": string("The URL to fetch.", format="uri"),
                    "prompt": string("What to find out from the page."),
                },
                ("url", "prompt"),
            ),
            api(
                "WebSearch",
                "Search the web.",
                {
                    "query": string("The search query.", minLength=2),
                    "allowed_domains": strings("Only results from these domains."),
                    "blocked_domains": strings("Never results from these domains."),
                },
                ("query",),
            ),
            api(
                "TodoWrite",
                "Replace the session's todo list.",
                {
                    "todos": items(
                        "The whole list, in order.",
                        record(
                            {
                                "content": string("What is to be done.", minLength=1),
                                "status": choice("Where it stands.", *TODO_STATES),
                                "activeForm": string(
                                    'The item as it is being done ("Running tests").',
                                    minLength=1,
                                ),
                                "priority": choice(
                                    "Older versions: how much it matters.", *TODO_PRIORITIES
                                ),
                                "id": string("Older versions: the item's id."),
                            },
                            ("content", "status", "activeForm"),
                            formerly=(("content", "status", "priority", "id"),),
                        ),
                    )
                },
                ("todos",),
            ),
            *(
                api(
                    name,
                    "Hand a task to a subagent, which works with its own tools and reports back.",
                    {
                        "description": string("The task in three to five words."),
                        "prompt": string("The task for the subagent."),
                        "subagent_type": string(
                            "Which kind of subagent does it (older versions had no choice)."
                        ),
                    },
                    ("description", "prompt"),
                )
                for name in ("Task", "Agent")
            ),
            api(
                "ExitPlanMode",
                "Present the plan and ask the user to leave plan mode.",
                {"plan": string("The plan, in Markdown.")},
                ("plan",),
            ),
            api(
                "AskUserQuestion",
                "Ask the user one to four multiple-choice questions.",
                {
                    "questions": items(
                        "The questions.",
                        record(
                            {
                                "question": string("The question."),
                                "header": string("A short label for it (at most 12 characters)."),
                                "options": items(
                                    "Two to four answers.",
                                    record(
                                        {
                                            "label": string("The answer."),
                                            "description": string("What it means."),
                                        },
                                        ("label", "description"),
                                    ),
                                    minItems=2,
                                    maxItems=4,
                                ),
                                "multiSelect": boolean("Whether several answers may be chosen."),
                            },
                            ("question", "header", "options", "multiSelect"),
                        ),
                        minItems=1,
                        maxItems=4,
                    )
                },
                ("questions",),
            ),
        ],
    },
    context=SCHEMAS_CHECKED,
)

FAMILIES = {
    "Bash": "shell",
    "BashOutput": "shell-output",
    "TaskOutput": "shell-output",
    "KillShell": "shell-kill",
    "KillBash": "shell-kill",
    "TaskStop": "shell-kill",
    "Read": "read",
    "Write": "write",
    "Edit": "edit",
    "MultiEdit": "edit",
    "NotebookEdit": "notebook",
    "Grep": "grep",
    "Glob": "glob",
    "LS": "list",
    "WebFetch": "fetch",
    "WebSearch": "web-search",
    "TodoWrite": "todo",
    "Task": "task",
    "Agent": "task",
    "ExitPlanMode": "plan",
    "AskUserQuestion": "ask",
}
"""Which family of surfaces draws each API."""
