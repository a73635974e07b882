"""Rules for the hosts a project ships to (``[tool.workbench] hosts``; none by default).

Each rule reads a result through a host's profile: the content as that host's model gets it
(:func:`workbench.hosts.model_view`), and the card folded as that host first shows it
(:func:`workbench.hosts.first_look`). A finding names the host and the source of its rule,
and can be waived for one host (``audit_waivers: [{rule: ..., host: codex, reason: ...}]``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import lru_cache

from workbench.audit.model import CARD, RenderKey, Subject
from workbench.audit.rules import rule
from workbench.hosts.first_look import first_look
from workbench.hosts.model_view import ModelView, model_view
from workbench.hosts.profile import HostProfile

_TRUNCATION_NOTE = re.compile(
    r"^.*(?:showing \d[\d,]* of \d[\d,]*|truncated|\bomitted\b|\[\s*showing).*$",
    re.IGNORECASE | re.MULTILINE,
)
FIRST_LOOK_WIDTH = 100
"""Hosts fold a card drawn at a usual terminal width; the audit reads the fold at this one."""


def _ending_key(subject: Subject, width: int = FIRST_LOOK_WIDTH) -> RenderKey | None:
    cards = subject.cards(phase=subject.ending, theme="dark")
    if not cards:
        return None
    chosen = min(cards, key=lambda rendered: abs(rendered.key.width - width))
    return chosen.key


def _views(subject: Subject) -> Iterator[tuple[HostProfile, ModelView]]:
    result = _result(subject)
    if result is None:
        return
    for host in subject.hosts:
        yield host, _cached_view(result[0], result[1], host)


@lru_cache(maxsize=256)
def _cached_view(content: str, state_json: str, host: HostProfile) -> ModelView:
    state = json.loads(state_json) if state_json else None
    return model_view(content, host, state=state)


def _result(subject: Subject) -> tuple[str, str] | None:
    key = _ending_key(subject)
    if key is None:
        return None
    ctx = subject.renders[key].ctx
    if ctx.result is None:
        return None
    state = ctx.result.state
    state_json = json.dumps(state, sort_keys=True, default=str) if state is not None else ""
    return ctx.result.content, state_json


def _source(host: HostProfile, view: ModelView) -> str:
    return view.cap.source if view.cap is not None else host.version


@rule(11, "host-model-cap")
def content_over_model_cap(subject: Subject) -> Iterator[tuple[RenderKey, str, str, str]]:
    """The content passes a targeted host's model cap, so that host's model reads only part.

    A tool that cuts its own content chooses what the model keeps and says so ("showing N of
    M"); a host that cuts it keeps whatever its rule keeps.
    """
    key = _ending_key(subject)
    if key is None:
        return
    for host, view in _views(subject):
        if not view.cut or view.cap is None:
            continue
        yield (
            key,
            f"under {host.title} the content ({view.original.in_unit(view.cap.unit):,} "
            f"{view.cap.unit}) passes the {view.cap.describe()} cap and the model reads "
            f"{view.delivered.in_unit(view.cap.unit):,} (host: {host.name}; source: "
            f"{_source(host, view)})",
            "cap the content in the tool itself, keeping what the model needs, and say "
            '"showing N of M" (`workbench show FILE#VARIANT --model` shows each host\'s cut)',
            host.name,
        )


@rule(11, "host-cuts-key-text")
def host_cuts_key_text(subject: Subject) -> Iterator[tuple[RenderKey, str, str, str]]:
    """A targeted host cuts away the error message, the truncation note or the content's first
    or last line (head and tail rules cut different parts)."""
    key = _ending_key(subject)
    if key is None:
        return
    ctx = subject.renders[key].ctx
    for host, view in _views(subject):
        if not view.cut:
            continue
        for what, text in _key_texts(_original(ctx), ctx):
            if text and not view.keeps(text):
                yield (
                    key,
                    f"under {host.title} the {what} ({_quote(text)}) is in the part the host "
                    f"cuts: its model keeps {_kept(view)} (host: {host.name}; source: "
                    f"{_source(host, view)})",
                    'put the outcome, the error and the "showing N of M" note in the first '
                    "lines of the content, and keep the content under the host's cap",
                    host.name,
                )


def _original(ctx: object) -> str:
    result = getattr(ctx, "result", None)
    return result.content if result is not None else ""


def _key_texts(content: str, ctx: object) -> Iterator[tuple[str, str]]:
    result = getattr(ctx, "result", None)
    if result is not None and result.error is not None and result.error.message.strip():
        first = result.error.message.strip().splitlines()[0]
        if first in content:
            yield "error message", first
    for match in _TRUNCATION_NOTE.finditer(content):
        yield "truncation note", match.group(0).strip()
        break
    lines = [line for line in content.splitlines() if line.strip()]
    if lines:
        yield "first line", lines[0].strip()
        if len(lines) > 1:
            yield "last line", lines[-1].strip()


def _kept(view: ModelView) -> str:
    parts = []
    if view.cut_after_line:
        parts.append(f"lines 1-{view.cut_after_line:,}")
    if view.resumes_at_line is not None:
        parts.append(f"lines {view.resumes_at_line:,}-{view.original.lines:,}")
    return " and ".join(parts) or "none of it"


def _quote(text: str, limit: int = 60) -> str:
    return f"“{text if len(text) <= limit else text[: limit - 1] + '…'}”"


@rule(7, "host-content-restates-state")
def content_restates_state(subject: Subject) -> Iterator[tuple[RenderKey, str, str]]:
    """With target hosts, content that only restates the state as JSON: the model reads what
    the Render draws, as a blob (hosts give the model the content, not the Render)."""
    if not subject.hosts:
        return
    key = _ending_key(subject)
    if key is None:
        return
    result = subject.renders[key].ctx.result
    if result is None or result.state is None or not result.success:
        return
    try:
        parsed = json.loads(result.content)
    except ValueError:
        return
    if parsed == result.state:
        names = ", ".join(host.name for host in subject.hosts)
        yield (
            key,
            f"the content is the state as JSON: the model of {names} reads a blob where the "
            "Render shows a result",
            "write the content as a sentence or two a model can act on (what was done, to what, "
            'with what result, and "showing N of M" when cut); keep the structure in state',
        )


@rule(1, "host-first-look")
def first_look_says_nothing(subject: Subject) -> Iterator[tuple[RenderKey, str, str, str]]:
    """Folded the way a targeted host first shows it, the card's visible body is only the
    tool's data: no line of the surface's own says what came out (summary, counts, notes)."""
    key = _ending_key(subject)
    if key is None or not subject.hosts:
        return
    rendered = subject.renders[key]
    data_lines = {line.strip() for line in subject.data_text.splitlines() if line.strip()}
    for host in subject.hosts:
        if host.user is None:
            continue
        look = first_look(
            list(range(rendered.height)),
            host,
            text_of=lambda index: rendered.rows[index],
            elision_line=lambda _text, _like: -1,
        )
        if not look.hidden:
            continue
        visible = [
            rendered.inner_text(index).strip()
            for index in look.lines
            if index >= 0 and index in rendered.body_rows
        ]
        visible = [line for line in visible if line]
        if visible and all(_is_data(line, data_lines) for line in visible):
            yield (
                RenderKey(key.phase, key.width, key.theme, CARD),
                f"folded as {host.title} first shows it ({_fold(host)}), the card's visible "
                f"lines are only the tool's data (host: {host.name}; source: "
                f"{host.user.source})",
                "start (or, for a host that keeps the end, finish) the Render with a line of "
                'its own that states the outcome: counts, status, "showing N of M"',
                host.name,
            )


def _fold(host: HostProfile) -> str:
    assert host.user is not None
    parts = []
    if host.user.head:
        parts.append(f"first {host.user.head}")
    if host.user.tail:
        parts.append(f"last {host.user.tail}")
    return " and ".join(parts) + " lines"


def _is_data(line: str, data_lines: set[str]) -> bool:
    if line in data_lines:
        return True
    # A numbered or prefixed row of data ("  12 some text", "$ command") still quotes the data.
    stripped = re.sub(r"^(?:\d+\s+|[$>#•·-]\s+)", "", line)
    return stripped in data_lines or any(stripped and stripped in data for data in data_lines)
