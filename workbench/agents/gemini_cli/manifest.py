"""gemini-cli's built-in tools, as the function declarations of its source declare them
(``packages/core/src/tools/definitions``; ``save_memory`` and ``search_file_content`` as
they were before their removal and rename). The descriptions are ours, a line each.

Older versions named some inputs differently, and their sessions are imported as they were:
the names their docs gave (``path``, then ``absolute_path`` for ``read_file`` with a 0-based
``offset`` and ``limit``; ``path`` for the folder of ``list_directory``, ``glob`` and
``search_file_content``; ``directory`` for ``run_shell_command``; ``paths`` for
``read_many_files``; ``replace`` without ``instruction``, with ``expected_replacements``) are
properties here too, and the required ones are alternatives (``formerly``)."""

from __future__ import annotations

from workbench.agents.schema import api, boolean, integer, record, string, strings
from workbench.api import SCHEMAS_CHECKED, ToolManifest

IDENTIFIER = "gemini-cli"

_FILTERING = record(
    {
        "respect_git_ignore": boolean("Leave out what .gitignore ignores."),
        "respect_gemini_ignore": boolean("Leave out what .geminiignore ignores."),
    },
    (),
)

_OLD_FOLDER = string("The folder (older versions' name for dir_path).")

_GREP = {
    "pattern": string("The regular expression to search for."),
    "dir_path": string("The folder to search (default: the workspace)."),
    "path": _OLD_FOLDER,
    "include": string("Only files matching this glob (older versions' include_pattern)."),
    "include_pattern": string('Only files matching this glob ("*.ts").'),
    "exclude_pattern": string("Leave out lines matching this regular expression."),
    "names_only": boolean("Return file names only."),
    "max_matches_per_file": integer("The most matches per file."),
    "total_max_matches": integer("The most matches in all."),
}

MANIFEST = ToolManifest.model_validate(
    {
        "identifier": IDENTIFIER,
        "meta": {
            "title": "Gemini CLI",
            "emoji": "✦",
            "description": "gemini-cli's own tools, drawn from imported sessions (they run only "
            "inside gemini-cli).",
        },
        "api": [
            api(
                "run_shell_command",
                "Run a shell command.",
                {
                    "command": string("The command."),
                    "description": string("What it does, for the user."),
                    "dir_path": string("The folder to run it in."),
                    "directory": string("The folder to run it in (older versions' name)."),
                    "is_background": boolean("Run it in the background."),
                    "delay_ms": integer("Milliseconds to wait before reading background output."),
                },
                ("command",),
            ),
            api(
                "read_file",
                "Read a file, or a line range of it.",
                {
                    "file_path": string("The file's path."),
                    "start_line": integer("The first line to read (1-based)."),
                    "end_line": integer("The last line to read."),
                    "absolute_path": string("The file's path (older versions' name)."),
                    "path": string("The file's path (the first versions' name)."),
                    "offset": integer("Older versions: the first line to read (0-based)."),
                    "limit": integer("Older versions: how many lines to read."),
                },
                ("file_path",),
                formerly=(("absolute_path",), ("path",)),
            ),
            api(
                "read_many_files",
                "Read every file matching some paths or globs.",
                {
                    "include": strings("Paths or globs to read."),
                    "paths": strings("Paths or globs to read (older versions, beside include)."),
                    "exclude": strings("Globs to leave out."),
                    "recursive": boolean("Search folders recursively."),
                    "useDefaultExcludes": boolean("Leave out node_modules, .git and the like."),
                    "file_filtering_options": _FILTERING,
                    "respect_git_ignore": boolean(
                        "Older versions: leave out what .gitignore ignores."
                    ),
                },
                ("include",),
                formerly=(("paths",),),
            ),
            api(
                "write_file",
                "Write a whole file.",
                {
                    "file_path": string("The file's path."),
                    "content": string("The file's new content."),
                },
                ("file_path", "content"),
            ),
            api(
                "replace",
                "Replace exact text in a file.",
                {
                    "file_path": string("The file's path."),
                    "instruction": string("What the change is for."),
                    "old_string": string("The text to replace."),
                    "new_string": string("The text to put in its place."),
                    "allow_multiple": boolean("Replace every occurrence."),
                    "expected_replacements": integer(
                        "Older versions: how many occurrences to replace (default 1)."
                    ),
                },
                # Older versions had no instruction; it is drawn when it is there.
                ("file_path", "old_string", "new_string"),
            ),
            api(
                "glob",
                "Find files by glob pattern, newest first.",
                {
                    "pattern": string('The glob ("**/*.py").'),
                    "dir_path": string("The folder to search."),
                    "path": _OLD_FOLDER,
                    "case_sensitive": boolean("Match case."),
                    "respect_git_ignore": boolean("Leave out what .gitignore ignores."),
                    "respect_gemini_ignore": boolean("Leave out what .geminiignore ignores."),
                },
                ("pattern",),
            ),
            api(
                "search_file_content",
                "Search file contents (the name gemini-cli used before grep_search).",
                _GREP,
                ("pattern",),
            ),
            api("grep_search", "Search file contents.", _GREP, ("pattern",)),
            api(
                "list_directory",
                "List a folder.",
                {
                    "dir_path": string("The folder's path."),
                    "path": _OLD_FOLDER,
                    "ignore": strings("Globs of entries to leave out."),
                    "file_filtering_options": _FILTERING,
                    "respect_git_ignore": boolean(
                        "Older versions: leave out what .gitignore ignores."
                    ),
                },
                ("dir_path",),
                formerly=(("path",),),
            ),
            api(
                "web_fetch",
                "Fetch up to 20 URLs named in the prompt and answer it.",
                {"prompt": string("The question, with the URLs in it.")},
                ("prompt",),
            ),
            api(
                "google_web_search",
                "Search the web with Google Search.",
                {"query": string("The search query.")},
                ("query",),
            ),
            api(
                "save_memory",
                "Remember a fact across sessions (in GEMINI.md).",
                {"fact": string("The fact, as one clear sentence.")},
                ("fact",),
            ),
        ],
    },
    context=SCHEMAS_CHECKED,
)

FAMILIES = {
    "run_shell_command": "shell",
    "read_file": "read",
    "read_many_files": "read-many",
    "write_file": "write",
    "replace": "edit",
    "glob": "glob",
    "search_file_content": "grep",
    "grep_search": "grep",
    "list_directory": "list",
    "web_fetch": "fetch",
    "google_web_search": "web-search",
    "save_memory": "memory",
}
"""Which family of surfaces draws each API."""
