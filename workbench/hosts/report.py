"""The model's view as plain text: counts, the rule and its source, then what the model reads."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from workbench.hosts.model_view import ModelView


def model_view_summary(view: ModelView) -> list[str]:
    """What happened to the content on its way to the model, in a few lines."""
    host = view.host
    rule = host.model
    counted = f"tokens by {view.tokenizer}" + ("" if view.tokenizer_exact else ", an estimate")
    lines = [
        f"{host.title} ({host.name}, {host.version}): the model reads the {rule.reads}",
        f"  sent:      {view.original.describe()} ({counted})",
    ]
    if rule.tokenizer_note:
        lines.append(f"  tokens:    {rule.tokenizer_note}")
    if not view.applies:
        kinds = " and ".join(rule.applies_to)
        lines.append(f"  rule:      none for this tool: {host.title} cuts only {kinds} results")
    elif not rule.caps:
        lines.append("  rule:      none: handed over whole")
    else:
        caps = " or ".join(cap.describe() for cap in rule.caps)
        lines.append(f"  rule:      cut past {caps}, {_keeping(view)}")
        for cap in rule.caps:
            lines.append(f"  source:    {cap.source}")
    if view.warned and rule.warn_at is not None:
        lines.append(f"  warning:   past {rule.warn_at.describe()}: {host.title} warns the user")
    if view.cut and view.cap is not None:
        lines.append(f"  cut:       {_cut(view)}")
        lines.append(f"  delivered: {view.delivered.describe()}")
        if rule.spill:
            lines.append(f"  spill:     the full output is saved to a file {host.title} can read")
    elif view.applies and rule.caps:
        lines.append("  cut:       nothing: under every cap, handed over whole")
    return lines


def _keeping(view: ModelView) -> str:
    rule = view.host.model
    if rule.over_cap == "spill" and rule.preview is not None:
        return f"replacing it with a notice and the first {rule.preview.describe()}"
    if rule.keep == "head":
        return "keeping the start"
    if rule.keep == "tail":
        return "keeping the end"
    head = round(rule.head_share * 100)
    return f"keeping the start ({head}%) and the end ({100 - head}%)"


def _cut(view: ModelView) -> str:
    assert view.cap is not None
    unit = view.cap.unit
    kept = []
    if view.cut_after_line:
        kept.append(f"lines 1-{view.cut_after_line:,}")
    if view.resumes_at_line is not None:
        kept.append(f"lines {view.resumes_at_line:,}-{view.original.lines:,}")
    kept_text = " and ".join(kept) if kept else "nothing"
    return (
        f"{view.omitted:,} of {view.original.in_unit(unit):,} {unit} taken out; "
        f"the model keeps {kept_text} of {view.original.lines:,}"
    )
