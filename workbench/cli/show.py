"""``workbench show``: print a rendered tool card (or Portal) as plain text."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from workbench.cli.output import echo, fail_usage, stdout_console

if TYPE_CHECKING:
    from workbench.config import WorkbenchConfig
    from workbench.core.call_state import CallState
    from workbench.hosts import HostSet


@click.command()
@click.argument("reference", metavar="FIXTURE_FILE#VARIANT | TRANSCRIPT")
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
@click.option(
    "--host",
    "hosts",
    multiple=True,
    metavar="NAME",
    help="Draw the card as this host first shows it, beside the full card (repeatable; "
    "`workbench hosts` lists them). With --model: the hosts whose model view to print.",
)
@click.option(
    "--model",
    "model",
    is_flag=True,
    help="Print the content as each host hands it to the model (default: every bundled host "
    "but `none`, or the project's targets), with counts and where it was cut.",
)
def show(
    reference: str,
    phase: str | None,
    width: int,
    surface: str,
    theme: str,
    color: bool,
    hosts: tuple[str, ...],
    model: bool,
) -> None:
    """Print FIXTURE_FILE#VARIANT's tool card at PHASE, headless; or a whole TRANSCRIPT.

    For CI logs, docs and quick checks. A TRANSCRIPT (an agent session, as `workbench import`
    reads it) prints as its conversation: prompts, the model's text, thinking folded, and each
    tool call's card at its ending, a subagent's calls indented under the call that started
    them. Unknown files, variants or phases are reported in
    one line naming what exists, with exit code 2. ``--host NAME`` adds the card folded the
    way that host first shows it; ``--model`` prints what each host's model reads instead.
    """
    if "#" not in reference and Path(reference).is_file() and not _is_fixture_file(reference):
        from workbench.cli.transcript_show import print_conversation

        if phase is not None or surface != "card" or hosts or model:
            fail_usage(
                "a transcript prints whole: --phase, --surface, --host and --model "
                "are for FIXTURE_FILE#VARIANT"
            )
        print_conversation(Path(reference), width=width, theme=theme, color=color)
        return

    from workbench.config import bundled_fixtures_dir, load_config
    from workbench.core.call_state import Phase
    from workbench.project import open_project
    from workbench.surfaces.card import card_renderable, portal_renderable
    from workbench.surfaces.context import DARK_PALETTE, LIGHT_PALETTE, variant_context

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
    palette = LIGHT_PALETTE if theme == "light" else DARK_PALETTE
    ctx = variant_context(catalog, ref, chosen, width=width, palette=palette)
    host_set = _hosts(config, hosts, model)
    if model:
        _print_model_views(ctx.state, host_set, hosts)
        return
    renderable = (
        # The card's first look (renderDisplayControl); beside a host's fold, the full card.
        card_renderable(ctx, project.registry, expanded=True if hosts else None)
        if surface == "card"
        else portal_renderable(ctx, project.registry)
    )
    console = stdout_console(width, color)
    if not hosts:
        console.print(renderable, crop=False)
        return
    from rich.rule import Rule

    from workbench.surfaces.host_look import HostFirstLook

    for name in hosts:
        look = HostFirstLook(renderable, host_set.get(name))
        console.print(Rule(f"first look: {look.host.title}", characters="·"), crop=False)
        console.print(look, crop=False)
        rule = look.host.user
        if rule is None:
            note = look.host.user_note or "shown whole"
            console.print(f"{look.host.title}: {note}", crop=False, markup=False)
        elif look.look is not None and look.look.hidden:
            console.print(
                f"{look.look.hidden:,} of {look.look.body_lines:,} body lines hidden until "
                f"{rule.expand} (`workbench hosts` gives the source)",
                crop=False,
                markup=False,
            )
    console.print(Rule("full card", characters="·"), crop=False)
    console.print(renderable, crop=False)


def _is_fixture_file(reference: str) -> bool:
    """A YAML file, or a JSON document with top-level ``tool``, ``api`` and ``variants``: a
    fixture file, whose variant must be named (a transcript is anything else)."""
    path = Path(reference)
    if path.suffix.lower() in (".yaml", ".yml"):
        return True
    if path.suffix.lower() != ".json":
        return False
    import json

    try:
        with path.open("rb") as stream:
            head = stream.read(4096)
        data = json.loads(path.read_bytes()) if len(head) < 4096 else None
    except (OSError, ValueError):
        return False
    if data is None:
        return b'"variants"' in head and b'"tool"' in head
    return isinstance(data, dict) and "variants" in data and "tool" in data


def _hosts(config: WorkbenchConfig, names: tuple[str, ...], model: bool) -> HostSet:
    """The project's hosts; an unknown name, or a broken profile, is a usage error."""
    from workbench.hosts import load_hosts

    host_set = load_hosts(config)
    if host_set.problems and (names or model):
        fail_usage("; ".join(problem.format() for problem in host_set.problems))
    for name in names:
        try:
            host_set.get(name)
        except LookupError as error:
            fail_usage(str(error))
    return host_set


def _print_model_views(state: CallState, host_set: HostSet, names: tuple[str, ...]) -> None:
    from workbench.core.sanitize import clean
    from workbench.hosts import model_view
    from workbench.hosts.report import model_view_summary

    result = state.result
    if result is None:
        fail_usage("this phase has no result yet: --model needs the variant's ending phase")
    chosen = (
        list(names)
        or list(host_set.targets)
        or [name for name in sorted(host_set.profiles) if name != "none"]
    )
    for index, name in enumerate(chosen):
        view = model_view(result.content, host_set.get(name), state=result.state)
        if index:
            echo("")
        for line in model_view_summary(view):
            echo(line)
        echo(f"──── what the model reads ({view.delivered.lines:,} lines) ────")
        # The content is the tool's own text: cleaned, never interpreted.
        click.echo(clean(view.text))
