"""The keys Workbench itself defines on a screen or the app, for the help screen and palette."""

from __future__ import annotations

from textual.binding import Binding
from textual.dom import DOMNode

PHASE_BINDINGS = (
    Binding(
        "left_square_bracket",
        "prev_phase",
        # The palette lists each by its description; the footer shows the group's "Phase".
        "Previous phase",
        key_display="[",
        group=Binding.Group("Phase"),
        tooltip="Show the call one phase earlier",
    ),
    Binding(
        "right_square_bracket",
        "next_phase",
        "Next phase",
        key_display="]",
        group=Binding.Group("Phase"),
        tooltip="Show the call one phase later",
    ),
)
"""``[`` and ``]``: step a shown call through its phases (fixtures, transcripts)."""


def own_bindings(node: DOMNode) -> list[Binding]:
    """Bindings declared by Workbench's classes in ``node``'s class hierarchy, base classes
    first, one per key (``"o,f6"`` gives two); Textual's own defaults are left out."""
    found: list[Binding] = []
    for cls in reversed(type(node).__mro__):
        if not cls.__module__.startswith("workbench.") or "BINDINGS" not in vars(cls):
            continue
        found.extend(Binding.make_bindings(vars(cls)["BINDINGS"]))
    return found
