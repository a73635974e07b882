"""The audit's rules, one small function each, numbered after the render principle they check.

A rule takes a :class:`~workbench.audit.model.Subject` (one fixture variant, drawn in every
phase, width and theme) and yields ``(key, problem, advice)``: which drawing, what is wrong
in the author's terms, and what to change. The numbers are those of PRINCIPLES.md (the seeds'
"Tool Render design principles"); several rules may check one principle.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from workbench.audit.model import Finding, RenderKey, Subject

Check = Callable[[Subject], Iterable[tuple[RenderKey, str, str] | tuple[RenderKey, str, str, str]]]
"""Yields ``(key, problem, advice)``, or ``(key, problem, advice, host)`` for a host rule."""


@dataclass(frozen=True)
class Rule:
    name: str
    number: int
    check: Check

    @property
    def summary(self) -> str:
        """The rule's docstring (its first paragraph), as one line."""
        doc = (self.check.__doc__ or "").strip().split("\n\n", 1)[0]
        return " ".join(line.strip() for line in doc.splitlines())

    def run(self, subject: Subject) -> Iterator[Finding]:
        for key, problem, advice, *host in self.check(subject):
            yield Finding(
                self.name, self.number, key, problem, advice, host=host[0] if host else None
            )


RULES: list[Rule] = []


def rule(number: int, name: str) -> Callable[[Check], Check]:
    """Register a check as rule ``name`` of principle ``number``."""

    def register(check: Check) -> Check:
        RULES.append(Rule(name, number, check))
        return check

    return register


def rules_by_name() -> dict[str, Rule]:
    _load()
    return {item.name: item for item in RULES}


def all_rules() -> list[Rule]:
    """Every rule, in the order of the principles they check."""
    _load()
    return sorted(RULES, key=lambda item: item.number)


def _load() -> None:
    # Importing a module registers its rules, in principle order.
    from workbench.audit.rules import (  # noqa: F401
        apps,
        blank,
        contrast,
        hosts,
        inspector,
        internals,
        layout,
        outcomes,
        plurals,
        truncation,
        wording,
    )
