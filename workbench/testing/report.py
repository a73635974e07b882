"""Compare rendered snapshots with the files on disk, and write the HTML report reviewers open.

This is ``workbench snapshot``: the same matrix and renderer as the pytest plugin, outside
pytest. The report is one self-contained HTML file: a gallery grouped by tool / API / variant,
and for every failure the expected and actual SVG side by side with the text diff.
"""

from __future__ import annotations

import base64
import difflib
import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from workbench.rendering.matrix import SnapshotCase
from workbench.rendering.renderer import RenderedSnapshot, SnapshotRenderer
from workbench.testing.snapshots import snapshot_text_of

STATUSES = ("passed", "failed", "new", "updated")


@dataclass
class SnapshotOutcome:
    case: SnapshotCase
    status: str
    """``passed``, ``failed`` (differs), ``new`` (no file yet) or ``updated`` (rewritten)."""
    text: str
    svg: str
    expected_text: str | None = None
    expected_svg: str | None = None

    @property
    def diff(self) -> str:
        if self.expected_text is None:
            return ""
        return "\n".join(
            difflib.unified_diff(
                self.expected_text.splitlines(),
                self.text.splitlines(),
                fromfile="snapshot",
                tofile="received",
                lineterm="",
                n=3,
            )
        )


@dataclass
class SnapshotRun:
    outcomes: list[SnapshotOutcome] = field(default_factory=list)
    unused: list[Path] = field(default_factory=list)
    deleted: list[Path] = field(default_factory=list)
    seconds: float = 0.0

    def count(self, status: str) -> int:
        return sum(1 for outcome in self.outcomes if outcome.status == status)

    @property
    def ok(self) -> bool:
        return not self.count("failed") and not self.count("new") and not self.unused


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def run_snapshots(
    cases: Sequence[SnapshotCase],
    renderer: SnapshotRenderer,
    root: Path,
    *,
    update: bool = False,
    on_progress: Callable[[int, int], None] | None = None,
    prune: bool = True,
) -> SnapshotRun:
    """Render every case and compare it with ``root``; with ``update`` rewrite and prune.

    ``prune=False`` leaves files no case wrote alone (``workbench new`` records one tool's
    snapshots beside the others')."""
    run = SnapshotRun()
    expected_files: set[Path] = set()
    for index, case in enumerate(cases):
        rendered: RenderedSnapshot = renderer.render(case)
        text = snapshot_text_of(case, rendered.text)
        base = root / case.relative_dir / case.name
        text_path, svg_path = base.with_suffix(".txt"), base.with_suffix(".svg")
        expected_files.update({text_path, svg_path})
        expected_text, expected_svg = _read(text_path), _read(svg_path)
        if expected_text == text and expected_svg == rendered.svg:
            status = "passed"
        elif update:
            text_path.parent.mkdir(parents=True, exist_ok=True)
            text_path.write_text(text, encoding="utf-8")
            svg_path.write_text(rendered.svg, encoding="utf-8")
            status = "updated" if expected_text is not None else "new"
        else:
            status = "new" if expected_text is None and expected_svg is None else "failed"
        run.outcomes.append(
            SnapshotOutcome(case, status, text, rendered.svg, expected_text, expected_svg)
        )
        if on_progress is not None:
            on_progress(index + 1, len(cases))
    if prune and root.is_dir():
        for path in sorted(root.rglob("*")):
            if path.suffix in (".txt", ".svg") and path.is_file() and path not in expected_files:
                if update:
                    path.unlink()
                    run.deleted.append(path)
                else:
                    run.unused.append(path)
    return run


def _svg_image(svg: str | None, label: str) -> str:
    if svg is None:
        return f'<div class="missing">{html.escape(label)}: no file</div>'
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    # An <img> never runs scripts, whatever the SVG holds.
    return (
        f'<figure><img alt="{html.escape(label)}" '
        f'src="data:image/svg+xml;base64,{data}"><figcaption>{html.escape(label)}</figcaption></figure>'
    )


CSS = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 2rem; background: #fafafa; color: #222; }
h1 { margin-top: 0; } h2 { border-bottom: 1px solid #ccc; } h3 { margin-bottom: .3rem; }
.summary span { margin-right: 1.2rem; } .failed { color: #b00020; } .passed { color: #1b7f3a; }
.new, .updated { color: #8a5a00; }
.gallery { display: flex; flex-wrap: wrap; gap: 1rem; }
figure { margin: 0; background: #fff; border: 1px solid #ddd; padding: .4rem; }
figure img { max-width: 760px; display: block; } figcaption { font-size: 12px; color: #555; }
.pair { display: flex; gap: 1rem; flex-wrap: wrap; }
pre.diff { background: #111; color: #ddd; padding: .6rem; overflow: auto; max-height: 30rem; }
pre.diff .add { color: #7ee787; } pre.diff .del { color: #ff7b72; }
pre.diff .hunk { color: #79c0ff; }
.case { margin-bottom: 1.5rem; } .missing { padding: 1rem; border: 1px dashed #999; }
"""


def _diff_html(diff: str) -> str:
    lines = []
    for line in diff.split("\n"):
        escaped = html.escape(line)
        if line.startswith("+") and not line.startswith("+++"):
            lines.append(f'<span class="add">{escaped}</span>')
        elif line.startswith("-") and not line.startswith("---"):
            lines.append(f'<span class="del">{escaped}</span>')
        elif line.startswith("@@"):
            lines.append(f'<span class="hunk">{escaped}</span>')
        else:
            lines.append(escaped)
    return "\n".join(lines)


def write_report(run: SnapshotRun, path: Path) -> None:
    """A self-contained HTML page: failures first, then the whole gallery."""
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>Workbench snapshots</title>",
        f"<style>{CSS}</style></head><body>",
    ]
    parts.append("<h1>Workbench snapshot report</h1><p class='summary'>")
    for status in STATUSES:
        parts.append(f"<span class='{status}'>{run.count(status)} {status}</span>")
    parts.append(
        f"<span>{len(run.unused)} unused</span><span>{len(run.deleted)} "
        f"deleted</span><span>{run.seconds:.1f} "
        "s</span></p>"
    )
    failures = [
        outcome for outcome in run.outcomes if outcome.status in ("failed", "new", "updated")
    ]
    if failures:
        parts.append("<h2>Changes</h2>")
        for outcome in failures:
            case = outcome.case
            parts.append(
                f"<div class='case'><h3 class='{outcome.status}'>{html.escape(outcome.status)}: "
                f"{html.escape(case.test_id)}</h3><p>{html.escape(case.description)}</p><div "
                "class='pair'>"
            )
            parts.append(_svg_image(outcome.expected_svg, "expected"))
            parts.append(_svg_image(outcome.svg, "actual"))
            parts.append("</div>")
            if outcome.diff:
                parts.append(f"<pre class='diff'>{_diff_html(outcome.diff)}</pre>")
            parts.append("</div>")
    if run.unused:
        parts.append("<h2>Unused snapshot files</h2><ul>")
        parts.extend(f"<li>{html.escape(str(item))}</li>" for item in run.unused)
        parts.append("</ul>")
    parts.append("<h2>Gallery</h2>")
    groups: dict[tuple[str, str, str], list[SnapshotOutcome]] = {}
    for outcome in run.outcomes:
        case = outcome.case
        groups.setdefault((case.tool, case.api, case.variant_id), []).append(outcome)
    current_tool = current_api = None
    for (tool, api, variant), outcomes in groups.items():
        if tool != current_tool:
            parts.append(f"<h2>{html.escape(tool)}</h2>")
            current_tool, current_api = tool, None
        if api != current_api:
            parts.append(f"<h3>{html.escape(api)}</h3>")
            current_api = api
        label = outcomes[0].case.ref.variant.label
        parts.append(f"<h4>{html.escape(variant)} — {html.escape(label)}</h4><div class='gallery'>")
        parts.extend(
            _svg_image(outcome.svg, f"{outcome.case.name} · {outcome.status}")
            for outcome in outcomes
        )
        parts.append("</div>")
    parts.append("</body></html>")
    path.write_text("".join(parts), encoding="utf-8")
