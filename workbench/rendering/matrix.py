"""The snapshot matrix: every fixture variant x phase x width, generated from the fixtures.

Adding a fixture file adds its snapshots; nothing here is written per tool.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import PurePosixPath

from workbench.config import bundled_fixtures_dir
from workbench.core.call_state import Phase
from workbench.core.sanitize import clean, clean_line
from workbench.fixtures.catalog import Catalog, VariantRef
from workbench.hosts import bundled_hosts
from workbench.review.cases import CaseAddress, CaseKey
from workbench.surfaces.registry import SurfaceKind, SurfaceRegistry
from workbench.surfaces.themes import CaseTheme

CARD_WIDTHS: tuple[int, ...] = (60, 100)
"""Dark-theme cards: every phase at both widths."""
LIGHT_PHASE_WIDTH = 60
"""Light-theme cards: every phase at the narrowest width, where a surface must still read."""
LIGHT_WIDTH = 100
"""... and the ending at the usual width too."""
PORTAL_WIDTH = 80
HOST_VIEW_WIDTH = 100
"""The hosts' views (first look, model view): the ending, at one width, in the dark theme."""
LOOK = "look-"
MODEL = "model-"
"""Surface prefixes of a host's view: ``look-codex``, ``model-codex``."""
COLLAPSED = "collapsed"
"""The surface of a folded card's case: a ``collapsed`` API's done card as first shown (the
``card`` cases draw every card open, so the Render stays covered)."""
FOLDED_CASES: tuple[tuple[int, CaseTheme], ...] = (
    (60, CaseTheme.DARK),
    (100, CaseTheme.DARK),
    (60, CaseTheme.LIGHT),
)
"""Widths and themes a folded card is drawn at."""


@dataclass(frozen=True)
class SnapshotCase:
    """One snapshot: a variant frozen at a phase, drawn at a width in a theme."""

    ref: VariantRef
    phase: Phase
    width: int
    theme: CaseTheme
    surface: str = "card"
    """``card`` (open), ``collapsed`` (folded, at the ending), ``portal``, ``look-HOST`` (the
    card as HOST first shows it) or ``model-HOST`` (what HOST's model reads of the result)."""

    def __post_init__(self) -> None:
        # A theme given by name ("dark") is the table's member, so a mistyped one fails here.
        object.__setattr__(self, "theme", CaseTheme(self.theme))

    @property
    def host(self) -> str | None:
        """The host whose view this case draws, if it is one."""
        for prefix in (LOOK, MODEL):
            if self.surface.startswith(prefix):
                return self.surface.removeprefix(prefix)
        return None

    @property
    def tool(self) -> str:
        return self.ref.tool

    @property
    def api(self) -> str:
        return self.ref.api

    @property
    def variant_id(self) -> str:
        return self.ref.variant.id

    @property
    def name(self) -> str:
        """File stem, unique within the variant's folder."""
        return self.address.name

    @cached_property
    def key(self) -> CaseKey:
        """The case's address, as review decisions name it (worked out once: a snapshot run
        asks every case for it several times)."""
        return CaseKey(
            self.tool,
            self.api,
            self.variant_id,
            self.phase.value,
            self.width,
            self.theme,
            self.surface,
        )

    @cached_property
    def address(self) -> CaseAddress:
        """The case's id and files (:class:`~workbench.review.store.SnapshotStore`)."""
        return self.key.address

    @property
    def relative_dir(self) -> PurePosixPath:
        return self.address.relative_dir

    @property
    def test_id(self) -> str:
        return self.address.id

    @property
    def title(self) -> str:
        return f"{self.tool} · {self.api} · {self.variant_id} · {self.name}"

    @property
    def description(self) -> str:
        """What a reviewer should see, in one line."""
        host = self.host
        if self.surface == "portal":
            what = "the Portal (first panel-height)"
        elif self.surface == COLLAPSED:
            what = (
                f"the tool card's first look at {self.phase.value} (folded to the Inspector "
                "and one line, unless the Render is one row)"
            )
        elif host is not None and self.surface.startswith(LOOK):
            what = f"the tool card at {self.phase.value} as {host} first shows it (folded)"
        elif host is not None:
            what = f"what {host}'s model reads of the result at {self.phase.value}"
        else:
            what = f"the tool card at {self.phase.value}"
        return (
            f"{what} of {self.tool}/{self.api} '{clean_line(self.ref.variant.label)}' at "
            f"{self.width} columns, {self.theme} theme"
        )


def snapshot_text_of(case: SnapshotCase, text: str) -> str:
    """The text snapshot: one line saying what a reviewer should see, then the card.

    ``cat`` and ``git diff`` print this file: the label (fixture text) is shown as one line
    with nothing a terminal acts on, and the card once more through the sanitizer.
    """
    return f"# {clean_line(case.description)}\n{clean(text)}"


@dataclass(frozen=True)
class AuditCase:
    """The render audit of one variant (every phase x 60/100/120 columns x both themes)."""

    ref: VariantRef

    @property
    def test_id(self) -> str:
        return f"{self.ref.tool}/{self.ref.api}/{self.ref.variant.id}/audit"

    @property
    def description(self) -> str:
        return (
            f"{self.ref.tool}/{self.ref.api} '{clean_line(self.ref.variant.label)}' passes the "
            "render principles in every phase, width and theme"
        )


def audit_cases(catalog: Catalog) -> list[AuditCase]:
    """One audit per real fixture variant, in the snapshots' order."""
    return [
        AuditCase(ref)
        for ref in sorted(
            catalog.all_variants(include_generated=False),
            key=lambda item: (item.tool, item.api, item.variant.id),
        )
    ]


def starts_collapsed(catalog: Catalog, ref: VariantRef) -> bool:
    """The variant's API asks for its done card folded first (``renderDisplayControl``)."""
    manifest = catalog.manifest_for(ref.tool)
    api = manifest.get_api(ref.api) if manifest is not None else None
    return api is not None and api.render_display_control == "collapsed"


def snapshot_cases(catalog: Catalog, registry: SurfaceRegistry) -> list[SnapshotCase]:
    """Every case, in a stable order (generated samples are skipped: they are gaps, not UI).

    Dark: every phase at 60 and 100 columns, and the Portal. Light: every phase at 60
    columns, the ending at 100, and the Portal. Every card is drawn open; a ``collapsed``
    API's done ending is drawn folded too (60 and 100 dark, 60 light). Dark cases come first
    and light ones last, so an app-drawn run switches theme only once. A bundled fixture's
    variant also gets, at its ending, 100 columns, dark, each bundled host's first look and
    model view (``none`` left out: it is the card and the content as they are); a project's
    own variants do not, so a project's suite does not change under it.
    """
    bundled = bundled_fixtures_dir().resolve()
    hosts = [name for name in sorted(bundled_hosts().profiles) if name != "none"]
    dark: list[SnapshotCase] = []
    light: list[SnapshotCase] = []
    for ref in sorted(
        catalog.all_variants(include_generated=False),
        key=lambda item: (item.tool, item.api, item.variant.id),
    ):
        script = catalog.script_for(ref)
        for phase in script.phases:
            for width in CARD_WIDTHS:
                dark.append(SnapshotCase(ref, phase, width, CaseTheme.DARK))
        for phase in script.phases:
            light.append(SnapshotCase(ref, phase, LIGHT_PHASE_WIDTH, CaseTheme.LIGHT))
        light.append(SnapshotCase(ref, script.phases[-1], LIGHT_WIDTH, CaseTheme.LIGHT))
        if script.phases[-1] is Phase.DONE and starts_collapsed(catalog, ref):
            for width, theme in FOLDED_CASES:
                folded = SnapshotCase(ref, Phase.DONE, width, theme, surface=COLLAPSED)
                (dark if theme is CaseTheme.DARK else light).append(folded)
        if registry.has_own(ref.tool, ref.api, SurfaceKind.PORTAL):
            for theme, cases in ((CaseTheme.DARK, dark), (CaseTheme.LIGHT, light)):
                cases.append(
                    SnapshotCase(ref, script.phases[-1], PORTAL_WIDTH, theme, surface="portal")
                )
        if ref.fixture.path.resolve().is_relative_to(bundled):
            for prefix in (LOOK, MODEL):
                dark.extend(
                    SnapshotCase(
                        ref, script.phases[-1], HOST_VIEW_WIDTH, CaseTheme.DARK, prefix + name
                    )
                    for name in hosts
                )
    return dark + light
