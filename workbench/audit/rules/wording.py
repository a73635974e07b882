"""Principle 4: the wording changes tense with the state, and says how a call ended."""

from __future__ import annotations

import re
from collections.abc import Iterator

from workbench.audit.model import Rendered, RenderKey, Subject
from workbench.audit.rules import rule
from workbench.core.call_state import Phase

IRREGULAR_PAST = frozenset(
    [
        "ran",
        "read",
        "wrote",
        "found",
        "set",
        "got",
        "sent",
        "made",
        "did",
        "took",
        "built",
        "put",
        "kept",
        "saw",
        "gave",
        "brought",
        "done",
        "began",
        "spent",
        "fetched",
    ]
)
NOT_PAST = frozenset(
    ["need", "feed", "seed", "speed", "embed", "shed", "red", "bed", "bleed", "breed", "proceed"]
)
OUTCOME_WORDS = frozenset(
    [
        "skipped",
        "cancelled",
        "canceled",
        "blocked",
        "stopped",
        "declined",
        "refused",
        "denied",
        "rejected",
        "failed",
        "aborted",
        "interrupted",
        "timed",
        "halted",
    ]
)
NAMES_OUTCOME: dict[Phase, re.Pattern[str]] = {
    Phase.SKIPPED: re.compile(r"skip|declin|not run|did not run", re.IGNORECASE),
    Phase.CANCELLED: re.compile(r"cancel|stopped|interrupted", re.IGNORECASE),
    Phase.BLOCKED: re.compile(r"block|refus|denied|not allowed", re.IGNORECASE),
    Phase.TIMED_OUT: re.compile(r"timed out|time-?out", re.IGNORECASE),
}
BEFORE_ENDING = (
    Phase.ARGS_STREAMING,
    Phase.AWAITING_APPROVAL,
    Phase.EXECUTING,
    Phase.STREAMING_OUTPUT,
)
NOT_AN_ERROR = (Phase.SKIPPED, Phase.CANCELLED, Phase.BLOCKED)
_FIRST_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_ERROR_WORDS = re.compile(r"✗|\bfailed\b|\berror\b", re.IGNORECASE)


def first_word(line: str) -> str:
    match = _FIRST_WORD.search(line)
    return match.group(0) if match else ""


def is_completed_verb(word: str) -> bool:
    lowered = word.lower()
    if lowered in IRREGULAR_PAST:
        return True
    return len(lowered) >= 4 and lowered.endswith("ed") and lowered not in NOT_PAST


def _error_coloured(rendered: Rendered) -> str | None:
    error = rendered.palette.error.lower()
    for _, segment in rendered.segments():
        color = segment.style.color if segment.style is not None else None
        if color is not None and color.triplet is not None and color.triplet.hex == error:
            return segment.text.strip()
    return None


@rule(4, "wording-follows-phase")
def check_wording(subject: Subject) -> Iterator[tuple[RenderKey, str, str]]:
    """No completed verb before the ending and no "-ing" after it; a skipped, cancelled or
    blocked call says so (never "Ran", "Called" or "Read"); and a skip, a cancel or a block
    is never drawn as an error."""
    for phase in subject.phases:
        cards = subject.cards(phase=phase)
        if not cards:
            continue
        widest = max(cards, key=lambda rendered: rendered.key.width)
        full = subject.full_inspector(phase, widest.key.theme)
        verb = first_word(full)
        key = widest.key
        if phase in BEFORE_ENDING and is_completed_verb(verb):
            yield (
                key,
                f"the Inspector says “{verb}” while the call is {phase.value}",
                "use the -ing form until the call ends (“Reading”, then “Read”): the chip "
                "stays in the history, and a completed verb there reads as done",
            )
        if phase is Phase.DONE and verb.lower().endswith("ing") and verb.lower() != "nothing":
            yield (
                key,
                f"the Inspector still says “{verb}” after the call finished",
                "switch to the completed form once the result is in (“Searched”, “Read”)",
            )
        if phase in NAMES_OUTCOME:
            lowered = verb.lower()
            if is_completed_verb(verb) and lowered not in OUTCOME_WORDS:
                yield (
                    key,
                    f"the Inspector says “{verb}” on a call that was {phase.value}",
                    f"say what happened instead (“{_outcome_verb(phase)}: …”; "
                    "kit.status_line does this)",
                )
            elif not NAMES_OUTCOME[phase].search(full):
                yield (
                    key,
                    f"the Inspector does not say the call was {phase.value} (it reads “{full}”)",
                    f"name the ending, e.g. “{_outcome_verb(phase)}: …”",
                )
        if phase in NOT_AN_ERROR:
            # The user's own words ("set TASK-2 to failed") are not the card calling it a failure.
            quoted = [value for value in _arg_strings(subject) if len(value) > 2]
            for rendered in cards:
                sample = _error_coloured(rendered)
                text = "\n".join(rendered.inner_text(i) for i in range(1, rendered.height - 1))
                for value in quoted:
                    text = text.replace(value, "")
                words = _ERROR_WORDS.search(text)
                if sample is not None:
                    yield (
                        rendered.key,
                        f"a {phase.value} call is drawn in the error colour (“{sample[:24]}”)",
                        "a skip, a cancel or a block is someone's decision, not a failure: use "
                        "the warning or muted colour (kit.ending_notice) and keep red for errors",
                    )
                elif words is not None:
                    yield (
                        rendered.key,
                        f"a {phase.value} call is described as an error (“{words.group(0)}”)",
                        "say what was decided (“Skipped by the user”) instead of ✗ or “failed”",
                    )


def _outcome_verb(phase: Phase) -> str:
    return {
        Phase.SKIPPED: "Skipped",
        Phase.CANCELLED: "Cancelled",
        Phase.BLOCKED: "Blocked",
        Phase.TIMED_OUT: "Timed out",
    }[phase]


def _arg_strings(subject: Subject) -> list[str]:
    cards = subject.cards(phase=subject.ending)
    if not cards:
        return []
    return [str(value) for value in cards[0].ctx.args.values() if isinstance(value, (str, int))]
