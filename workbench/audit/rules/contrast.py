"""Principle 13 (one visual language with the host): colours that read, in both themes."""

from __future__ import annotations

from collections.abc import Iterator

from rich.color import ColorType
from rich.style import Style

from workbench.audit.model import Rendered, RenderKey, Subject
from workbench.audit.rules import rule
from workbench.audit.text import is_decoration
from workbench.surfaces.colors import DECORATION_CONTRAST, TEXT_CONTRAST, blend, contrast

SAMPLE_CHARS = 24


def _colours(style: Style, rendered: Rendered) -> tuple[str, str]:
    """The foreground and background a segment is actually drawn in, as ``#rrggbb``."""
    palette = rendered.palette
    foreground = _hex(style.color) or palette.foreground
    background = _hex(style.bgcolor) or palette.background
    if style.reverse:
        foreground, background = background, foreground
    if style.dim:
        foreground = blend(foreground, background, 0.5)
    return foreground, background


def _hex(color: object) -> str | None:
    if color is None or getattr(color, "type", None) is ColorType.DEFAULT:
        return None
    triplet = color.get_truecolor()  # type: ignore[attr-defined]
    return str(triplet.hex)


@rule(13, "contrast")
def check_contrast(subject: Subject) -> Iterator[tuple[RenderKey, str, str]]:
    """Every text segment reaches 4.5:1 against the background it is drawn on (3:1 for borders,
    rules, bars and marks), in the dark and the light theme."""
    for rendered in subject.renders.values():
        ratios: dict[Style | None, tuple[str, str, float]] = {}
        reported: set[tuple[str, str, bool]] = set()
        for _, segment in rendered.segments():
            style = segment.style
            measured = ratios.get(style)
            if measured is None:
                foreground, background = _colours(style or Style(), rendered)
                measured = ratios[style] = (
                    foreground,
                    background,
                    contrast(foreground, background),
                )
            foreground, background, ratio = measured
            if ratio >= TEXT_CONTRAST:
                continue
            decoration = is_decoration(segment.text)
            minimum = DECORATION_CONTRAST if decoration else TEXT_CONTRAST
            if ratio >= minimum or (foreground, background, decoration) in reported:
                continue
            reported.add((foreground, background, decoration))
            what = "mark" if decoration else "text"
            sample = segment.text.strip()[:SAMPLE_CHARS]
            problem = (
                f"{what} “{sample}” is {foreground} on {background}, {ratio:.2f}:1 "
                f"(needs {minimum:g}:1 in the {rendered.key.theme} theme)"
            )
            if background != rendered.palette.background:
                advice = (
                    f"drop the background {background}, or draw the text in a colour "
                    "that reads on it"
                )
            else:
                advice = (
                    "draw it in a ctx.palette colour (each reaches 4.5:1 on this theme's "
                    "background), not a fixed colour or a dim style"
                )
            yield rendered.key, problem, advice
