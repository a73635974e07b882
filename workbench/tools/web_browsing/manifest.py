"""The web-browsing manifest."""

from __future__ import annotations

from workbench.api import SCHEMAS_CHECKED, ToolManifest

IDENTIFIER = "web-browsing"

CATEGORIES = ["general", "it", "news", "science", "images", "videos"]
TIME_RANGES = ["day", "week", "month", "year"]

SYSTEM_ROLE = """You can search the web and read pages.

- **search**: find pages for a query; results have a title, URL and snippet. Use specific
  queries; filter by category or time range when the user's question is about recent news.
- **crawlSinglePage**: read one page's main text (navigation and scripts removed). Use it when
  a search snippet is not enough.
- **crawlMultiPages**: read several pages at once (preferred over several crawlSinglePage
  calls); each page succeeds or fails on its own.

Cite the URLs you used. Pages are capped at 25,000 characters.
"""

MANIFEST = ToolManifest.model_validate(
    {
        "identifier": IDENTIFIER,
        "meta": {
            "title": "Web Browsing",
            "emoji": "🌐",
            "description": "Search the web and read pages.",
        },
        "systemRole": SYSTEM_ROLE,
        "executors": ["server"],
        "api": [
            {
                "name": "search",
                "description": "Search the web. Returns up to `limit` "
                "results (title, url, snippet, "
                "engine) and the total number found.",
                "defaultTimeoutMs": 30_000,
                "renderDisplayControl": "expand",
                "parameters": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["query"],
                    "properties": {
                        "query": {
                            "type": "string",
                            "minLength": 1,
                            "maxLength": 400,
                            "description": "What to search for; specific words work best.",
                        },
                        "categories": {
                            "type": "array",
                            "items": {"type": "string", "enum": CATEGORIES},
                            "uniqueItems": True,
                            "description": "Only results in these categories.",
                        },
                        "timeRange": {
                            "type": "string",
                            "enum": TIME_RANGES,
                            "description": "Only results from this recent period.",
                        },
                        "limit": {
                            "type": "integer",
                            "minimum": 1,
                            "maximum": 500,
                            "default": 10,
                            "description": "Most results to return.",
                        },
                    },
                },
            },
            {
                "name": "crawlSinglePage",
                "description": "Fetch one web page and return its readable text (title and main "
                "content, at most 25,000 characters).",
                "defaultTimeoutMs": 60_000,
                "parameters": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["url"],
                    "properties": {
                        "url": {
                            "type": "string",
                            "format": "uri",
                            "pattern": "^https?://",
                            "description": "The http(s) URL to read.",
                        }
                    },
                },
            },
            {
                "name": "crawlMultiPages",
                "description": "Fetch several pages concurrently and return each page's readable "
                "text; failures are reported per page.",
                "defaultTimeoutMs": 120_000,
                "parameters": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["urls"],
                    "properties": {
                        "urls": {
                            "type": "array",
                            "minItems": 1,
                            "maxItems": 50,
                            "items": {"type": "string", "format": "uri", "pattern": "^https?://"},
                            "description": "The http(s) URLs to read.",
                        },
                    },
                },
            },
        ],
    },
    context=SCHEMAS_CHECKED,
)
