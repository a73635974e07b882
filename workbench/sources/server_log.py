"""One server's log: what it said besides results, kept for the server log panel."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Literal

from workbench.core.interventions import ServerMessage

SERVER_LOG_LINES = 1_000


class ServerLog:
    """What one server said besides results, for the server log panel: the latest lines.

    Bounded (:data:`SERVER_LOG_LINES`, with a total count); ``revision`` grows with every
    line, so a UI can poll it cheaply instead of being called per message.
    """

    def __init__(self, limit: int = SERVER_LOG_LINES, clock: Callable[[], float] = time.monotonic):
        self.lines: deque[ServerMessage] = deque(maxlen=limit)
        self.total = 0
        self.revision = 0
        self._clock = clock
        self._start = clock()

    def now_ms(self) -> int:
        return int((self._clock() - self._start) * 1000)

    def add(
        self,
        kind: Literal["log", "list-changed", "resource-updated", "notice"],
        text: str,
        *,
        level: str = "",
        logger: str = "",
    ) -> None:
        self.lines.append(ServerMessage(self.now_ms(), kind, text, level=level, logger=logger))
        self.total += 1
        self.revision += 1

    @property
    def dropped(self) -> int:
        return self.total - len(self.lines)
