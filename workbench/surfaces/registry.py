"""The surface registry: identifier -> API -> surface, with a generic fallback for each kind.

A registry is an object the app builds and passes around, never a module-level global, so
tests and other projects can build their own. Portal surfaces are registered per tool.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from rich.console import RenderableType

from workbench.surfaces import generic
from workbench.surfaces.context import SurfaceContext


class SurfaceKind(StrEnum):
    """The six surfaces of a tool's UI."""

    INSPECTOR = "inspector"
    PLACEHOLDER = "placeholder"
    STREAMING = "streaming"
    RENDER = "render"
    INTERVENTION = "intervention"
    PORTAL = "portal"


SURFACE_KINDS: tuple[SurfaceKind, ...] = tuple(SurfaceKind)

Surface = Callable[[SurfaceContext], RenderableType | None]
"""A surface turns a context into a Rich renderable, or ``None`` for "nothing to show yet"."""

GENERIC_SURFACES: dict[SurfaceKind, Surface] = {
    SurfaceKind.INSPECTOR: generic.inspector,
    SurfaceKind.PLACEHOLDER: generic.placeholder,
    SurfaceKind.STREAMING: generic.streaming,
    SurfaceKind.RENDER: generic.render,
    SurfaceKind.INTERVENTION: generic.intervention,
    SurfaceKind.PORTAL: generic.portal,
}
"""The fallback for each kind: what a tool without a surface of its own gets."""


def editable(*fields: str) -> Callable[[Surface], Surface]:
    """Mark an Intervention surface's args that a reviewer may edit inline before approving."""

    def decorate(surface: Surface) -> Surface:
        surface.editable_fields = tuple(fields)  # type: ignore[attr-defined]
        return surface

    return decorate


@dataclass
class SurfaceSet:
    """One tool's surfaces, per API (the Portal is one per tool and routes on API itself)."""

    inspectors: dict[str, Surface] = field(default_factory=dict)
    placeholders: dict[str, Surface] = field(default_factory=dict)
    streamings: dict[str, Surface] = field(default_factory=dict)
    renders: dict[str, Surface] = field(default_factory=dict)
    interventions: dict[str, Surface] = field(default_factory=dict)
    portal: Surface | None = None

    def for_kind(self, kind: SurfaceKind) -> Mapping[str, Surface]:
        return {
            SurfaceKind.INSPECTOR: self.inspectors,
            SurfaceKind.PLACEHOLDER: self.placeholders,
            SurfaceKind.STREAMING: self.streamings,
            SurfaceKind.RENDER: self.renders,
            SurfaceKind.INTERVENTION: self.interventions,
        }.get(kind, {})


@dataclass(frozen=True)
class ResolvedSurface:
    surface: Surface
    kind: SurfaceKind
    fallback: bool
    """True when the tool has no surface of its own and the generic one is used."""

    @property
    def editable_fields(self) -> tuple[str, ...] | None:
        return getattr(self.surface, "editable_fields", None)


class HasSurfaces(Protocol):
    """A tool package as the registry sees it (:class:`workbench.tools.package.ToolPackage`)."""

    @property
    def identifier(self) -> str: ...

    @property
    def surfaces(self) -> SurfaceSet: ...


class SurfaceRegistry:
    """Looks up the surface for (tool, API, kind), falling back to the generic ones."""

    @classmethod
    def from_packages(cls, packages: Iterable[HasSurfaces]) -> SurfaceRegistry:
        """The packages' surfaces; of two packages with one identifier the first keeps it
        (whoever loaded them reports the conflict), so no card mixes two packages' surfaces."""
        registry = cls()
        seen: set[str] = set()
        for package in packages:
            if package.identifier not in seen:
                seen.add(package.identifier)
                registry.register_set(package.identifier, package.surfaces)
        return registry

    def __init__(self, fallbacks: Mapping[SurfaceKind, Surface] | None = None) -> None:
        if fallbacks is None:
            fallbacks = GENERIC_SURFACES
        missing = set(SURFACE_KINDS) - set(fallbacks)
        if missing:
            raise ValueError(f"fallbacks missing for: {', '.join(sorted(missing))}")
        self._fallbacks = dict(fallbacks)
        self._surfaces: dict[tuple[str, str, SurfaceKind], Surface] = {}
        self._portals: dict[str, Surface] = {}

    def register(self, tool: str, api: str, kind: SurfaceKind, surface: Surface) -> None:
        if kind is SurfaceKind.PORTAL:
            raise ValueError("a Portal is registered per tool: use register_portal()")
        self._surfaces[(tool, api, kind)] = surface

    def register_portal(self, tool: str, surface: Surface) -> None:
        self._portals[tool] = surface

    def register_set(self, tool: str, surfaces: SurfaceSet) -> None:
        for kind in SURFACE_KINDS:
            for api, surface in surfaces.for_kind(kind).items():
                self.register(tool, api, kind, surface)
        if surfaces.portal is not None:
            self.register_portal(tool, surfaces.portal)

    def has_own(self, tool: str, api: str, kind: SurfaceKind) -> bool:
        if kind is SurfaceKind.PORTAL:
            return tool in self._portals
        return (tool, api, kind) in self._surfaces

    def resolve(self, tool: str, api: str, kind: SurfaceKind) -> ResolvedSurface:
        if kind is SurfaceKind.PORTAL:
            own = self._portals.get(tool)
        else:
            own = self._surfaces.get((tool, api, kind))
        if own is not None:
            return ResolvedSurface(own, kind, fallback=False)
        return ResolvedSurface(self._fallbacks[kind], kind, fallback=True)

    def tools(self) -> set[str]:
        return {tool for tool, _, _ in self._surfaces} | set(self._portals)
