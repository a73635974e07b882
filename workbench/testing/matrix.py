"""The snapshot matrix: every fixture variant x phase x width, generated from the fixtures.

Adding a fixture file adds its snapshots; nothing here is written per tool.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath

from workbench.core.call_state import Phase
from workbench.fixtures.catalog import Catalog, VariantRef
from workbench.surfaces.registry import SurfaceKind, SurfaceRegistry

CARD_WIDTHS: tuple[int, ...] = (60, 100)
LIGHT_WIDTH = 100
PORTAL_WIDTH = 80


@dataclass(frozen=True)
class SnapshotCase:
    """One snapshot: a variant frozen at a phase, drawn at a width in a theme."""

    ref: VariantRef
    phase: Phase
    width: int
    theme: str
    surface: str = "card"
    """``card`` or ``portal``."""

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
        prefix = "portal" if self.surface == "portal" else self.phase.value
        return f"{prefix}-{self.width}-{self.theme}"

    @property
    def relative_dir(self) -> PurePosixPath:
        return PurePosixPath(self.tool, self.api, self.variant_id)

    @property
    def test_id(self) -> str:
        return f"{self.tool}/{self.api}/{self.variant_id}/{self.name}"

    @property
    def title(self) -> str:
        return f"{self.tool} · {self.api} · {self.variant_id} · {self.name}"

    @property
    def description(self) -> str:
        """What a reviewer should see, in one line."""
        what = (
            "the Portal (first panel-height)"
            if self.surface == "portal"
            else f"the tool card at {self.phase.value}"
        )
        return (
            f"{what} of {self.tool}/{self.api} '{self.ref.variant.label}' at {self.width} "
            f"columns, {self.theme} theme"
        )


def snapshot_cases(catalog: Catalog, registry: SurfaceRegistry) -> list[SnapshotCase]:
    """Every case, in a stable order (generated samples are skipped: they are gaps, not UI).

    Dark cases come first and light ones last, so the renderer switches theme only once.
    """
    dark: list[SnapshotCase] = []
    light: list[SnapshotCase] = []
    for ref in sorted(
        catalog.all_variants(include_generated=False),
        key=lambda item: (item.tool, item.api, item.variant.id),
    ):
        script = catalog.script_for(ref)
        for phase in script.phases:
            for width in CARD_WIDTHS:
                dark.append(SnapshotCase(ref, phase, width, "dark"))
        if registry.has_own(ref.tool, ref.api, SurfaceKind.PORTAL):
            dark.append(
                SnapshotCase(ref, script.phases[-1], PORTAL_WIDTH, "dark", surface="portal")
            )
        light.append(SnapshotCase(ref, script.phases[-1], LIGHT_WIDTH, "light"))
    return dark + light
