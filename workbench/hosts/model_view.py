"""The model's view: a result's content exactly as a host hands it to the model.

Pure text in, text out: :func:`model_view` applies a host's :class:`ModelRule` to the
content and says what was cut, where, and by which rule.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from workbench.hosts.tokens import Tokenizer, tokenizer

if TYPE_CHECKING:
    from workbench.hosts.profile import HostProfile, Measure, ToolKind, Unit

SPILL_FILE = "<saved file>"
"""Stands for the path a host would save the full output to."""


@dataclass(frozen=True)
class Counts:
    """One text measured every way a host may count it."""

    characters: int
    lines: int
    bytes: int
    tokens: int

    @classmethod
    def of(cls, text: str, tokens: Tokenizer) -> Counts:
        return cls(
            characters=len(text),
            lines=_line_count(text),
            bytes=len(text.encode("utf-8", "surrogatepass")),
            tokens=tokens.count(text),
        )

    def in_unit(self, unit: Unit) -> int:
        return int(getattr(self, unit))

    def describe(self) -> str:
        return (
            f"{self.characters:,} characters · {self.lines:,} lines · "
            f"{self.bytes:,} bytes · {self.tokens:,} tokens"
        )


@dataclass(frozen=True)
class ModelView:
    """What the model of ``host`` reads of one result, and how it got there."""

    host: HostProfile
    text: str
    """Exactly what the model reads."""
    original: Counts
    delivered: Counts
    tokenizer: str
    tokenizer_exact: bool
    applies: bool
    """False when the host hands this kind of result over whole whatever its size."""
    cap: Measure | None = None
    """The cap that cut, or ``None`` when the content went through whole."""
    head: str = ""
    """The part kept from the start (the whole content when nothing was cut)."""
    tail: str = ""
    """The part kept from the end."""
    omitted: int = 0
    """How much was taken out, in the cap's unit."""
    cut_after_line: int | None = None
    """The last line of the original the model still reads from the start (1-based)."""
    resumes_at_line: int | None = None
    """The first line of the original the model reads again after the cut."""
    warned: bool = False
    """Past the host's warning threshold."""

    @property
    def cut(self) -> bool:
        return self.cap is not None

    def keeps(self, needle: str) -> bool:
        """Whether ``needle`` still reaches the model whole."""
        return needle in self.head or needle in self.tail


def content_for(content: str, state: Any, reads: str) -> str:
    """The text a host puts in front of the model, by which part of the result it reads."""
    if reads == "content" or state is None:
        return content
    structured = json.dumps(state, ensure_ascii=False, indent=None, default=str)
    return structured if reads == "structured" else f"{content}\n{structured}"


def model_view(
    content: str,
    host: HostProfile,
    *,
    state: Any = None,
    kind: ToolKind = "mcp",
    tokens: Tokenizer | None = None,
) -> ModelView:
    """Apply ``host``'s model rule to a result (``kind``: what the host takes the tool for)."""
    tokens = tokens or tokenizer()
    rule = host.model
    text = content_for(content, state, rule.reads)
    original = Counts.of(text, tokens)
    applies = kind in rule.applies_to
    warned = bool(
        applies and rule.warn_at and original.in_unit(rule.warn_at.unit) > rule.warn_at.limit
    )
    passed = [cap for cap in rule.caps if original.in_unit(cap.unit) > cap.limit] if applies else []
    whole = ModelView(
        host=host,
        text=text,
        original=original,
        delivered=original,
        tokenizer=tokens.name,
        tokenizer_exact=tokens.exact,
        applies=applies,
        head=text,
        warned=warned,
    )
    if not passed:
        return whole
    cap = passed[0]
    if rule.over_cap == "spill":
        assert rule.preview is not None  # checked by the model
        head = take_head(text, rule.preview.unit, rule.preview.limit, tokens)
        tail = ""
    elif rule.keep == "head":
        head, tail = text, ""
        for each in passed:
            head = take_head(head, each.unit, each.limit, tokens)
    elif rule.keep == "tail":
        head, tail = "", text
        for each in passed:
            tail = take_tail(tail, each.unit, each.limit, tokens)
    else:
        budget_head = int(cap.limit * rule.head_share)
        head = take_head(text, cap.unit, budget_head, tokens)
        tail = take_tail(text, cap.unit, cap.limit - budget_head, tokens)
    omitted = max(
        original.in_unit(cap.unit)
        - _measure(head, cap.unit, tokens)
        - _measure(tail, cap.unit, tokens),
        0,
    )
    omitted_lines = max(original.lines - _line_count(head) - _line_count(tail), 0)
    values = {
        "head": f"{_measure(head, cap.unit, tokens):,}",
        "tail": f"{_measure(tail, cap.unit, tokens):,}",
        "omitted": f"{omitted:,}",
        "omitted_lines": f"{omitted_lines:,}",
        "total_lines": str(original.lines),
        "total_tokens": f"{original.tokens:,}",
        "limit": f"{cap.limit:,}",
        "unit": cap.unit,
        "file": SPILL_FILE,
    }
    notice = _fill(rule.notice, values)
    marker = _fill(rule.marker, values) if tail else ""
    after = _fill(rule.after, values)
    delivered_text = "".join(
        part for part in (notice + "\n" if notice else "", head, marker, tail, after) if part
    )
    head_lines = _line_count(head)
    return ModelView(
        host=host,
        text=delivered_text,
        original=original,
        delivered=Counts.of(delivered_text, tokens),
        tokenizer=tokens.name,
        tokenizer_exact=tokens.exact,
        applies=True,
        cap=cap,
        head=head,
        tail=tail,
        omitted=omitted,
        cut_after_line=head_lines if head else 0,
        resumes_at_line=(original.lines - _line_count(tail) + 1) if tail else None,
        warned=warned,
    )


def take_head(text: str, unit: Unit, amount: int, tokens: Tokenizer) -> str:
    """The longest start of ``text`` within ``amount`` of ``unit``."""
    if amount <= 0:
        return ""
    if unit == "characters":
        return text[:amount]
    if unit == "bytes":
        return text.encode("utf-8", "surrogatepass")[:amount].decode("utf-8", "ignore")
    if unit == "lines":
        return "\n".join(text.split("\n")[:amount])
    return tokens.head(text, amount)


def take_tail(text: str, unit: Unit, amount: int, tokens: Tokenizer) -> str:
    """The longest end of ``text`` within ``amount`` of ``unit``."""
    if amount <= 0:
        return ""
    if unit == "characters":
        return text[-amount:]
    if unit == "bytes":
        return text.encode("utf-8", "surrogatepass")[-amount:].decode("utf-8", "ignore")
    if unit == "lines":
        return "\n".join(text.split("\n")[-amount:])
    return tokens.tail(text, amount)


def _measure(text: str, unit: Unit, tokens: Tokenizer) -> int:
    if unit == "characters":
        return len(text)
    if unit == "bytes":
        return len(text.encode("utf-8", "surrogatepass"))
    if unit == "lines":
        return _line_count(text)
    return tokens.count(text) if text else 0


def _line_count(text: str) -> int:
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


class _Missing(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _fill(template: str, values: dict[str, str]) -> str:
    """Fill the placeholders a profile uses; an unknown one, or a stray brace in a project's
    own profile, leaves the text as written rather than failing the view."""
    if not template:
        return ""
    try:
        return template.format_map(_Missing(values))
    except (ValueError, IndexError):
        return template
