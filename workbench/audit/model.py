"""What the audit's rules look at, and what they report.

A rule is given one fixture variant at a time (:class:`Subject`): every drawing of its tool
card (each phase x width x theme) and of its Portal, each already read into rows, with the
Inspector and body told apart. Rules never draw anything themselves, except the Inspector at
full width, which :meth:`Subject.full_inspector` draws once and keeps.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from rich.segment import Segment
from textual.strip import Strip

from workbench.core.call_state import Phase
from workbench.fixtures.catalog import VariantRef
from workbench.hosts.profile import HostProfile
from workbench.surfaces.context import Palette, SurfaceContext
from workbench.surfaces.registry import SurfaceKind

CARD = "card"
PORTAL = "portal"


@dataclass(frozen=True, order=True)
class RenderKey:
    """Which drawing: a phase at a width in a theme, of the card or the Portal."""

    phase: Phase
    width: int
    theme: str
    surface: str = CARD

    @property
    def label(self) -> str:
        """``done 60 light`` or ``portal 80 dark``, as findings print it."""
        first = PORTAL if self.surface == PORTAL else self.phase.value
        return f"{first} {self.width} {self.theme}"


@dataclass
class Rendered:
    """One drawing, read back: its rows of text and segments, split into card parts."""

    key: RenderKey
    strips: list[Strip]
    ctx: SurfaceContext
    body_kind: SurfaceKind | None = None
    body_fallback: bool = True
    inspector_fallback: bool = True

    @property
    def palette(self) -> Palette:
        return self.ctx.palette

    @cached_property
    def rows(self) -> list[str]:
        return [strip.text for strip in self.strips]

    @cached_property
    def _parts(self) -> tuple[range, range]:
        """Row ranges of the Inspector and of the body (empty for a Portal)."""
        if self.key.surface == PORTAL or len(self.rows) < 3:
            return range(0), range(len(self.rows))
        inner = range(1, len(self.rows) - 1)
        for index in inner:
            content = self.inner_text(index).strip()
            if content and set(content) == {"─"}:
                return range(1, index), range(index + 1, len(self.rows) - 1)
        return inner, range(0)

    @property
    def inspector_rows(self) -> range:
        return self._parts[0]

    @property
    def body_rows(self) -> range:
        """The rows under the divider (for a Portal: all of it)."""
        return self._parts[1]

    def inner_text(self, index: int) -> str:
        """A card row without its border and padding (``│ … │``); a Portal row as is."""
        row = self.rows[index]
        if self.key.surface == PORTAL:
            return row
        return row[2:-2] if len(row) >= 4 else ""

    @property
    def inspector_text(self) -> str:
        return " ".join(self.inner_text(index).strip() for index in self.inspector_rows)

    @property
    def body_text(self) -> str:
        return "\n".join(self.inner_text(index).rstrip() for index in self.body_rows)

    @property
    def height(self) -> int:
        return len(self.rows)

    def segments(self, rows: range | None = None) -> Iterator[tuple[int, Segment]]:
        """``(row, segment)`` for every segment with visible text."""
        for index in rows if rows is not None else range(len(self.strips)):
            for segment in self.strips[index]:
                if segment.text.strip() and not segment.control:
                    yield index, segment


@dataclass
class Finding:
    """One thing a rule found wrong in one drawing: what is wrong, and what to change."""

    rule: str
    number: int
    key: RenderKey
    problem: str
    advice: str
    waived_by: str | None = None
    """The waiver's reason, when the fixture file accepts this finding."""
    host: str | None = None
    """The host a host rule read the result through (a waiver can name it)."""
    server_text: str | None = None
    """The MCP server whose own text the finding is on ("1 directories" in its result): the
    project did not write it and cannot fix it, so it is reported as the server's and does
    not fail the audit."""
    agent_tool: str | None = None
    """The coding agent whose own tool the card is (Claude Code's ``Read``, drawn by
    Workbench's UI-only package): the project cannot change those surfaces, so the finding is
    reported as Workbench's and does not fail the audit (Workbench's own tests audit them)."""

    @property
    def counts(self) -> bool:
        """Whether the finding fails the audit (not waived, not on a server's own text, not on
        an agent's own tool)."""
        return self.waived_by is None and self.server_text is None and self.agent_tool is None

    def message(self) -> str:
        return f"rule {self.number} ({self.rule}): {self.problem} — {self.advice}"

    def problem_shape(self) -> str:
        """The problem without its width, so one problem at several widths prints once."""
        return self.problem.replace(f"{self.key.width} columns", "N columns")

    def to_json(self) -> dict[str, Any]:
        """The finding as the render cache files it (before any waiver is applied)."""
        key = self.key
        return {
            "rule": self.rule,
            "number": self.number,
            "key": [key.phase.value, key.width, key.theme, key.surface],
            "problem": self.problem,
            "advice": self.advice,
            "host": self.host,
            "server_text": self.server_text,
            "agent_tool": self.agent_tool,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Finding:
        """A finding :meth:`to_json` wrote; ``KeyError``/``ValueError``/``TypeError`` if not."""
        phase, width, theme, surface = data["key"]
        return cls(
            rule=str(data["rule"]),
            number=int(data["number"]),
            key=RenderKey(Phase(phase), int(width), str(theme), str(surface)),
            problem=str(data["problem"]),
            advice=str(data["advice"]),
            host=None if data["host"] is None else str(data["host"]),
            server_text=None if data["server_text"] is None else str(data["server_text"]),
            agent_tool=None if data["agent_tool"] is None else str(data["agent_tool"]),
        )


@dataclass
class Subject:
    """One fixture variant, drawn in every phase, width and theme the audit covers."""

    ref: VariantRef
    phases: tuple[Phase, ...]
    renders: dict[RenderKey, Rendered]
    draw_inspector: Callable[[Phase, str], tuple[str, str | None]]
    """Draws the Inspector at a width where nothing needs cutting: its text, and the status
    after its subject. Used through :meth:`full_inspector`, which keeps the answer."""
    internal_names: frozenset[str] = frozenset()
    """Policy rule globs and audit names: the workbench's words, not the user's."""
    hosts: tuple[HostProfile, ...] = ()
    """The hosts the project targets (``[tool.workbench] hosts``): the host rules read these."""
    server: str | None = None
    """The MCP server the tool is (its results are the server's text, not the project's)."""
    _inspectors: dict[tuple[Phase, str], tuple[str, str | None]] = field(
        default_factory=dict, repr=False
    )

    @property
    def kind(self) -> str:
        return self.ref.variant.kind

    @property
    def ending(self) -> Phase:
        return self.phases[-1]

    def cards(self, *, phase: Phase | None = None, theme: str | None = None) -> list[Rendered]:
        return [
            rendered
            for key, rendered in sorted(self.renders.items())
            if key.surface == CARD
            and (phase is None or key.phase is phase)
            and (theme is None or key.theme == theme)
        ]

    def portals(self) -> list[Rendered]:
        return [rendered for key, rendered in sorted(self.renders.items()) if key.surface == PORTAL]

    def card(self, phase: Phase, width: int, theme: str) -> Rendered | None:
        return self.renders.get(RenderKey(phase, width, theme, CARD))

    def full_inspector(self, phase: Phase, theme: str) -> str:
        """The Inspector's text with room for all of it."""
        return self._inspector(phase, theme)[0]

    def inspector_status(self, phase: Phase, theme: str) -> str | None:
        """What follows the Inspector's subject (``None`` when no subject is marked)."""
        return self._inspector(phase, theme)[1]

    def _inspector(self, phase: Phase, theme: str) -> tuple[str, str | None]:
        key = (phase, theme)
        if key not in self._inspectors:
            self._inspectors[key] = self.draw_inspector(phase, theme)
        return self._inspectors[key]

    def quotes_server(self, problem: str) -> bool:
        """Whether ``problem`` names text an MCP server wrote (a quoted “…” of its data)."""
        if self.server is None:
            return False
        quoted = re.findall(r"“([^”]+)”", problem)
        data = self.data_text
        return bool(quoted) and all(phrase.rstrip("…") in data for phrase in quoted)

    @cached_property
    def data_text(self) -> str:
        """Everything the tool (or the model) produced: content, state strings, output, args.

        A row that quotes this is the tool's data, not the surface's own wording, so rules
        about wording (plurals, JSON, internal names) leave it alone.
        """
        finals = [
            rendered.ctx for key, rendered in self.renders.items() if key.phase is self.ending
        ]
        if not finals:
            return ""
        final_ctx = finals[0]
        parts: list[str] = [final_ctx.content, final_ctx.output.text()]
        parts.extend(_strings(final_ctx.result_state))
        parts.extend(_strings(final_ctx.args))
        if final_ctx.result is not None and final_ctx.result.error is not None:
            parts.append(final_ctx.result.error.message)
        return "\n".join(parts)


def _strings(value: Any, limit: int = 20_000) -> Iterator[str]:
    """Every string in a JSON-like value (and the value's JSON), depth-first."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item, limit)
    elif isinstance(value, (list, tuple)):
        for item in value[:limit]:
            yield from _strings(item, limit)
    elif value is not None:
        yield json.dumps(value, default=str)
