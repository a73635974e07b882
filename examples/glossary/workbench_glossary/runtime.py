"""The glossary's runtime: ``define`` and ``search`` over :data:`~.terms.TERMS`.

Every result goes through ``to_result``: ``content`` is what the model reads, ``state`` what
the surfaces draw, and a refused call has a stable ``error.type`` (``BlankTerm``,
``QueryTooShort``).
"""

from __future__ import annotations

import difflib
from typing import Any

from workbench.api import BaseRuntime, CallContext, ToolError, ToolResult, to_result

from .manifest import MANIFEST
from .terms import TERMS, Term

DEFAULT_MAX_CHARS = 400
DEFAULT_LIMIT = 5
MIN_QUERY = 2
"""Shortest search word: one letter matches nearly every definition."""

_BY_NAME: dict[str, Term] = {}
for _entry in TERMS:
    for _name in (_entry.term, *_entry.aliases):
        _BY_NAME[_name.casefold()] = _entry


def lookup(term: str) -> Term | None:
    """The entry named ``term`` or one of its aliases, any case."""
    return _BY_NAME.get(" ".join(term.split()).casefold())


def closest(term: str, count: int = 3) -> list[str]:
    """Terms spelled like ``term``, best first: what an unknown term suggests."""
    names = {name: entry.term for name, entry in _BY_NAME.items()}
    matches = difflib.get_close_matches(term.casefold(), list(names), n=count * 2, cutoff=0.6)
    suggestions: list[str] = []
    for match in matches:
        if names[match] not in suggestions:
            suggestions.append(names[match])
    return suggestions[:count]


def define_state(term: str, max_chars: int) -> dict[str, Any]:
    """What ``define`` returns to the surfaces for ``term`` (found or not)."""
    entry = lookup(term)
    if entry is None:
        return {"term": term, "found": False, "suggestions": closest(term)}
    definition = entry.definition
    shown = definition
    if len(definition) > max_chars:
        # Cut between words: half a word reads like a typo in the definition.
        shown = definition[: max_chars + 1].rsplit(maxsplit=1)[0].rstrip(",;:")
    return {
        "term": entry.term,
        "found": True,
        "definition": shown,
        "length": len(definition),
        "aliases": list(entry.aliases),
        "see_also": list(entry.see_also),
    }


def define_content(state: dict[str, Any]) -> str:
    """What the model reads of a ``define`` result."""
    if not state["found"]:
        close = state["suggestions"]
        hint = (
            f" Close: {', '.join(close)}." if close else " Search finds the terms that mention it."
        )
        return f"No glossary entry for {state['term']!r}.{hint}"
    text = f"{state['term']}: {state['definition']}"
    if len(state["definition"]) < state["length"]:
        text += f"… [cut: showing {len(state['definition']):,} of {state['length']:,} characters]"
    if state["see_also"]:
        text += f" See also: {', '.join(state['see_also'])}."
    return text


def search_state(query: str, limit: int) -> dict[str, Any]:
    """What ``search`` returns: up to ``limit`` terms mentioning ``query``, names first."""
    needle = query.casefold()
    by_name = [
        entry
        for entry in TERMS
        if any(needle in name.casefold() for name in (entry.term, *entry.aliases))
    ]
    in_text = [
        entry for entry in TERMS if entry not in by_name and needle in entry.definition.casefold()
    ]
    matches = by_name + in_text
    items = [{"term": entry.term, "summary": entry.summary} for entry in matches[:limit]]
    return {"query": query, "items": items, "total": len(matches)}


def search_content(state: dict[str, Any]) -> str:
    """What the model reads of a ``search`` result."""
    query, items, total = state["query"], state["items"], state["total"]
    if total == 0:
        return f"No glossary term mentions {query!r}."
    found = f"{total} {'term mentions' if total == 1 else 'terms mention'} {query!r}"
    if len(items) < total:
        found += f"; showing the first {len(items)}"
    return f"{found}: " + "; ".join(item["term"] for item in items) + "."


class GlossaryRuntime(BaseRuntime):
    """Serves ``define`` and ``search``; it needs no workspace, settings or network."""

    api_names = tuple(MANIFEST.api_names())

    async def define(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        """The entry for ``term``, its definition cut at ``max_chars``."""
        del ctx
        term = " ".join(str(args.get("term", "")).split())
        if not term:
            return to_result(
                success=False,
                content="Could not define a term: the term is blank.",
                state={"term": "", "stage": "read the term"},
                error=ToolError(type="BlankTerm", message="the term is blank"),
            )
        state = define_state(term, int(args.get("max_chars", DEFAULT_MAX_CHARS)))
        return to_result(success=True, content=define_content(state), state=state)

    async def search(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        """The terms that mention ``query``, at most ``limit`` of them."""
        del ctx
        query = " ".join(str(args.get("query", "")).split())
        if len(query) < MIN_QUERY:
            message = f"a search word needs at least {MIN_QUERY} letters (got {len(query)})"
            return to_result(
                success=False,
                content=f"Could not search the glossary: {message}.",
                state={"query": query, "stage": "read the query"},
                error=ToolError(type="QueryTooShort", message=message),
            )
        state = search_state(query, int(args.get("limit", DEFAULT_LIMIT)))
        return to_result(success=True, content=search_content(state), state=state)
