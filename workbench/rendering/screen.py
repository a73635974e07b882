"""Read what a headless Textual app shows, as plain text, and wait for it to settle."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.strip import Strip


def screen_strips(app: App[Any]) -> list[Strip]:
    # The compositor's strips are exactly what export_screenshot() draws; there is no public
    # accessor for them in Textual 8.2.
    return app.screen._compositor.render_strips()


def screen_text(app: App[Any]) -> str:
    """Every row of the screen as text, trailing spaces removed."""
    return "\n".join(strip.text.rstrip() for strip in screen_strips(app)).rstrip("\n") + "\n"


async def settle(
    pilot: Pilot[Any], *, quiet: int = 2, tick: float = 0.005, max_ticks: int = 400
) -> None:
    """Wait until the screen stops changing for ``quiet`` consecutive ticks."""
    await pilot.pause(0)
    previous = screen_strips(pilot.app)
    same = 0
    for _ in range(max_ticks):
        await pilot.pause(tick)
        current = screen_strips(pilot.app)
        same = same + 1 if current == previous else 0
        if same >= quiet:
            return
        previous = current
    raise TimeoutError("the screen never settled")
