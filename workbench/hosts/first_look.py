"""The host's first look: a drawn card folded the way a host folds a result.

A card is drawn as lines: its top border, the Inspector line, a rule, the body, the bottom
border. A host shows the header and a few lines of the body (from the start, the end, or
both) with its own elision line for the rest, until a person expands it. This works on
lines of text (or of styled segments, kept as they are), so the same fold serves ``show``,
the TUI and the snapshots.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from workbench.hosts.profile import HostProfile

Line = TypeVar("Line")

_RULE_CHARACTERS = frozenset("─━═-")


@dataclass(frozen=True)
class FirstLook(Generic[Line]):
    """The lines a host shows first, and how many it hides behind its elision line."""

    lines: list[Line]
    hidden: int
    """Body lines behind the elision line (0: the card is shown whole)."""
    elision: str | None
    """The host's elision line as text, when something is hidden."""
    body_lines: int
    """How many body lines the full card has."""


def first_look(
    lines: Sequence[Line],
    host: HostProfile,
    *,
    text_of: Callable[[Line], str],
    elision_line: Callable[[str, Line], Line],
) -> FirstLook[Line]:
    """Fold the drawn card ``lines`` by ``host``'s user rule.

    ``text_of`` gives a line's plain text; ``elision_line(text, like)`` builds the host's
    elision line framed like the body line ``like``.
    """
    rule = host.user
    header, body, footer = split_card(lines, text_of)
    if rule is None or len(body) <= rule.head + rule.tail:
        return FirstLook(lines=list(lines), hidden=0, elision=None, body_lines=len(body))
    hidden = len(body) - rule.head - rule.tail
    elision = rule.elision.replace("{hidden}", f"{hidden:,}")
    kept_head = list(body[: rule.head])
    kept_tail = list(body[len(body) - rule.tail :]) if rule.tail else []
    framed = elision_line(elision, body[0])
    return FirstLook(
        lines=[*header, *kept_head, framed, *kept_tail, *footer],
        hidden=hidden,
        elision=elision,
        body_lines=len(body),
    )


def split_card(
    lines: Sequence[Line], text_of: Callable[[Line], str]
) -> tuple[list[Line], list[Line], list[Line]]:
    """Header (top border, Inspector line, rule), body, footer (bottom border)."""
    if len(lines) < 3:
        return list(lines), [], []
    header_end = 2
    if len(lines) > 3 and _is_rule(text_of(lines[2])):
        header_end = 3
    return list(lines[:header_end]), list(lines[header_end:-1]), [lines[-1]]


def _is_rule(text: str) -> bool:
    inner = text.strip().strip("│┃|").strip()
    return bool(inner) and set(inner) <= _RULE_CHARACTERS
