"""Principles 3 and 11: no blank Inspector, no blank or word-less body, empty said in words."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from workbench.audit.model import CARD, Rendered, RenderKey, Subject
from workbench.audit.rules import rule
from workbench.audit.text import EMPTY_WORDS, WORD
from workbench.core.call_state import Phase

_CRASH = re.compile(r"(\w+) surface of \S+ crashed")


def looks_empty(kind: str, state: Any) -> bool:
    """The result has nothing in it: the variant says so, or every list in the state is empty
    (or a total is 0)."""
    if kind == "empty":
        return True
    if not isinstance(state, dict):
        return False
    lists = [value for value in state.values() if isinstance(value, list)]
    totals = [state[key] for key in ("total", "totalLines", "count") if key in state]
    if any(isinstance(total, int) and total == 0 for total in totals):
        return True
    return bool(lists) and all(not value for value in lists)


def _name(rendered: Rendered) -> str:
    if rendered.key.surface != CARD:
        return "Portal"
    return (rendered.body_kind.value if rendered.body_kind else "body").capitalize()


@rule(3, "inspector-never-blank")
def check_inspector(subject: Subject) -> Iterator[tuple[RenderKey, str, str]]:
    """The Inspector says something in every phase, from the first argument to the ending."""
    for rendered in subject.cards():
        if not WORD.search(rendered.inspector_text):
            yield (
                rendered.key,
                f"the Inspector is blank while the call is {rendered.key.phase.value}",
                "show the action and whatever argument has arrived (ctx.args holds the "
                "partial args while they stream)",
            )


@rule(11, "no-blank-surface")
def check_blank(subject: Subject) -> Iterator[tuple[RenderKey, str, str]]:
    """Every body and the Portal show words — never blank, never a lone number — and an empty
    result says in a sentence that nothing was produced."""
    for rendered in [*subject.cards(), *subject.portals()]:
        key = rendered.key
        rows = rendered.body_rows
        if key.surface == CARD and rendered.body_kind is None:
            continue  # Arguments still streaming: the card shows the host's preview.
        text = rendered.body_text
        if key.surface == CARD and not rows:
            continue
        if not WORD.search(text):
            shown = f"“{text.strip()[:20]}”" if text.strip() else "nothing"
            yield (
                key,
                f"the {_name(rendered)} shows {shown}",
                "say what happened in words (“the file is empty”, “no matches for …”)",
            )
            continue
        if (
            key.phase is Phase.DONE
            and looks_empty(subject.kind, rendered.ctx.result_state)
            and not EMPTY_WORDS.search(text)
        ):
            yield (
                key,
                f"the result is empty and the {_name(rendered)} does not say so "
                f"(it shows “{text.strip().splitlines()[0][:40]}”)",
                "add a sentence that nothing was produced and, if you can, what to try "
                "(“∅ no tasks match these filters”)",
            )


@rule(11, "surface-crash")
def check_crash(subject: Subject) -> Iterator[tuple[RenderKey, str, str]]:
    """No surface raises: a crash is drawn as an error box in place of the surface."""
    for rendered in [*subject.cards(), *subject.portals()]:
        match = _CRASH.search("\n".join(rendered.rows))
        if match is not None:
            yield (
                rendered.key,
                f"the {match.group(1)} surface raised an exception (the box says where)",
                "fix the surface: it must draw every state the reducer can produce",
            )
