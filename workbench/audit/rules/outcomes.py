"""Principles 3 and 4: a surface states only what happened, in this phase, to these items.

The wording rule reads the Inspector's verb; these read the rest of what a card and a
Portal say: an outcome a call that never ran cannot have, a Portal titled with a success on
a failure, a count whose verb is true of only some of it, a default the model never sent.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workbench.audit.model import Rendered, RenderKey, Subject
from workbench.audit.rules import rule
from workbench.audit.rules.plurals import quotes_data
from workbench.audit.rules.wording import OUTCOME_WORDS, first_word, is_completed_verb
from workbench.core.call_state import Phase

NEVER_RAN = (Phase.SKIPPED, Phase.BLOCKED)
"""Endings where the tool never started (a cancel may come before or after it did)."""
UNFINISHED = (Phase.FAILED, Phase.SKIPPED, Phase.BLOCKED, Phase.CANCELLED, Phase.TIMED_OUT)
RAN_CLAIMS = re.compile(
    r"\bprinted\b|\breturned\b|\bexited\b|\bexit \d+\b|\bresponded\b|\bproduced\b|✓",
)
"""Words that only a run can earn: what it printed, returned or exited with, a tick."""
EMPTY_TICK = re.compile(r"✓ 0\b")
"""A tick on nothing: "✓ 0 created" says something went well where nothing did."""
_COUNT_BREAKDOWN = re.compile(
    r"(?P<total>\d{1,3}(?:,\d{3})+|\d+) (?P<noun>[a-z]+) \((?P<parts>[^()]*)\)"
)
_PART = re.compile(r"^(?P<count>\d{1,3}(?:,\d{3})+|\d+) (?P<word>[a-z]+)$")
_LEAD = re.compile(r"^[^\w]*")


def _never_ran(rendered: Rendered) -> bool:
    phase = rendered.key.phase
    if phase in NEVER_RAN:
        return True
    return phase is Phase.CANCELLED and rendered.ctx.state.timings.run_ms is None


def _surface_rows(rendered: Rendered) -> Iterator[str]:
    """What the surface itself says: a card's body rows, every row of a Portal."""
    for index in rendered.body_rows:
        yield rendered.inner_text(index).strip()


@rule(4, "outcome-follows-phase")
def check_outcome(subject: Subject) -> Iterator[tuple[RenderKey, str, str]]:
    """A card or Portal states no outcome the phase contradicts: nothing a run produced
    ("printed nothing", "exit 0", ✓) on a call that never ran, no tick on a count of zero,
    and no Portal titled with a success ("Created tasks") on a call that did not succeed."""
    data = subject.data_text
    reported: set[tuple[str, str]] = set()
    for rendered in [*subject.cards(), *subject.portals()]:
        phase = rendered.key.phase
        for row in _surface_rows(rendered):
            if not row or quotes_data(row, data):
                continue
            claim = RAN_CLAIMS.search(row) if _never_ran(rendered) else None
            tick = EMPTY_TICK.search(row) if phase in UNFINISHED else None
            found = claim or tick
            if found is None or (phase.value, row) in reported:
                continue
            reported.add((phase.value, row))
            if claim is not None:
                yield (
                    rendered.key,
                    f"“{row}” on a call that was {phase.value} and never ran",
                    "say only what happened: a skipped or blocked call printed, returned and "
                    "exited with nothing because it never started (kit.ending_notice says so)",
                )
            else:
                yield (
                    rendered.key,
                    f"“{row}” puts a tick on nothing in a call that {phase.value}",
                    "leave out the part that is zero, or say it (“none created”) without ✓",
                )
    for rendered in subject.portals():
        phase = rendered.key.phase
        if phase not in UNFINISHED:
            continue
        title = next((row.strip() for row in rendered.rows if row.strip()), "")
        verb = first_word(_LEAD.sub("", title))
        if is_completed_verb(verb) and verb.lower() not in OUTCOME_WORDS:
            yield (
                rendered.key,
                f"the Portal is titled “{title}” on a call that {_ended(phase)}",
                "title it with what happened (“No tasks created”, “Created 2 of 3 tasks”), "
                "or with the object (“Tasks”), never with a success the call did not have",
            )


def _ended(phase: Phase) -> str:
    return "failed" if phase is Phase.FAILED else f"was {phase.value}"


@rule(4, "count-fits-verb")
def check_count_verb(subject: Subject) -> Iterator[tuple[RenderKey, str, str]]:
    """A count and its breakdown agree with the verb: "Read: 3 pages (2 read, 1 failed)"
    claims all three were read, and "20 pages (20 read)" says the same number twice; write
    "Read: 2 of 3 pages (1 failed)" and "Read: 20 pages" (kit.part_of)."""
    lines: list[tuple[RenderKey, str]] = []
    for phase in subject.phases:
        cards = subject.cards(phase=phase)
        if cards and phase.is_terminal:
            widest = max(cards, key=lambda rendered: rendered.key.width)
            lines.append((widest.key, subject.full_inspector(phase, widest.key.theme)))
    for rendered in [*subject.cards(), *subject.portals()]:
        if rendered.key.phase.is_terminal:
            lines.extend((rendered.key, row) for row in _surface_rows(rendered))
    reported: set[str] = set()
    for key, line in lines:
        for problem in _count_problems(line):
            if problem in reported:
                continue
            reported.add(problem)
            yield (
                key,
                problem,
                "make the count say what the verb is true of: “Read: 2 of 3 pages (1 failed)”, "
                "and no breakdown that only repeats the total (kit.part_of does both)",
            )


def _count_problems(line: str) -> Iterator[str]:
    verb = first_word(line)
    for match in _COUNT_BREAKDOWN.finditer(line):
        total = int(match.group("total").replace(",", ""))
        parts = []
        for piece in match.group("parts").split(","):
            part = _PART.match(piece.strip())
            if part is None:
                break
            parts.append((int(part.group("count").replace(",", "")), part.group("word")))
        else:
            if not parts:
                continue
            shown = match.group(0)
            if len(parts) == 1 and parts[0][0] == total:
                yield f"“{shown}” says the count twice"
                continue
            claimed = verb.lower()
            if not is_completed_verb(verb) or claimed in OUTCOME_WORDS:
                continue
            agreeing = [count for count, word in parts if word == claimed]
            others = [word for count, word in parts if word != claimed and count]
            if others and agreeing:
                yield (
                    f"“{verb}: … {shown}” claims all {total:,} {match.group('noun')} were "
                    f"{claimed} while only {agreeing[0]:,} were"
                )


@rule(3, "no-default-as-argument")
def check_default_streamed(subject: Subject) -> Iterator[tuple[RenderKey, str, str]]:
    """While the arguments stream, the Inspector shows only what the model has sent: an
    argument's schema default ("." for a path) shown before the model chose it reads as the
    model's choice, and the model may yet send another."""
    for rendered in subject.cards(phase=Phase.ARGS_STREAMING):
        api = rendered.ctx.api
        if api is None:
            continue
        properties = api.parameters.get("properties")
        if not isinstance(properties, dict):
            continue
        sent = rendered.ctx.args
        _, colon, shown = subject.full_inspector(
            Phase.ARGS_STREAMING, rendered.key.theme
        ).partition(":")
        if not colon:
            continue
        tokens = shown.split()
        for name, schema in properties.items():
            if name in sent or not isinstance(schema, dict):
                continue
            default = schema.get("default")
            if isinstance(default, str) and default and default in tokens:
                yield (
                    rendered.key,
                    f"the Inspector shows “{default}”, the default of {name}, before the model "
                    "sent it",
                    f"leave {name} out until the arguments are complete (the model may still "
                    "send it); show the default once the call runs with it",
                )
                return
