"""The result contract and the one funnel that builds every result.

A result has three audiences: ``content`` is what a model reads (never empty), ``state`` is
the structured, result-domain object the UI reads (kept on failure too), and ``error`` carries
a stable ``type`` code both can branch on.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

DEFAULT_FAILURE_CONTENT = "Tool execution failed"
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _whole_characters(value: object) -> object:
    """Lone surrogates as U+FFFD: a Python string may hold them, pydantic and UTF-8 cannot."""
    return _LONE_SURROGATE.sub("\ufffd", value) if isinstance(value, str) else value


class ErrorType:
    """Stable error codes produced by Workbench itself (tools add their own)."""

    TOOL_FAILED = "ToolExecutionFailed"
    TOOL_CRASHED = "ToolCrashed"
    API_NOT_FOUND = "ApiNotFound"
    TOOL_NOT_FOUND = "ToolNotFound"
    TIMEOUT = "Timeout"
    CANCELLED = "Cancelled"
    BLOCKED = "BlockedByPolicy"
    SKIPPED = "SkippedByUser"
    CONNECTION_CLOSED = "ConnectionClosed"
    PROTOCOL_ERROR = "ProtocolError"
    """The server did not run the tool: it answered with a JSON-RPC error, or unusably."""
    TOOL_REPORTED = "McpToolError"
    """The tool ran and said it failed (an MCP result with ``isError``)."""
    MISMATCHED_ID = "MismatchedResponseId"
    """A server answered with an id no request had: the call it was meant for cannot trust it."""
    SOURCE_UNAVAILABLE = "SourceUnavailable"
    HTTP_ERROR = "HttpError"
    REQUEST_REFUSED = "RequestRefused"
    LIMIT_EXCEEDED = "LimitExceeded"
    """Something the source sent passed a size cap (see :mod:`workbench.core.limits`)."""
    INPUT_LIMIT = "InputRequestLimit"
    """A server asked the user for input more often in one call than the workbench allows."""


class ToolError(BaseModel):
    """A failure both the model and the UI can read; ``type`` is a stable code."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    type: str = Field(min_length=1)
    message: str
    body: Any = None

    _whole_message = field_validator("message", mode="before")(_whole_characters)


class ToolResult(BaseModel):
    """What every call ends in: exactly one of these."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    success: bool
    content: str = Field(min_length=1)
    state: Any = None
    error: ToolError | None = None

    _whole_content = field_validator("content", mode="before")(_whole_characters)


def _as_error(error: object, error_type: str) -> ToolError:
    if isinstance(error, ToolError):
        return error
    if isinstance(error, dict):
        message = error.get("message")
        return ToolError(
            type=str(error.get("type") or error_type),
            message=str(message) if message is not None else "",
            body=error.get("body"),
        )
    if isinstance(error, BaseException):
        message = str(error) or type(error).__name__
        return ToolError(type=error_type, message=message, body={"exception": type(error).__name__})
    return ToolError(type=error_type, message=str(error))


def to_result(
    *,
    success: bool,
    content: str | None = None,
    state: Any = None,
    error: object = None,
    error_type: str = ErrorType.TOOL_FAILED,
) -> ToolResult:
    """Build a :class:`ToolResult`, enforcing the contract.

    ``content`` falls back to the error message, then to a fixed text, so it is never empty.
    ``state`` is kept on failure so a Render can still show partial output. ``error`` may be
    a :class:`ToolError`, a dict, an exception or a string; a failure without one gets a
    generic error of ``error_type``.
    """
    if success:
        return ToolResult(success=True, content=content or "(no content)", state=state)
    tool_error = _as_error(error, error_type) if error is not None else None
    message = tool_error.message if tool_error and tool_error.message else None
    safe_content = content or message or DEFAULT_FAILURE_CONTENT
    if tool_error is None:
        tool_error = ToolError(type=error_type, message=safe_content)
    elif not tool_error.message:
        tool_error = tool_error.model_copy(update={"message": safe_content})
    return ToolResult(success=False, content=safe_content, state=state, error=tool_error)


def listing(heading: str, lines: Sequence[str], total: int) -> str:
    """A result's text for a list the model reads cut: ``heading:``, a line per item shown, and
    ``… N more (showing n of total)`` when ``total`` is more than those."""
    more = (
        f"\n… {total - len(lines)} more (showing {len(lines)} of {total})"
        if total > len(lines)
        else ""
    )
    return f"{heading}:\n" + "\n".join(lines) + more


def failure(error_type: str, message: str, *, state: Any = None, body: Any = None) -> ToolResult:
    """Shorthand for a failed result with a stable ``error_type``."""
    return to_result(
        success=False,
        state=state,
        error=ToolError(type=error_type, message=message, body=body),
    )
