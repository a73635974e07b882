"""Hostile text in every field of every bundled fixture never reaches the terminal as escapes."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from tests.hostile import ALL_HOSTILE, raw_characters
from workbench.config import load_config
from workbench.core.manifest import ToolManifest
from workbench.fixtures.models import FixtureVariant
from workbench.fixtures.script import build_script
from workbench.project import open_project
from workbench.surfaces.card import card_renderable, portal_renderable
from workbench.surfaces.context import SurfaceContext

REPO = Path(__file__).resolve().parents[2]
PAYLOAD = (
    "\x1b]52;c;aGk=\x07[/bold][@click=app.quit]x[/]\x1b[2J\u202egnp.exe\x9b31m\x1b]0;t\x1b\\"
    + ALL_HOSTILE
)


def poison(value: Any) -> Any:
    """Every string gets the payload appended; structure and types stay as they were."""
    if isinstance(value, str):
        return value + PAYLOAD
    if isinstance(value, list):
        return [poison(item) for item in value]
    if isinstance(value, dict):
        return {key: poison(item) for key, item in value.items()}
    return value


def rendered(renderable: Any, width: int) -> str:
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=width,
        color_system="truecolor",
        force_terminal=True,
        legacy_windows=False,
    )
    console.print(renderable)
    # Styles are real SGR codes from Rich; strip those so only content escapes remain.
    import re

    return re.sub(r"\x1b\[[0-9;]*m", "", buffer.getvalue())


project = open_project(config=load_config(REPO))
REFS = project.catalog.all_variants(include_generated=False)


@pytest.mark.parametrize(
    "ref", REFS, ids=[f"{ref.tool}/{ref.api}#{ref.variant.id}" for ref in REFS]
)
def test_poisoned_variant_renders_inert_in_every_phase(ref: Any) -> None:
    data = ref.variant.model_dump(mode="json", exclude_none=True)
    data["args"] = poison(data["args"])
    data["result"]["state"] = poison(data["result"].get("state"))
    data["result"]["content"] = poison(data["result"].get("content") or "content")
    if data["result"].get("error"):
        data["result"]["error"]["message"] = poison(data["result"]["error"]["message"])
        data["result"]["error"]["body"] = poison(data["result"]["error"].get("body"))
    for chunk in data.get("output", []):
        if "text" in chunk:
            chunk["text"] = poison(chunk["text"])
        if "message" in chunk:
            chunk["message"] = poison(chunk["message"])
    variant = FixtureVariant.model_validate(data)
    manifest = project.catalog.tools[ref.tool].manifest
    script = build_script(variant, tool=ref.tool, api=ref.api, manifest=manifest)
    for phase in script.phases:
        ctx = SurfaceContext(state=script.state_at(phase), manifest=manifest, width=80)
        for output in (
            rendered(card_renderable(ctx, project.registry), 80),
            rendered(portal_renderable(ctx, project.registry), 80),
        ):
            assert raw_characters(output) == [], f"reached the terminal at {phase.value}"


def test_hostile_tool_names_are_cleaned_at_the_boundary() -> None:
    manifest = ToolManifest.model_validate(
        {
            "identifier": "evil",
            "meta": {"title": "evil\x1b]0;PWNED\x07srv", "emoji": "\x1b[31m!"},
            "api": [{"name": "run", "description": "d\x1b]8;;x\x1b\\"}],
        }
    )
    # Shown, not acted on: the escape is a visible ␛ and its text stays readable.
    assert (
        manifest.meta.title == "evil␛]0;PWNED␇srv"
        and manifest.meta.emoji == "␛[31m!"
        and manifest.api[0].description == "d␛]8;;x␛\\"
    )
