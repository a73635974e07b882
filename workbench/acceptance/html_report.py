"""The review report a person reads: ``workbench review --report out.html``.

One small HTML page and a folder of images beside it (``out_files/``), so the page opens at
once and each picture loads when it scrolls into view. The page has a contents list per tool
and API with counts, filter buttons (to review, changed, new, rejected, never reviewed,
accepted) and a search box; every case is shown at its real size, or scaled down to fit the
page (click for 1:1, or twice the size when it is already 1:1); a changed case shows the
committed picture and the one drawn now side by side, each scaled to half the case's width,
or one above the other when the case is narrow (or flipped over each other), with its text
diff and the decision and note beside it.

Everything that comes from fixtures or reviewers is escaped; the pictures are SVG files shown
through ``<img>``, which never runs scripts.
"""

from __future__ import annotations

import html
import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from workbench.acceptance.gate import run_gate, summary
from workbench.core.sanitize import clean
from workbench.review.board import ReviewBoard, ReviewItem
from workbench.review.case_filter import statuses
from workbench.review.diff import diff_lines

MARKER = ".workbench-report"
"""A file in the images folder saying Workbench made it (and may replace it)."""
_VIEWBOX = re.compile(r'viewBox="0 0 ([0-9.]+) ([0-9.]+)"')

FILTERS: tuple[tuple[str, str], ...] = (
    ("to-review", "To review"),
    ("changed", "Changed"),
    ("new", "New"),
    ("rejected", "Rejected"),
    ("unreviewed", "Never reviewed"),
    ("accepted", "Accepted"),
    ("all", "All"),
)


class ReportFolderError(Exception):
    """The images folder exists and is not one Workbench wrote."""


def images_folder(path: Path) -> Path:
    """Where the pictures of the report at ``path`` go: ``report_files/`` for ``report.html``."""
    return path.with_name(f"{path.stem}_files")


def check_report_folder(path: Path) -> None:
    """Raise :class:`ReportFolderError` unless the images folder is free or Workbench's."""
    folder = images_folder(path)
    if folder.exists() and not (folder / MARKER).is_file():
        raise ReportFolderError(
            f"{folder} exists and was not written by Workbench; move it or pick another report name"
        )


@dataclass(frozen=True)
class _Image:
    src: str
    width: int
    height: int


def _size(svg: str) -> tuple[int, int]:
    match = _VIEWBOX.search(svg[:400])
    if match is None:
        return 800, 400
    return round(float(match.group(1))), round(float(match.group(2)))


def _tags(item: ReviewItem) -> list[str]:
    """The filter words a case answers to (as the TUI's ``status:`` filter reads them)."""
    return sorted(statuses(item))


def _escape(text: object) -> str:
    return html.escape(clean(text), quote=True)


class _Writer:
    def __init__(self, board: ReviewBoard, path: Path) -> None:
        self.board = board
        self.path = path
        self.folder = images_folder(path)
        self.files = 0
        self.bytes = 0

    def prepare_folder(self) -> None:
        check_report_folder(self.path)
        if self.folder.exists():
            shutil.rmtree(self.folder)
        self.folder.mkdir(parents=True)
        (self.folder / MARKER).write_text("written by workbench review --report\n")

    def image(self, item: ReviewItem, svg: str, suffix: str) -> _Image:
        relative = Path(item.key.tool, item.key.api, item.key.variant, f"{item.key.name}{suffix}")
        target = self.folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        data = svg.encode("utf-8")
        target.write_bytes(data)
        self.files += 1
        self.bytes += len(data)
        width, height = _size(svg)
        return _Image(f"{self.folder.name}/{relative.as_posix()}", width, height)

    def figure(self, image: _Image, caption: str, alt: str) -> str:
        return (
            f'<figure><img src="{_escape(image.src)}" width="{image.width}" '
            f'height="{image.height}" loading="lazy" decoding="async" alt="{_escape(alt)}" '
            f"data-zoom><figcaption>{_escape(caption)}</figcaption></figure>"
        )

    def decision(self, item: ReviewItem) -> str:
        decision = item.decision
        review = item.review
        if decision is None:
            return '<p class="decision none">Not reviewed yet.</p>'
        if review == "outdated":
            head = (
                f"{decision.status.capitalize()} by {decision.reviewer} on {decision.at}, "
                "for an earlier picture: the case changed since"
            )
        else:
            head = f"{decision.status.capitalize()} by {decision.reviewer} on {decision.at}"
        note = (
            f'<br><span class="note">Note: {_escape(decision.note)}</span>' if decision.note else ""
        )
        return f'<p class="decision {review}">{_escape(head)}.{note}</p>'

    def diff(self, item: ReviewItem) -> str:
        lines = diff_lines(item.committed_text, item.fresh.text, context=3)
        if not lines:
            return '<p class="diff-note">The text is the same: only colours or styles changed.</p>'
        rows = []
        for line in lines:
            rows.append(f'<span class="{line.kind}">{_escape(line.marked)}</span>')
        return f'<pre class="diff">{chr(10).join(rows)}</pre>'

    def case(self, item: ReviewItem) -> str:
        key = item.key
        tags = _tags(item)
        badges = [f'<span class="badge {item.snapshot}">{item.snapshot}</span>']
        review_label = {
            "outdated": "changed since reviewed",
            "unreviewed": "never reviewed",
        }.get(item.review, item.review)
        badges.append(f'<span class="badge {item.review}">{_escape(review_label)}</span>')
        title = key.name
        parts = [
            f'<article class="case" id="{_escape(item.id)}" data-tags="{" ".join(tags)}" '
            f'data-id="{_escape(item.id)}">',
            f'<h4><a href="#{_escape(item.id)}">{_escape(title)}</a> {"".join(badges)}</h4>',
            f'<p class="description">{_escape(item.description)}</p>',
            self.decision(item),
        ]
        fresh = self.image(item, item.fresh.svg, ".svg")
        if item.snapshot == "changed" and item.committed_svg is not None:
            committed = self.image(item, item.committed_svg, ".committed.svg")
            parts.append(
                '<div class="compare"><div class="modes">'
                '<button type="button" data-mode="side" class="on">side by side</button>'
                '<button type="button" data-mode="flip">flip</button></div>'
                '<div class="pair">'
                + self.figure(committed, "committed snapshot (expected)", f"{item.id} committed")
                + self.figure(fresh, "drawn now (actual)", f"{item.id} now")
                + "</div></div>"
            )
            parts.append(self.diff(item))
        elif item.snapshot == "new":
            parts.append(self.figure(fresh, "drawn now (no committed snapshot)", item.id))
        else:
            parts.append(self.figure(fresh, "as committed and drawn now", item.id))
        if item.group == 0 or item.review == "rejected":
            parts.append(
                f'<p class="how">Review it: <code>workbench review -k {_escape(item.id)}</code></p>'
            )
        parts.append("</article>")
        return "".join(parts)


def _counts_by_api(items: Iterable[ReviewItem]) -> dict[tuple[str, str], dict[str, int]]:
    counts: dict[tuple[str, str], dict[str, int]] = {}
    for item in items:
        entry = counts.setdefault((item.key.tool, item.key.api), {"cases": 0})
        entry["cases"] += 1
        for tag in _tags(item):
            entry[tag] = entry.get(tag, 0) + 1
    return counts


def write_html_report(board: ReviewBoard, path: Path) -> tuple[int, int]:
    """Write the page and its images; returns (image files, bytes written in all)."""
    writer = _Writer(board, path)
    writer.prepare_folder()
    items = sorted(
        board.items,
        key=lambda item: (item.key.tool, item.key.api, item.key.variant, item.order),
    )
    result = run_gate(board)
    counts = board.counts()
    tag_counts: dict[str, int] = {name: 0 for name, _ in FILTERS}
    tag_counts["all"] = len(items)
    for item in items:
        for tag in _tags(item):
            tag_counts[tag] = tag_counts.get(tag, 0) + 1
    by_api = _counts_by_api(items)

    body: list[str] = []
    failures = len(result.failures)
    verdict = "passes" if result.ok else f"fails ({failures} case{'' if failures == 1 else 's'})"
    body.append(
        f'<header><h1>Workbench review</h1><p class="summary">{_escape(summary(board))}. '
        f"The CI gate (<code>workbench review --check</code>) {_escape(verdict)}.</p>"
    )
    body.append('<div class="filters" role="toolbar" aria-label="Show">')
    for name, label in FILTERS:
        body.append(
            f'<button type="button" data-filter="{name}">{_escape(label)} '
            f'<span class="count">{tag_counts.get(name, 0)}</span></button>'
        )
    body.append(
        '<input type="search" id="search" placeholder="filter by id: tool/api/variant/phase" '
        'aria-label="filter by id"></div>'
    )
    problems = [problem.format() for problem in board.review_file.problems]
    problems += [
        f"stale decision: {decision.case_id} (line {decision.line}) is not a case any more"
        for decision in board.stale
    ]
    if problems:
        body.append('<ul class="problems">')
        body.extend(f"<li>{_escape(problem)}</li>" for problem in problems)
        body.append("</ul>")
    body.append("</header>")

    body.append('<nav aria-label="Contents"><h2>Contents</h2><ul>')
    current_tool = None
    for (tool, api), entry in by_api.items():
        if tool != current_tool:
            if current_tool is not None:
                body.append("</ul></li>")
            body.append(f"<li><span class='tool'>{_escape(tool)}</span><ul>")
            current_tool = tool
        attention = entry.get("to-review", 0) + entry.get("rejected", 0)
        badge = f' <span class="badge to-review">{attention}</span>' if attention else ""
        body.append(
            f'<li><a href="#api-{_escape(tool)}-{_escape(api)}">{_escape(api)}</a> '
            f'<span class="count">{entry["cases"]}</span>{badge}</li>'
        )
    if current_tool is not None:
        body.append("</ul></li>")
    body.append("</ul></nav><main>")

    current: tuple[str, str] | None = None
    current_variant: str | None = None
    for item in items:
        key = item.key
        if (key.tool, key.api) != current:
            if current_variant is not None:
                body.append("</div></section>")
            if current is not None:
                body.append("</section>")
            current, current_variant = (key.tool, key.api), None
            body.append(
                f'<section class="api" id="api-{_escape(key.tool)}-{_escape(key.api)}">'
                f"<h2>{_escape(key.tool)} · {_escape(key.api)}</h2>"
            )
        if key.variant != current_variant:
            if current_variant is not None:
                body.append("</div></section>")
            current_variant = key.variant
            body.append(
                f'<section class="variant"><h3>{_escape(key.variant)} '
                f'<span class="label">{_escape(item.ref.variant.label)}</span></h3>'
                '<div class="cases">'
            )
        body.append(writer.case(item))
    if current_variant is not None:
        body.append("</div></section>")
    if current is not None:
        body.append("</section>")
    body.append("</main>")
    body.append(
        '<dialog id="zoom"><form method="dialog"><button class="close" aria-label="close">'
        "close (Esc)</button></form><div class='zoomed'><img alt=''></div></dialog>"
    )
    default_filter = "to-review" if counts["to review"] else "all"
    page = (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>Workbench review — {counts['to review']} to review</title>"
        f"<style>{CSS}</style></head>"
        f"<body data-default-filter='{default_filter}'>{''.join(body)}"
        f"<script>{SCRIPT}</script></body></html>\n"
    )
    data = page.encode("utf-8")
    path.write_bytes(data)
    return writer.files, writer.bytes + len(data)


CSS = """
:root { color-scheme: light dark; --bg: #fafafa; --fg: #1f2328; --muted: #59636e;
  --card: #fff; --line: #d1d9e0; --accent: #0969da; --bad: #cf222e; --good: #1a7f37;
  --warn: #9a6700; --new: #8250df; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1;
  --card: #151b23; --line: #3d444d; --accent: #4493f8; --bad: #f85149; --good: #3fb950;
  --warn: #d29922; --new: #ab7df8; } }
* { box-sizing: border-box; }
html { scroll-padding-top: calc(var(--header, 7rem) + .5rem); }
body { margin: 0; font: 14px/1.45 system-ui, sans-serif; background: var(--bg); color: var(--fg);
  display: grid; grid-template-columns: 17rem 1fr; grid-template-rows: auto 1fr; }
header { grid-column: 1 / 3; position: sticky; top: 0; z-index: 2; background: var(--bg);
  border-bottom: 1px solid var(--line); padding: .6rem 1.2rem; }
header h1 { font-size: 1.2rem; margin: 0 0 .2rem; }
.summary { margin: 0 0 .5rem; color: var(--muted); }
.filters { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; }
.filters button { font: inherit; border: 1px solid var(--line); background: var(--card);
  color: var(--fg); border-radius: 2rem; padding: .15rem .8rem; cursor: pointer; }
.filters button.on { background: var(--accent); border-color: var(--accent); color: #fff; }
.filters .count { opacity: .75; margin-left: .2rem; }
#search { font: inherit; flex: 1; min-width: 14rem; max-width: 28rem; padding: .2rem .6rem;
  border: 1px solid var(--line); border-radius: .4rem; background: var(--card); color: var(--fg); }
.problems { color: var(--bad); margin: .5rem 0 0; }
nav { position: sticky; top: var(--header, 7rem); align-self: start;
  max-height: calc(100vh - var(--header, 7rem));
  overflow: auto; padding: 1rem; font-size: 13px; }
nav h2 { font-size: 1rem; margin: 0 0 .4rem; } nav ul { list-style: none; padding-left: .6rem;
  margin: 0; } nav > ul { padding: 0; } nav .tool { font-weight: 600; }
nav a { color: var(--accent); text-decoration: none; } nav .count { color: var(--muted); }
main { padding: 0 1.2rem 40vh; min-width: 0; }
section.api > h2 { font-size: 1.15rem; border-bottom: 1px solid var(--line); padding-top: .8rem; }
section.variant h3 { font-size: 1rem; margin: 1rem 0 .4rem; }
section.variant h3 .label { font-weight: 400; color: var(--muted); }
.cases { display: flex; flex-direction: column; gap: 1rem; }
article.case { background: var(--card); border: 1px solid var(--line); border-radius: .5rem;
  padding: .6rem .8rem; container-type: inline-size; }
article.case:target { outline: 2px solid var(--accent); }
article.case h4 { margin: 0; font-size: 14px; } article.case h4 a { color: inherit; }
.description { margin: .1rem 0 .3rem; color: var(--muted); }
.badge { display: inline-block; font-size: 11px; font-weight: 600; border-radius: 1rem;
  padding: 0 .5rem; margin-left: .3rem; border: 1px solid currentColor; }
.badge.changed, .badge.outdated, .badge.to-review { color: var(--warn); }
.badge.new { color: var(--new); } .badge.rejected { color: var(--bad); }
.badge.accepted { color: var(--good); } .badge.unchanged, .badge.unreviewed { color: var(--muted); }
.decision { margin: .2rem 0 .5rem; } .decision.rejected { color: var(--bad); }
.decision.accepted { color: var(--good); } .decision.none { color: var(--muted); }
.note { color: var(--fg); }
figure { margin: 0; min-width: 0; } figure img { display: block; max-width: 100%;
  height: auto; cursor: zoom-in; border-radius: 6px; }
figcaption { font-size: 12px; color: var(--muted); margin-top: .2rem; }
.compare .modes { margin-bottom: .4rem; } .compare .modes button { font: inherit;
  font-size: 12px; border: 1px solid var(--line); background: var(--card); color: var(--fg);
  padding: .1rem .5rem; cursor: pointer; } .compare .modes button.on { background: var(--line); }
.pair { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 1rem;
  align-items: start; }
@container (max-width: 760px) { .pair { grid-template-columns: minmax(0, 1fr); } }
.pair.flip { grid-template-columns: minmax(0, 1fr); } .pair.flip > figure { grid-area: 1 / 1; }
.pair.flip > figure.hidden { visibility: hidden; } .pair.flip img { cursor: pointer; }
pre.diff { background: #0d1117; color: #e6edf3; padding: .6rem; border-radius: .4rem;
  overflow: auto; max-height: 36rem; font: 13px/1.35 "Fira Code", ui-monospace, monospace;
  font-variant-ligatures: none; }
pre.diff span { display: inline-block; min-width: 100%; }
pre.diff .added { color: #7ee787; background: #12261e; }
pre.diff .removed { color: #ffa198; background: #2d1214; }
pre.diff .hunk { color: #79c0ff; } pre.diff .note { color: #d29922; }
.diff-note { color: var(--warn); }
.how { font-size: 12px; color: var(--muted); margin: .4rem 0 0; }
.hidden-by-filter { display: none !important; }
dialog#zoom { max-width: 96vw; max-height: 94vh; padding: .5rem; border: 1px solid var(--line);
  background: var(--card); color: var(--fg); }
dialog#zoom .zoomed { overflow: auto; max-width: 94vw; max-height: 86vh; }
dialog#zoom img { display: block; cursor: zoom-out; }
dialog#zoom .close { font: inherit; margin-bottom: .4rem; }
@media (max-width: 900px) { body { display: block; } nav { display: none; } }
"""

SCRIPT = """
(() => {
  // The sticky header wraps on a narrow window: what scrolls into view goes below it.
  const header = document.querySelector('header');
  const measure = () => document.documentElement.style.setProperty(
    '--header', `${header.getBoundingClientRect().height}px`);
  new ResizeObserver(measure).observe(header);
  measure();
  const buttons = [...document.querySelectorAll('.filters button[data-filter]')];
  const search = document.getElementById('search');
  const cases = [...document.querySelectorAll('article.case')];
  let filter = document.body.dataset.defaultFilter || 'all';
  function apply() {
    const text = search.value.trim().toLowerCase();
    for (const button of buttons) button.classList.toggle('on', button.dataset.filter === filter);
    for (const article of cases) {
      const tags = article.dataset.tags.split(' ');
      const shown = (filter === 'all' || tags.includes(filter)) &&
        (!text || article.dataset.id.toLowerCase().includes(text));
      article.classList.toggle('hidden-by-filter', !shown);
    }
    for (const section of document.querySelectorAll('section.variant, section.api')) {
      const any = section.querySelector('article.case:not(.hidden-by-filter)');
      section.classList.toggle('hidden-by-filter', !any);
    }
  }
  for (const button of buttons) button.addEventListener('click', () => {
    filter = button.dataset.filter; apply();
  });
  search.addEventListener('input', apply);
  if (location.hash) filter = 'all';
  apply();
  const dialog = document.getElementById('zoom');
  const zoomed = dialog.querySelector('img');
  document.addEventListener('click', (event) => {
    const image = event.target.closest('img[data-zoom]');
    if (!image) return;
    const pair = image.closest('.pair');
    if (pair && pair.classList.contains('flip')) {
      for (const figure of pair.children) figure.classList.toggle('hidden');
      return;
    }
    // A picture drawn smaller than it is opens at its real size (1:1); one already at
    // 1:1 opens at twice it.
    const width = Number(image.getAttribute('width'));
    const height = Number(image.getAttribute('height'));
    const scale = image.getBoundingClientRect().width < width - 1 ? 1 : 2;
    zoomed.src = image.src;
    zoomed.width = width * scale; zoomed.height = height * scale;
    zoomed.alt = image.alt;
    dialog.showModal();
  });
  zoomed.addEventListener('click', () => dialog.close());
  for (const modes of document.querySelectorAll('.compare .modes')) {
    const pair = modes.parentElement.querySelector('.pair');
    for (const button of modes.querySelectorAll('button')) button.addEventListener('click', () => {
      const flip = button.dataset.mode === 'flip';
      pair.classList.toggle('flip', flip);
      pair.children[0].classList.toggle('hidden', flip);
      pair.children[1].classList.remove('hidden');
      for (const other of modes.querySelectorAll('button')) {
        other.classList.toggle('on', other === button);
      }
    });
  }
  // j / k: the next / previous case the filter shows.
  let current = -1;
  document.addEventListener('keydown', (event) => {
    if (event.target === search || dialog.open || (event.key !== 'j' && event.key !== 'k')) return;
    const visible = cases.filter((article) => !article.classList.contains('hidden-by-filter'));
    if (!visible.length) return;
    current = Math.min(visible.length - 1, Math.max(0, current + (event.key === 'j' ? 1 : -1)));
    visible[current].scrollIntoView({block: 'start'});
  });
})();
"""
