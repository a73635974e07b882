"""``workbench show``: print a rendered tool card (or Portal) as plain text."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from workbench.cli.output import fail_usage


@click.command()
@click.argument("reference", metavar="FIXTURE_FILE#VARIANT")
@click.option(
    "--phase", default=None, help="Lifecycle phase to show (default: the variant's last)."
)
@click.option(
    "--width",
    default=80,
    show_default=True,
    type=click.IntRange(30, 400),
    help="Card width in columns.",
)
@click.option(
    "--surface",
    type=click.Choice(["card", "portal"]),
    default="card",
    show_default=True,
    help="The tool card, or the tool's Portal.",
)
@click.option(
    "--theme",
    type=click.Choice(["dark", "light"]),
    default="dark",
    show_default=True,
    help="Colours used when --color is on.",
)
@click.option("--color/--no-color", default=False, help="Keep ANSI colours (default: plain text).")
def show(
    reference: str, phase: str | None, width: int, surface: str, theme: str, color: bool
) -> None:
    """Print FIXTURE_FILE#VARIANT's tool card at PHASE, headless.

    For CI logs, docs and quick checks. Unknown files, variants or phases are reported in
    one line naming what exists, with exit code 2.
    """
    from rich.console import Console

    from workbench.config import bundled_fixtures_dir, load_config
    from workbench.core.call_state import Phase
    from workbench.project import open_project
    from workbench.surfaces.card import card_renderable, portal_renderable
    from workbench.surfaces.context import DARK_PALETTE, LIGHT_PALETTE, SurfaceContext

    target = Path(reference.partition("#")[0])
    config = load_config()
    loaded_dirs = [
        *config.fixture_dirs,
        *([bundled_fixtures_dir()] if config.include_bundled else []),
    ]
    if target.is_file() and not any(
        target.resolve().is_relative_to(folder.resolve()) for folder in loaded_dirs
    ):
        # A file outside the project is loaded with the project's tools, so their manifests and
        # surfaces apply.
        project = open_project([*config.fixture_dirs, target], config=config)
    else:
        project = open_project(config=config)
    catalog = project.catalog
    try:
        ref = catalog.resolve_ref(reference)
    except LookupError as error:
        fail_usage(str(error))
    script = catalog.script_for(ref)
    if phase is None:
        chosen = script.phases[-1]
    else:
        names = [known.value for known in Phase]
        if phase not in names:
            fail_usage(f"unknown phase {phase!r} (phases: {', '.join(names)})")
        chosen = Phase(phase)
        if chosen not in script.phases:
            fail_usage(
                f"variant {ref.variant.id!r} has no phase "
                f"{phase!r} (it has: {', '.join(p.value for p in script.phases)})"
            )
    state = script.state_at(chosen)
    manifest = catalog.tools[ref.tool].manifest if ref.tool in catalog.tools else None
    palette = LIGHT_PALETTE if theme == "light" else DARK_PALETTE
    ctx = SurfaceContext(state=state, manifest=manifest, width=width, palette=palette)
    renderable = (
        card_renderable(ctx, project.registry)
        if surface == "card"
        else portal_renderable(ctx, project.registry)
    )
    console = Console(
        file=sys.stdout,
        width=width,
        color_system="truecolor" if color else None,
        force_terminal=color,
        no_color=not color,
        highlight=False,
        emoji=False,
        legacy_windows=False,
    )
    console.print(renderable, crop=False)
