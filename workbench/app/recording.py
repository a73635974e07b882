"""Saving a live call as a fixture variant: where it may go, what to call it, what it leaves.

The live screen's F2 asks the person (``SaveFixtureScreen``); these functions do the rest off
the UI thread, and say what ``workbench check`` will think of the API afterwards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.config import WorkbenchConfig
from workbench.core import events as ev
from workbench.core.call_state import CallState, Phase
from workbench.core.identifiers import slug
from workbench.core.manifest import ToolManifest
from workbench.core.redact import Redactor
from workbench.fixtures.catalog import Catalog
from workbench.fixtures.models import STANDARD_KINDS
from workbench.fixtures.recorder import (
    RecordingError,
    save_manifest_api,
    save_variant,
    variant_from_events,
)
from workbench.surfaces.kit import shorten

OUTCOME_KINDS: dict[Phase, str] = {
    Phase.TIMED_OUT: "timed-out",
    Phase.CANCELLED: "cancelled",
    Phase.BLOCKED: "blocked",
    Phase.SKIPPED: "skipped",
}


@dataclass(frozen=True)
class SaveRequest:
    """What the person chose: the variant's label, kind and id, the file it goes into, and
    the kinds the file waives from now on, with the reason."""

    label: str
    kind: str
    variant_id: str
    path: Path
    waive: tuple[str, ...] = ()
    reason: str = ""

    @property
    def waivers(self) -> list[dict[str, str]]:
        """The waivers as the fixture file writes them."""
        return [{"kind": kind, "reason": self.reason} for kind in self.waive]


@dataclass(frozen=True)
class Destination:
    """A file the recording can go into, as the dialog names it."""

    path: Path
    name: str
    """``recordings/demo/weather.yaml (new file)``, ``fixtures/demo/weather.yaml (3 variants)``."""


@dataclass(frozen=True)
class Saved:
    """A recording on disk: its address, and what the manifest beside it got."""

    path: Path
    variant_id: str
    manifest: Path | None
    """The manifest file that gained the recorded API, if one had to."""


def suggested_kind(state: CallState) -> str:
    """The kind the call looks like: how it ended, else typical or error by its result."""
    if state.phase in OUTCOME_KINDS:
        return OUTCOME_KINDS[state.phase]
    return "typical" if state.result is not None and state.result.success else "error"


def suggested_label(api: str, args: dict[str, Any]) -> str:
    """``weather: Lisbon``, from the API and its first short argument."""
    first = next((value for value in args.values() if isinstance(value, (str, int, float))), None)
    return f"{api}: {shorten(str(first), 40)}" if first is not None else f"{api} call"


def kinds_for(catalog: Catalog | None, tool: str, api: str) -> list[str]:
    """The kinds offered: the standard ones, the endings, and the API's own author kinds."""
    own: set[str] = set()
    entry = catalog.api_entry(tool, api) if catalog is not None else None
    if entry is not None:
        own = entry.kinds()
    return list(dict.fromkeys([*STANDARD_KINDS, *OUTCOME_KINDS.values(), *sorted(own)]))


def missing_kinds(catalog: Catalog | None, tool: str, api: str) -> list[str]:
    """The standard kinds the API has no variant of and no waiver for (the ones to offer)."""
    entry = catalog.api_entry(tool, api) if catalog is not None else None
    if entry is None:
        return list(STANDARD_KINDS)
    done = entry.kinds() | set(entry.waivers())
    return [kind for kind in STANDARD_KINDS if kind not in done]


def destinations(
    catalog: Catalog | None, config: WorkbenchConfig, tool: str, api: str
) -> list[Destination]:
    """The recordings file first (new or not), then the API's other fixture files."""
    recordings = config.recordings / tool / f"{api}.yaml"
    places = [Destination(recordings, _name(recordings, config, catalog))]
    entry = catalog.api_entry(tool, api) if catalog is not None else None
    for fixture in entry.fixtures if entry is not None else []:
        if fixture.generated or fixture.path.resolve() == recordings.resolve():
            continue
        places.append(Destination(fixture.path, _name(fixture.path, config, catalog)))
    return places


def _name(path: Path, config: WorkbenchConfig, catalog: Catalog | None) -> str:
    resolved = path.resolve()
    shown = (
        str(resolved.relative_to(config.root))
        if resolved.is_relative_to(config.root)
        else str(path)
    )
    fixture = catalog.find_fixture(path) if catalog is not None else None
    if fixture is None:
        return f"{shown} ({'new file' if not path.exists() else 'add to it'})"
    count = len(fixture.file.variants)
    return f"{shown} ({count} variant{'s' if count != 1 else ''})"


def check_request(events: Sequence[ev.CallEvent], request: SaveRequest) -> str | None:
    """What stops ``request`` from saving (a kind the result contradicts), or ``None``."""
    try:
        variant_from_events(
            events, variant_id=request.variant_id, label=request.label, kind=request.kind
        )
    except RecordingError as error:
        return str(error)
    except ValueError as error:  # pydantic: the variant contradicts itself
        message = str(error).splitlines()
        detail = next((line.strip() for line in message[1:] if line.strip()), message[0])
        return f"not as {request.kind!r}: {detail.removeprefix('Value error, ')}"
    return None


def save_recording(
    events: Sequence[ev.CallEvent],
    request: SaveRequest,
    *,
    tool: str,
    api: str,
    manifest: ToolManifest | None,
    packaged: bool,
    catalog: Catalog | None,
    config: WorkbenchConfig,
    redactor: Redactor | None = None,
) -> Saved:
    """Write the call into ``request.path``; give its tool's manifest the recorded API only.

    A tool from a package (Python tools) has its manifest in code. Another tool (an MCP
    server, an HTTP tool) needs a manifest file for the fixture to check: the one the project
    already has for it gains the API if it lacks it, else one is written beside the fixture.
    """
    variant = variant_from_events(
        events,
        variant_id=request.variant_id,
        label=request.label,
        kind=request.kind,
        redactor=redactor,
    )
    variant_id = save_variant(request.path, tool, api, variant, waivers=request.waivers)
    written: Path | None = None
    if manifest is not None and not packaged:
        known = catalog.tools.get(tool) if catalog is not None else None
        origin = config.root / known.origin if known is not None else None
        target = (
            origin
            if origin is not None
            and origin.suffix in (".yaml", ".yml", ".json")
            and origin.exists()
            else request.path.parent / "manifest.yaml"
        )
        if save_manifest_api(target, manifest, api):
            written = target
    return Saved(request.path, variant_id, written)


def suggested_id(api: str, args: dict[str, Any]) -> str:
    first = next((value for value in args.values() if isinstance(value, (str, int, float))), "call")
    return slug(f"{api}-{first}", fallback="call")[:80]
