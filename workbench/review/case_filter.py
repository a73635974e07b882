"""The review queue's filter: ``status:changed tool:calculator phase:done`` and free text.

Words are ANDed. ``status:``, ``tool:``, ``api:``, ``variant:``, ``phase:``, ``theme:``,
``width:`` and ``surface:`` match that part of a case (``status:`` any of its statuses:
to-review, changed, new, unchanged, accepted, rejected, outdated, unreviewed); any other word
must occur in the case id. Values may list alternatives: ``status:changed,new``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from workbench.review.board import ReviewItem

FIELDS = ("status", "tool", "api", "variant", "phase", "theme", "width", "surface")
STATUS_WORDS = (
    "to-review",
    "changed",
    "new",
    "unchanged",
    "accepted",
    "rejected",
    "outdated",
    "unreviewed",
)


def statuses(item: ReviewItem) -> set[str]:
    """Every status word a case answers to."""
    found: set[str] = {item.snapshot, item.review}
    if item.group == 0:
        found.add("to-review")
    if item.review == "outdated":
        found.add("changed")
    return found


@dataclass(frozen=True)
class CaseFilter:
    terms: dict[str, tuple[str, ...]] = field(default_factory=dict)
    words: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    """Words that name an unknown field or status, for the screen to say so."""

    @classmethod
    def parse(cls, text: str) -> CaseFilter:
        terms: dict[str, tuple[str, ...]] = {}
        words: list[str] = []
        problems: list[str] = []
        for word in text.lower().split():
            name, colon, value = word.partition(":")
            if not colon:
                words.append(word)
                continue
            if name not in FIELDS:
                problems.append(f"no field {name!r} (fields: {', '.join(FIELDS)})")
                continue
            values = tuple(part for part in value.split(",") if part)
            if name == "status":
                unknown = [part for part in values if part not in STATUS_WORDS]
                if unknown:
                    problems.append(f"no status {unknown[0]!r} ({', '.join(STATUS_WORDS)})")
            if values:
                terms[name] = terms.get(name, ()) + values
        return cls(terms, tuple(words), tuple(problems))

    @property
    def empty(self) -> bool:
        return not self.terms and not self.words

    def matches(self, item: ReviewItem) -> bool:
        key = item.key
        parts = {
            "tool": key.tool.lower(),
            "api": key.api.lower(),
            "variant": key.variant.lower(),
            "phase": key.phase.lower(),
            "theme": key.theme,
            "width": str(key.width),
            "surface": key.surface,
        }
        for name, values in self.terms.items():
            if name == "status":
                if not statuses(item) & set(values):
                    return False
            elif not any(value in parts[name] for value in values):
                return False
        case_id = item.id.lower()
        return all(word in case_id for word in self.words)
