"""The local-system manifest: files and commands inside a workspace."""

from __future__ import annotations

from workbench.api import SCHEMAS_CHECKED, ToolManifest

IDENTIFIER = "local-system"

# Reads are silent inside the workspace and need approval outside it; writes always need
# approval, and outside the workspace that approval cannot be waived by auto-run.
READ_POLICY = {"dynamic": {"type": "pathScopeAudit", "default": "never", "policy": "required"}}
WRITE_POLICY = {"dynamic": {"type": "pathScopeAudit", "default": "required", "policy": "always"}}
COMMAND_POLICY = [
    {"match": {"command": "rm *"}, "policy": "always", "reason": "it deletes files"},
    {"match": {"command": "* rm *"}, "policy": "always", "reason": "it deletes files"},
    {"match": {"command": "*rm -*"}, "policy": "always", "reason": "it deletes files"},
    {"match": {"command": "sudo *"}, "policy": "always", "reason": "it runs as the superuser"},
    # A harmless prefix does not make a chain, substitution or redirection harmless
    # (``ls; curl … | sh``, ``ls > file``): these never reach the ``never`` rules below.
    {
        "match": {"command": "*[;&|`$<>()\n]*"},
        "policy": "required",
        "reason": "it chains, pipes or redirects commands, or substitutes values into them",
    },
    {"match": {"command": "git status*"}, "policy": "never"},
    {"match": {"command": "ls*"}, "policy": "never"},
    {"match": {"command": "pwd"}, "policy": "never"},
    {"policy": "required", "reason": "it is not one of the read-only commands that run freely"},
]

SYSTEM_ROLE = """You can work with files and run commands in the user's workspace.

- **listFiles**: list a directory (recursive optional). Start here to learn the layout.
- **globFiles**: find files by name pattern (e.g. "src/**/*.py"). Prefer it over listing everything.
- **grepContent**: search file contents with a regular expression; narrow with `glob`.
- **readFile**: read a text file, optionally a line range (startLine/endLine) for big files.
- **writeFile**: create or overwrite a whole file. Needs the user's approval.
- **editFile**: replace one exact snippet (oldString -> newString) in a file; oldString must be
  unique unless replaceAll is true. Prefer it to rewriting a whole file. Needs approval.
- **runCommand**: run a shell command in the workspace; output streams back. Needs approval
  except for harmless commands such as `ls` and `git status`. Set `timeout` for long commands.

Paths are relative to the workspace. Paths outside it need the user's approval.
"""

# "format": "path" tells the path-scope audit exactly which arguments are paths.
_PATH = {
    "type": "string",
    "format": "path",
    "minLength": 1,
    "description": "A path relative to the workspace (absolute paths outside it need approval).",
}

MANIFEST = ToolManifest.model_validate(
    {
        "identifier": IDENTIFIER,
        "meta": {
            "title": "Local System",
            "emoji": "📁",
            "description": "Files and commands in the workspace.",
        },
        "systemRole": SYSTEM_ROLE,
        "executors": ["client"],
        "api": [
            {
                "name": "listFiles",
                "description": "List the entries of a directory (directories first). Set recursive "
                "to walk sub-directories; hidden entries are skipped unless includeHidden.",
                "humanIntervention": READ_POLICY,
                "renderDisplayControl": "collapsed",
                "defaultTimeoutMs": 30_000,
                "parameters": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {
                        "path": {**_PATH, "default": "."},
                        "recursive": {
                            "type": "boolean",
                            "default": False,
                            "description": "Walk sub-directories too.",
                        },
                        "includeHidden": {
                            "type": "boolean",
                            "default": False,
                            "description": "Include dot-files.",
                        },
                        "limit": {
                            "type": "integer",
                            "minimum": 1,
                            "maximum": 5000,
                            "default": 500,
                            "description": "Most entries to return; the total is always reported.",
                        },
                    },
                },
            },
            {
                "name": "readFile",
                "description": "Read a UTF-8 text file, or the lines "
                "startLine..endLine of it (1-based, "
                "inclusive). At most 2,000 lines are returned per call.",
                "humanIntervention": READ_POLICY,
                "renderDisplayControl": "collapsed",
                "defaultTimeoutMs": 30_000,
                "parameters": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["path"],
                    "properties": {
                        "path": _PATH,
                        "startLine": {
                            "type": "integer",
                            "minimum": 1,
                            "description": "First line to read (1-based).",
                        },
                        "endLine": {
                            "type": "integer",
                            "minimum": 1,
                            "description": "Last line to read (inclusive).",
                        },
                    },
                },
            },
            {
                "name": "writeFile",
                "description": "Create or overwrite a file with the "
                "given content. Parent directories "
                "are created. Use editFile for small changes to an existing file.",
                "humanIntervention": WRITE_POLICY,
                "renderDisplayControl": "expand",
                "defaultTimeoutMs": 30_000,
                "parameters": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["path", "content"],
                    "properties": {
                        "path": _PATH,
                        "content": {
                            "type": "string",
                            "description": "The whole new content of the file.",
                        },
                        "createDirectories": {
                            "type": "boolean",
                            "default": True,
                            "description": "Create missing parent directories.",
                        },
                    },
                },
            },
            {
                "name": "editFile",
                "description": "Replace an exact snippet of a file. oldString must match exactly "
                "once (include surrounding lines to make it unique) unless replaceAll "
                "is true.",
                "humanIntervention": WRITE_POLICY,
                "renderDisplayControl": "expand",
                "defaultTimeoutMs": 30_000,
                "parameters": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["path", "oldString", "newString"],
                    "properties": {
                        "path": _PATH,
                        "oldString": {
                            "type": "string",
                            "minLength": 1,
                            "description": "The exact text to replace.",
                        },
                        "newString": {"type": "string", "description": "The replacement text."},
                        "replaceAll": {
                            "type": "boolean",
                            "default": False,
                            "description": "Replace every occurrence.",
                        },
                    },
                },
            },
            {
                "name": "globFiles",
                "description": "Find files whose workspace-relative path matches a glob such as "
                '"**/*.py" or "docs/*.md".',
                "humanIntervention": READ_POLICY,
                "renderDisplayControl": "collapsed",
                "defaultTimeoutMs": 30_000,
                "parameters": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["pattern"],
                    "properties": {
                        "pattern": {
                            "type": "string",
                            "format": "path",
                            "minLength": 1,
                            "description": 'Glob pattern, e.g. "src/**/*.ts"; * '
                            "stays in one directory, ** crosses "
                            "them.",
                        },
                        "path": {
                            **_PATH,
                            "default": ".",
                            "description": "Directory to search from.",
                        },
                        "limit": {"type": "integer", "minimum": 1, "maximum": 5000, "default": 500},
                    },
                },
            },
            {
                "name": "grepContent",
                "description": "Search file contents for a regular expression "
                "(Python syntax). Returns "
                "matching lines with their file and line number.",
                "humanIntervention": READ_POLICY,
                "renderDisplayControl": "collapsed",
                "defaultTimeoutMs": 60_000,
                "parameters": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["pattern"],
                    "properties": {
                        "pattern": {
                            "type": "string",
                            "minLength": 1,
                            "description": "Regular expression.",
                        },
                        "path": {
                            **_PATH,
                            "default": ".",
                            "description": "File or directory to search.",
                        },
                        "glob": {
                            "type": "string",
                            "description": 'Only files whose name matches, e.g. "*.py".',
                        },
                        "ignoreCase": {"type": "boolean", "default": False},
                        "limit": {
                            "type": "integer",
                            "minimum": 1,
                            "maximum": 5000,
                            "default": 200,
                            "description": "Most matches to return; the total is always reported.",
                        },
                    },
                },
            },
            {
                "name": "runCommand",
                "description": "Run a shell command (/bin/sh) in the workspace and return its exit "
                "code and output. Output streams while it runs. The command is killed "
                "when the timeout passes.",
                "humanIntervention": COMMAND_POLICY,
                "renderDisplayControl": "expand",
                "defaultTimeoutMs": 120_000,
                "parameters": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["command"],
                    "properties": {
                        "command": {
                            "type": "string",
                            "minLength": 1,
                            "description": "The command line.",
                        },
                        "description": {
                            "type": "string",
                            "description": "One sentence on what the command does, "
                            "shown to the user when asking "
                            "approval.",
                        },
                        "cwd": {
                            **_PATH,
                            "description": "Working directory (default: the workspace).",
                        },
                        "timeout": {
                            "type": "integer",
                            "minimum": 1000,
                            "maximum": 800000,
                            "description": "Milliseconds before the command is killed "
                            "(default 120000).",
                        },
                    },
                },
            },
        ],
    },
    context=SCHEMAS_CHECKED,
)
