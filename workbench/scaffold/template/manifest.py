"""Example tool's manifest: what the tool is, and its APIs.

The model reads ``systemRole`` and each API's ``description``; ``parameters`` is the
JSON Schema of the API's arguments (fixtures are checked against it too).
``humanIntervention`` says when a person approves a call first: ``never``, ``required``
or ``always``, or rules per argument such as
``[{"match": {"query": "secret*"}, "policy": "required", "reason": "..."}]``.
"""

from __future__ import annotations

from workbench.api import ToolManifest

IDENTIFIER = "example-tool"

SYSTEM_ROLE = """You can look things up with Example tool.

Call an API with a short query; it returns the items whose title or detail contains it.
"""

MANIFEST = ToolManifest.model_validate(
    {
        "identifier": IDENTIFIER,
        "meta": {
            "title": "Example tool",
            "emoji": "🧰",
            "description": "Looks items up by a word in their title or detail.",
        },
        "systemRole": SYSTEM_ROLE,
        "executors": ["client", "server"],
        "humanIntervention": "never",
        "api": [
            # >>> per api
            # findItems starts as the example API (find items by a word): give it its own
            # description, parameters, runtime method, surfaces and fixtures.
            {
                "name": "findItems",
                "description": (
                    "findItems: finds the items whose title or detail contains the query "
                    "(any case). Returns at most `limit` items and says how many matched."
                ),
                "defaultTimeoutMs": 10_000,
                "parameters": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["query"],
                    "properties": {
                        "query": {
                            "type": "string",
                            "minLength": 1,
                            "maxLength": 200,
                            "description": "A word or phrase to look for.",
                        },
                        "limit": {
                            "type": "integer",
                            "minimum": 1,
                            "maximum": 20,
                            "default": 5,
                            "description": "Most items to return (default 5).",
                        },
                    },
                },
            },
            # <<< per api
        ],
    }
)
