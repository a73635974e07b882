"""``workbench coverage``: the tool x API x surface x kind matrix, gaps in red."""

from __future__ import annotations

import shutil

import click

from workbench.cli.output import echo, echo_json, format_option
from workbench.coverage import NOT_YOURS

SURFACE_LETTERS = (
    ("inspector", "I"),
    ("placeholder", "P"),
    ("streaming", "S"),
    ("render", "R"),
    ("intervention", "V"),
    ("portal", "O"),
)
KIND_LABELS = (
    ("typical", "typ"),
    ("empty", "emp"),
    ("error", "err"),
    ("truncated", "trunc"),
    ("loading", "load"),
)


SURFACE_NAMES = {"intervention": "Intervention", "portal": "Portal"}


def legend() -> str:
    """What the table's letters and marks mean, printed under it."""
    letters = " · ".join(
        f"{letter} {SURFACE_NAMES.get(kind, kind.capitalize())}" for kind, letter in SURFACE_LETTERS
    )
    kinds = " · ".join(f"{label} {kind}" for kind, label in KIND_LABELS)
    return (
        f"surfaces: {letters} (a letter: the tool's own; ·: the generic fallback)\n"
        f"kinds: {kinds} (✓ covered, w waived with a reason, ✗ missing, "
        "o observed: only recordings of a tool with no surface of its own, not a gap; "
        f"i {NOT_YOURS}: only imported calls of a tool the project does not have, not counted)"
    )


@click.command()
@format_option()
def coverage(output_format: str) -> None:
    """Print which surfaces each API has (own or fallback) and which kinds its fixtures cover.

    Surfaces: I Inspector, P Placeholder, S Streaming, R Render, V Intervention, O Portal
    (upper case: the tool's own; '·': the generic fallback). Kinds: ✓ covered, w waived
    (with a reason), ✗ missing, o observed (only recordings of a tool with no surface of its
    own: not a gap), i imported, not yours (only calls `workbench import` brought of a tool the
    project does not have: reported, not counted). Exit code 1 when there is a gap (as
    `workbench check`).
    """
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from workbench.core.sanitize import plain
    from workbench.coverage import coverage as compute
    from workbench.project import open_project

    project = open_project(installed=False)
    rows = compute(project.catalog, project.registry, recordings=project.config.recordings)
    gaps = sum(len(row.gaps) for row in rows)
    if output_format == "json":
        echo_json({"ok": not gaps, "gaps": gaps, "apis": [row.to_json() for row in rows]})
    else:
        table = Table(title="Workbench coverage", show_lines=False)
        table.add_column("tool")
        table.add_column("api")
        table.add_column("surfaces", no_wrap=True)
        for _, label in KIND_LABELS:
            table.add_column(label, justify="center")
        table.add_column("gaps")
        for row in rows:
            surfaces = Text()
            for kind, letter in SURFACE_LETTERS:
                own = row.surfaces[kind]
                missing_intervention = kind == "intervention" and row.needs_intervention and not own
                surfaces.append(
                    letter if own else "·",
                    style="bold red" if missing_intervention else "green" if own else "dim",
                )
            cells = []
            for kind, _ in KIND_LABELS:
                status = row.kinds[kind]
                cells.append(
                    Text("✓", style="green")
                    if status == "covered"
                    else Text("w", style="yellow")
                    if status == "waived"
                    else Text("i" if row.imported else "o", style="dim")
                    if status == "observed"
                    else Text("✗", style="bold red")
                )
            table.add_row(
                plain(row.tool),
                plain(row.api),
                surfaces,
                *cells,
                plain(f"{NOT_YOURS}: not counted", style="dim")
                if row.imported
                else plain("; ".join(row.gaps), style="red"),
            )
        Console(width=max(120, shutil.get_terminal_size().columns)).print(table)
        echo(legend())
        imported = sum(1 for row in rows if row.imported)
        echo(
            f"{len(rows)} {'API' if len(rows) == 1 else 'APIs'}, "
            f"{gaps} {'gap' if gaps == 1 else 'gaps'}"
            + (f", {imported} {NOT_YOURS}: not counted" if imported else "")
        )
    if gaps:
        raise SystemExit(1)
