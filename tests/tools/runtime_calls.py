"""Helpers for tests that invoke tool runtimes: a capturing CallContext and the error a result
carries."""

from __future__ import annotations

import asyncio
from pathlib import Path

from workbench.core.result import ToolResult
from workbench.core.runtime import CallContext


class Capture:
    """Output and progress a call reports through its CallContext."""

    def __init__(self) -> None:
        self.chunks: list[tuple[str, str]] = []
        self.progress: list[tuple[float | None, float | None, str | None]] = []
        self.first_output = asyncio.Event()

    def emit(self, text: str, stream: str) -> None:
        self.chunks.append((text, stream))
        self.first_output.set()

    def report(self, progress: float | None, total: float | None, message: str | None) -> None:
        self.progress.append((progress, total, message))

    def context(self, workspace: Path, timeout_s: float | None = 10.0) -> CallContext:
        return CallContext(
            workspace=workspace, emit=self.emit, progress=self.report, timeout_s=timeout_s
        )  # type: ignore[arg-type]

    def text(self, stream: str) -> str:
        return "".join(text for text, name in self.chunks if name == stream)


def error_type(result: ToolResult) -> str:
    """The error type of a result that must have failed."""
    assert not result.success, result.content
    assert result.error is not None
    return result.error.type
