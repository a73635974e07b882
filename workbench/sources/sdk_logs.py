"""The SDK's client loggers, summed up: one line per record, counts instead of floods."""

from __future__ import annotations

import logging
from collections import Counter

SDK_LOGGERS = (
    "mcp.client.stdio",
    "mcp.client.streamable_http",
    "mcp.client.client",
    "mcp.shared.jsonrpc_dispatcher",
    "client",  # The SDK's session logs under this bare name.
)
REPEATS_SHOWN = 3


class SummarizeSdkLogs(logging.Filter):
    """One line per SDK log record, and a count instead of the same line over and over.

    The SDK logs a full traceback for every unparseable line or body, each quoting what the
    server sent: 20,000 garbage lines made 17.9 MB of stderr. Here a record keeps its message
    and the exception's type and first line; after :data:`REPEATS_SHOWN` of one kind, only
    every tenfold count is let through, saying how many there were.
    """

    def __init__(self) -> None:
        super().__init__()
        self.seen: Counter[tuple[str, str]] = Counter()

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg)[:80])
        self.seen[key] += 1
        count = self.seen[key]
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            first = (str(error).splitlines() or [""])[0][:200]
            record.msg = f"{record.getMessage()} ({type(error).__name__}: {first})"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        if count <= REPEATS_SHOWN:
            return True
        if count >= 10 and count % 10 ** (len(str(count)) - 1) == 0:  # 10, 20 .. 100, 200 ..
            record.msg = f"{record.getMessage()} [seen {count:,} times]"
            record.args = None
            return True
        return False


_sdk_filter = SummarizeSdkLogs()


def summarize_sdk_logs() -> None:
    """Put :class:`SummarizeSdkLogs` on the SDK's client loggers (once)."""
    for name in SDK_LOGGERS:
        logger = logging.getLogger(name)
        if _sdk_filter not in logger.filters:
            logger.addFilter(_sdk_filter)
