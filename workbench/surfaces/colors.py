"""Colour arithmetic for surfaces: WCAG contrast, and nudging a colour until it reads.

Pure functions on ``#rrggbb`` strings, shared by the palettes (which make every theme colour
pass) and by ``workbench audit`` (which checks what was actually drawn).
"""

from __future__ import annotations

import colorsys
from functools import lru_cache

TEXT_CONTRAST = 4.5
"""WCAG 2 AA minimum for text against the background it is drawn on."""
DECORATION_CONTRAST = 3.0
"""WCAG 2 minimum for non-text marks: borders, rules, bars, bullets."""
PALETTE_MARGIN = 0.1
"""Palettes aim a little above the minimum, so rounding to 8-bit channels never drops below."""


def parse_hex(color: str) -> tuple[int, int, int]:
    """``#rrggbb`` (or ``#rgb``) as 0-255 channels; ``ValueError`` on anything else."""
    value = color.strip().lstrip("#")
    if len(value) == 3:
        value = "".join(channel * 2 for channel in value)
    if len(value) != 6:
        raise ValueError(f"not a #rrggbb colour: {color!r}")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def to_hex(red: float, green: float, blue: float) -> str:
    """0-1 channels as ``#rrggbb``."""
    return "#" + "".join(f"{round(max(0.0, min(1.0, c)) * 255):02x}" for c in (red, green, blue))


def _linear(channel: int) -> float:
    value = channel / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG relative luminance of an sRGB colour."""
    red, green, blue = rgb
    return 0.2126 * _linear(red) + 0.7152 * _linear(green) + 0.0722 * _linear(blue)


def rgb_contrast(first: tuple[int, int, int], second: tuple[int, int, int]) -> float:
    """WCAG contrast ratio (1-21) of two sRGB colours."""
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@lru_cache(maxsize=4096)
def contrast(foreground: str, background: str) -> float:
    """WCAG contrast ratio of two ``#rrggbb`` colours."""
    return rgb_contrast(parse_hex(foreground), parse_hex(background))


def blend(color: str, background: str, amount: float) -> str:
    """``color`` mixed with ``background``: 0 keeps the colour, 1 gives the background."""
    front, back = parse_hex(color), parse_hex(background)
    return to_hex(*((f + (b - f) * amount) / 255 for f, b in zip(front, back, strict=True)))


@lru_cache(maxsize=512)
def ensure_contrast(color: str, background: str, minimum: float = TEXT_CONTRAST) -> str:
    """``color``, made lighter or darker (same hue and saturation) until it reaches ``minimum``
    against ``background``. A colour that already passes is returned unchanged.
    """
    if contrast(color, background) >= minimum:
        return color.lower()
    red, green, blue = (channel / 255 for channel in parse_hex(color))
    hue, lightness, saturation = colorsys.rgb_to_hls(red, green, blue)
    # Move away from the background: darker on a light one, lighter on a dark one.
    lighten = luminance(parse_hex(background)) < 0.18
    low, high = (lightness, 1.0) if lighten else (0.0, lightness)
    best = "#ffffff" if lighten else "#000000"
    for _ in range(24):
        middle = (low + high) / 2
        candidate = to_hex(*colorsys.hls_to_rgb(hue, middle, saturation))
        if contrast(candidate, background) >= minimum:
            best = candidate
            if lighten:
                high = middle
            else:
                low = middle
        elif lighten:
            low = middle
        else:
            high = middle
    return best
