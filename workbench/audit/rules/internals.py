"""Principle 15: the user's view first — raw JSON and the workbench's internals belong in the
details pane, not in a tool's own surfaces."""

from __future__ import annotations

import re
from collections.abc import Iterator

from workbench.audit.model import CARD, Rendered, RenderKey, Subject
from workbench.audit.rules import rule

_JSON_MEMBER = re.compile(r'"[^"\n]{1,80}"\s*:\s*(?:"|-?\d|\{|\[|true\b|false\b|null\b)')
_GUTTER = re.compile(r"^\s*\d+\s+")
JSON_ROWS = 2
"""Rows of ``"key": value`` that make a block read as a JSON dump."""


def _own_rows(rendered: Rendered) -> list[int]:
    """Rows drawn by the tool's own surfaces (generic fallbacks may show JSON: that is their
    job when a tool has no surface)."""
    if rendered.key.surface != CARD:
        return list(range(rendered.height))
    rows: list[int] = []
    if not rendered.inspector_fallback:
        rows.extend(rendered.inspector_rows)
    if rendered.body_kind is not None and not rendered.body_fallback:
        rows.extend(rendered.body_rows)
    return rows


@rule(15, "no-debug-in-surfaces")
def check_internals(subject: Subject) -> Iterator[tuple[RenderKey, str, str]]:
    """A tool's own surfaces show no raw JSON of its arguments or state, and none of the
    workbench's internals (policy globs, audit names): the user's view comes first."""
    data = subject.data_text
    for rendered in [*subject.cards(), *subject.portals()]:
        rows = _own_rows(rendered)
        json_rows = []
        internal = None
        for index in rows:
            line = rendered.inner_text(index)
            if _JSON_MEMBER.search(line):
                content = _GUTTER.sub("", line).strip()
                # The tool's own data may be JSON (a package.json read back): that is content.
                if content not in data:
                    json_rows.append(line.strip())
            if internal is None:
                internal = next((name for name in subject.internal_names if name in line), None)
        if len(json_rows) >= JSON_ROWS:
            yield (
                rendered.key,
                f"the {_where(rendered)} shows raw JSON (“{json_rows[0][:40]}”)",
                "show the data as sentences, lists or a table (kit.key_values, kit.rows_table); "
                "the JSON is in the details pane",
            )
        if internal is not None:
            yield (
                rendered.key,
                f"the {_where(rendered)} shows the workbench's internal “{internal}”",
                "say why in the user's words (a manifest rule's `reason`); policy globs and "
                "audit names stay in the details pane",
            )


def _where(rendered: Rendered) -> str:
    if rendered.key.surface != CARD:
        return "Portal"
    return (rendered.body_kind.value if rendered.body_kind else "card").capitalize()
