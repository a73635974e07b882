"""Run the audit: draw every variant in every phase, width and theme, and apply every rule.

Each case is drawn once (by the snapshot renderer's :class:`CardDrawer`) and all rules read
the same segments; only the Inspector is drawn again, once per phase and theme, at a width
where nothing needs cutting, to know what the narrow ones left out.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from textual.strip import Strip

from workbench.audit.model import CARD, PORTAL, Finding, Rendered, RenderKey, Subject
from workbench.audit.rules import Rule, all_rules
from workbench.core.call_state import Phase
from workbench.core.manifest import DynamicIntervention, ToolManifest
from workbench.fixtures.catalog import Catalog, VariantRef
from workbench.fixtures.models import AuditWaiver, LoadedFixture
from workbench.hosts.profile import HostProfile
from workbench.policy.audits import DEFAULT_AUDITS
from workbench.rendering.matrix import SnapshotCase
from workbench.rendering.renderer import CardDrawer
from workbench.review.shards import Shard
from workbench.surfaces.card import inspector_renderable
from workbench.surfaces.registry import SurfaceKind, SurfaceRegistry
from workbench.surfaces.themes import CaseTheme

if TYPE_CHECKING:
    from workbench.rendering.cache import RenderCache

AUDIT_WIDTHS: tuple[int, ...] = (60, 100, 120)
AUDIT_THEMES: tuple[CaseTheme, ...] = tuple(CaseTheme)
PORTAL_WIDTH = 80
FULL_WIDTH = 1000
"""Columns for the uncut Inspector: nothing real is that long."""


@dataclass
class UnusedWaiver:
    """A waiver that matched nothing: the problem it excused is gone (or it never matched)."""

    file: str
    line: int
    waiver: AuditWaiver


@dataclass
class AuditReport:
    findings: list[Finding] = field(default_factory=list)
    """Every finding, waived ones included (``waived_by`` set)."""
    subjects: list[tuple[VariantRef, list[Finding]]] = field(default_factory=list)
    unused_waivers: list[UnusedWaiver] = field(default_factory=list)
    unknown_rules: list[UnusedWaiver] = field(default_factory=list)
    renders: int = 0
    reused: int = 0
    """Variants whose findings the render cache held (nothing of theirs was drawn)."""
    seconds: float = 0.0
    rules: list[Rule] = field(default_factory=list)

    @property
    def open_findings(self) -> list[Finding]:
        return [finding for finding in self.findings if finding.counts]

    @property
    def ok(self) -> bool:
        return not self.open_findings and not self.unknown_rules


def internal_names(manifest: ToolManifest | None) -> frozenset[str]:
    """Policy globs and audit names of this tool: words of the workbench, not of the user."""
    names: set[str] = set(DEFAULT_AUDITS)
    if manifest is None:
        return frozenset(names)
    policies = [manifest.human_intervention, *(api.human_intervention for api in manifest.api)]
    for policy in policies:
        if isinstance(policy, DynamicIntervention):
            names.add(policy.dynamic.type)
        elif isinstance(policy, list):
            for item in policy:
                # Only globs that look like patterns: a bare word would match ordinary text.
                names.update(
                    pattern
                    for pattern in (item.match or {}).values()
                    if any(mark in pattern for mark in "*?[") and len(pattern) > 3
                )
    return frozenset(names)


class Auditor:
    """Draws and checks variants; one per project (it keeps a drawer and its console)."""

    def __init__(
        self,
        catalog: Catalog,
        registry: SurfaceRegistry,
        *,
        rules: Sequence[Rule] | None = None,
        widths: Sequence[int] = AUDIT_WIDTHS,
        themes: Sequence[CaseTheme] = AUDIT_THEMES,
        hosts: Sequence[HostProfile] = (),
        cache: RenderCache | None = None,
    ) -> None:
        self.catalog = catalog
        self.registry = registry
        self.rules = list(rules) if rules is not None else all_rules()
        self.widths = tuple(widths)
        self.themes = tuple(themes)
        self.hosts = tuple(hosts)
        self.drawer = CardDrawer(catalog, registry)
        self.cache = cache
        self._settings = repr(
            (
                [(item.name, type(item).__qualname__) for item in self.rules],
                self.widths,
                [host.model_dump_json() for host in self.hosts],
            )
        )

    def subject(self, ref: VariantRef) -> Subject:
        """``ref`` drawn in every phase x width x theme (and its Portal, if the tool has one)."""
        script = self.catalog.script_for(ref)
        renders: dict[RenderKey, Rendered] = {}
        has_portal = self.registry.has_own(ref.tool, ref.api, SurfaceKind.PORTAL)
        for theme in self.themes:
            for phase in script.phases:
                for width in self.widths:
                    case = SnapshotCase(ref, phase, width, theme)
                    drawing = self.drawer.draw(case)
                    view = drawing.view
                    assert view is not None
                    renders[RenderKey(phase, width, theme, CARD)] = Rendered(
                        key=RenderKey(phase, width, theme, CARD),
                        strips=drawing.strips,
                        ctx=drawing.ctx,
                        body_kind=view.body_kind,
                        body_fallback=view.body_fallback,
                        inspector_fallback=not self.registry.has_own(
                            ref.tool, ref.api, SurfaceKind.INSPECTOR
                        ),
                    )
            if has_portal:
                ending = script.phases[-1]
                drawing = self.drawer.draw(
                    SnapshotCase(ref, ending, PORTAL_WIDTH, theme, surface=PORTAL)
                )
                key = RenderKey(ending, PORTAL_WIDTH, theme, PORTAL)
                renders[key] = Rendered(key=key, strips=drawing.strips, ctx=drawing.ctx)
        manifest = self.catalog.manifest_for(ref.tool)

        def draw_inspector(phase: Phase, theme: str) -> tuple[str, str | None]:
            ctx = self.drawer.context(SnapshotCase(ref, phase, FULL_WIDTH, CaseTheme(theme)))
            strips = self.drawer.draw_renderable(
                inspector_renderable(ctx, self.registry), FULL_WIDTH, theme
            )
            return inspector_text_and_tail(strips, ctx.palette.subject)

        return Subject(
            ref=ref,
            phases=script.phases,
            renders=renders,
            draw_inspector=draw_inspector,
            internal_names=internal_names(manifest),
            hosts=self.hosts,
            server=(manifest.meta.title or manifest.identifier)
            if manifest is not None and manifest.type == "mcp"
            else None,
        )

    def _checked(self, refs: list[VariantRef], jobs: int) -> Iterator[tuple[list[Finding], int]]:
        """Each ref's findings, in order: here, or in ``jobs`` forked processes.

        Forking shares the loaded project with the workers for free (nothing is pickled but
        indices and findings); where there is no fork, the audit runs here.
        """
        if jobs <= 1 or len(refs) < PARALLEL_MINIMUM or not fork_available():
            for ref in refs:
                yield self.check(ref)
            return
        global _WORKER
        _WORKER = self
        self._refs = refs
        chunks = [list(range(start, len(refs), jobs * 4)) for start in range(jobs * 4)]
        results: dict[int, tuple[list[Finding], int]] = {}
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            for chunk in pool.map(_check_in_worker, [chunk for chunk in chunks if chunk]):
                for index, findings, count in chunk:
                    results[index] = (findings, count)
        _WORKER = None
        for index in range(len(refs)):
            yield results[index]

    def check(self, ref: VariantRef) -> tuple[list[Finding], int]:
        """The findings for one variant (waivers applied) and how many drawings were made
        (none when the render cache held its findings)."""
        if self.cache is None:
            findings, count = self._findings(ref)
        else:
            drawn: list[int] = []

            def draw() -> dict[str, Any]:
                found, drawn_count = self._findings(ref)
                drawn.append(drawn_count)
                return {"findings": [item.to_json() for item in found], "renders": drawn_count}

            key = self.cache.inputs.audit(ref, self._settings, self.themes)
            value = self.cache.remember(key, draw)
            try:
                findings = [Finding.from_json(item) for item in value["findings"]]
            except (KeyError, ValueError, TypeError):  # An entry of the right format, mangled.
                self.cache.stats.ignored += 1
                findings, count = self._findings(ref)
            else:
                count = drawn[0] if drawn else 0
        waivers = list(enumerate(ref.fixture.file.audit_waivers))
        for finding in findings:
            for _, waiver in waivers:
                if waiver_matches(waiver, ref, finding):
                    finding.waived_by = waiver.reason
                    break
        return findings, count

    def _findings(self, ref: VariantRef) -> tuple[list[Finding], int]:
        """Draw ``ref`` and run the rules: the findings before waivers, and the drawings."""
        subject = self.subject(ref)
        findings = [finding for item in self.rules for finding in item.run(subject)]
        agent = self._agent_tool(ref)
        for finding in findings:
            if subject.quotes_server(finding.problem):
                finding.server_text = subject.server
            finding.agent_tool = agent
        return findings, len(subject.renders)

    def _agent_tool(self, ref: VariantRef) -> str | None:
        """The agent's name when ``ref`` is a call to one of its own tools (UI-only surfaces
        that ship with Workbench), else ``None``."""
        from workbench.tools.agent_packages import is_agent_manifest

        manifest = self.catalog.manifest_for(ref.tool)
        if manifest is None or not is_agent_manifest(manifest):
            return None
        return manifest.meta.title or manifest.identifier

    def run(
        self,
        refs: Iterable[VariantRef],
        *,
        jobs: int = 1,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> AuditReport:
        """Audit ``refs``; with ``jobs`` > 1, that many forked processes share the variants."""
        started = time.perf_counter()
        refs = list(refs)
        report = AuditReport(rules=self.rules)
        used: set[tuple[str, int]] = set()
        rule_names = {item.name for item in all_rules()}
        counted = self.cache.stats.reused + self.cache.stats.drawn if self.cache else 0
        for done, (ref, (findings, count)) in enumerate(
            zip(refs, self._checked(refs, jobs), strict=True), start=1
        ):
            report.renders += count
            report.reused += count == 0  # Every drawn variant has at least one drawing.
            report.findings.extend(findings)
            report.subjects.append((ref, findings))
            for finding in findings:
                if finding.waived_by is not None:
                    for index, waiver in enumerate(ref.fixture.file.audit_waivers):
                        if waiver_matches(waiver, ref, finding):
                            used.add((str(ref.fixture.path), index))
                            break
            if on_progress is not None:
                on_progress(done, len(refs))
        if self.cache and self.cache.stats.reused + self.cache.stats.drawn == counted:
            # Forked workers checked the variants: their counts stayed with them.
            self.cache.stats.reused += report.reused
            self.cache.stats.drawn += len(refs) - report.reused
        selected = {item.name for item in self.rules}
        for fixture in _fixtures(refs):
            for index, waiver in enumerate(fixture.file.audit_waivers):
                entry = UnusedWaiver(
                    str(fixture.path), fixture.audit_waiver_lines.get(index, 1), waiver
                )
                if waiver.rule not in rule_names:
                    report.unknown_rules.append(entry)
                elif waiver.rule in selected and (str(fixture.path), index) not in used:
                    report.unused_waivers.append(entry)
        report.seconds = time.perf_counter() - started
        return report


def inspector_text_and_tail(strips: list[Strip], subject: str) -> tuple[str, str | None]:
    """The Inspector's text, and what follows its subject (``None`` if no subject is marked).

    ``kit.status_line`` draws the subject — the path, query or command — in the palette's
    subject colour; everything after it is the status, which must survive narrowing.
    """
    text = ""
    end_of_subject: int | None = None
    for strip in strips[:1]:
        for segment in strip:
            color = segment.style.color if segment.style is not None else None
            text += segment.text
            if color is not None and color.triplet is not None and color.triplet.hex == subject:
                end_of_subject = len(text)
    text = text.rstrip()
    tail = text[end_of_subject:].strip() if end_of_subject is not None else None
    return text.strip(), tail


_WORKER: Auditor | None = None
"""The auditor a forked worker inherited from its parent (set just before the fork)."""
PARALLEL_MINIMUM = 12
"""Fewer variants than this are quicker to audit than to start processes for."""


def _check_in_worker(indices: list[int]) -> list[tuple[int, list[Finding], int]]:
    assert _WORKER is not None
    refs = _WORKER._refs
    return [(index, *_WORKER.check(refs[index])) for index in indices]


def fork_available() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def waiver_matches(waiver: AuditWaiver, ref: VariantRef, finding: Finding) -> bool:
    key = finding.key
    return (
        waiver.rule == finding.rule
        and (waiver.variant is None or waiver.variant == ref.variant.id)
        and (waiver.phase is None or waiver.phase == key.phase)
        and (waiver.width is None or waiver.width == key.width)
        and (waiver.theme is None or waiver.theme == key.theme)
        and (waiver.surface is None or waiver.surface == key.surface)
        and (waiver.host is None or waiver.host == finding.host)
    )


def _fixtures(refs: Sequence[VariantRef]) -> list[LoadedFixture]:
    seen: dict[str, LoadedFixture] = {}
    for ref in refs:
        seen.setdefault(str(ref.fixture.path), ref.fixture)
    return list(seen.values())


def audit_refs(catalog: Catalog) -> list[VariantRef]:
    """The variants the audit covers: every real fixture variant, in a stable order."""
    return sorted(
        catalog.all_variants(include_generated=False),
        key=lambda ref: (ref.tool, ref.api, ref.variant.id),
    )


def shard_refs(catalog: Catalog, refs: Sequence[VariantRef], shard: Shard) -> list[VariantRef]:
    """The variants ``shard`` audits: whole tool APIs (so a fixture file's waivers are all
    judged in one shard, and an unused one is reported there), split by how many phases, so
    drawings, they take."""
    return shard.select(
        refs, lambda ref: f"{ref.tool}/{ref.api}", lambda ref: len(catalog.script_for(ref).phases)
    )


def run_audit(
    catalog: Catalog,
    registry: SurfaceRegistry,
    *,
    rules: Sequence[Rule] | None = None,
    refs: Sequence[VariantRef] | None = None,
    jobs: int = 1,
    on_progress: Callable[[int, int], None] | None = None,
    hosts: Sequence[HostProfile] = (),
    cache: RenderCache | None = None,
) -> AuditReport:
    """Audit ``refs`` (default: every fixture variant of the catalog), holding the results to
    ``hosts`` (the project's targeted hosts) in the host rules; with a ``cache``, a variant
    whose inputs did not change is not drawn again."""
    auditor = Auditor(catalog, registry, rules=rules, hosts=hosts, cache=cache)
    return auditor.run(
        refs if refs is not None else audit_refs(catalog), jobs=jobs, on_progress=on_progress
    )
