"""The glossary's manifest: what the tool is, and its two APIs.

The model reads ``systemRole`` and each API's ``description``; ``parameters`` is the JSON
Schema of the API's arguments, and Workbench checks every fixture's arguments against it.
A lookup changes nothing, so no call needs a person's approval (``humanIntervention: never``).
"""

from __future__ import annotations

from workbench.api import ToolManifest

IDENTIFIER = "glossary"

SYSTEM_ROLE = """You can look up LLM-agent terms in a glossary.

Use `define` when you know the term (or one of its aliases); use `search` to find the terms
that mention a word. Quote the definition rather than paraphrasing it.
"""

MANIFEST = ToolManifest.model_validate(
    {
        "identifier": IDENTIFIER,
        "meta": {
            "title": "Glossary",
            "emoji": "📖",
            "description": "Definitions of LLM-agent terms, offline.",
        },
        "systemRole": SYSTEM_ROLE,
        "executors": ["client", "server"],
        "humanIntervention": "never",
        "api": [
            {
                "name": "define",
                "description": (
                    "The definition of a term (any case; aliases such as RAG work too), its "
                    "aliases and related terms. An unknown term returns the closest ones."
                ),
                "defaultTimeoutMs": 5_000,
                "parameters": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["term"],
                    "properties": {
                        "term": {
                            "type": "string",
                            "minLength": 1,
                            "maxLength": 80,
                            "description": "The term to define, e.g. 'context window'.",
                        },
                        "max_chars": {
                            "type": "integer",
                            "minimum": 80,
                            "maximum": 4000,
                            "default": 400,
                            "description": "Longest definition to return (default 400).",
                        },
                    },
                },
            },
            {
                "name": "search",
                "description": (
                    "The terms whose name, aliases or definition contain a word (any case), "
                    "names first. Returns at most `limit` and says how many matched."
                ),
                "defaultTimeoutMs": 5_000,
                "parameters": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["query"],
                    "properties": {
                        "query": {
                            "type": "string",
                            "minLength": 1,
                            "maxLength": 80,
                            "description": "A word of two letters or more.",
                        },
                        "limit": {
                            "type": "integer",
                            "minimum": 1,
                            "maximum": 20,
                            "default": 5,
                            "description": "Most terms to return (default 5).",
                        },
                    },
                },
            },
        ],
    }
)
