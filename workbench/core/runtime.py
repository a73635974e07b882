"""The contract between a tool's runtime and whoever runs it.

A runtime is a plain Python object whose services are injected through its constructor. Its
async methods are named after the APIs; each takes the args and a :class:`CallContext` and
returns a :class:`~workbench.core.result.ToolResult` built by the result funnel.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core.events import OutputStream, ServerEvent
from workbench.core.interventions import InputAnswer, InputRequest, default_answer
from workbench.core.limits import Limits
from workbench.core.result import ErrorType, ToolResult, failure, to_result


class ToolTimedOut(Exception):
    """A source gave up waiting for the tool (e.g. the MCP SDK's request timeout)."""


OutputSink = Callable[[str, OutputStream], None]
ProgressSink = Callable[[float | None, float | None, str | None], None]
InputAsker = Callable[[InputRequest], Awaitable[InputAnswer]]
"""Ask the user what a server asks mid-call; returns the answer (never raises for a "no")."""
ServerEventSink = Callable[[ServerEvent], None]


def _drop_output(text: str, stream: OutputStream) -> None:
    del text, stream


def _drop_progress(progress: float | None, total: float | None, message: str | None) -> None:
    del progress, total, message


async def _decline(request: InputRequest) -> InputAnswer:
    return default_answer(request, note="nothing can ask the user here")


def _drop_server_event(event: ServerEvent) -> None:
    del event


@dataclass
class CallContext:
    """What a running call may use besides its args: output sinks and the workspace."""

    workspace: Path = field(default_factory=Path.cwd)
    emit: OutputSink = _drop_output
    progress: ProgressSink = _drop_progress
    timeout_s: float | None = None
    ask: InputAsker = _decline
    """Ask the user for input or a sampling approval (elicitation/sampling mid-call)."""
    server_event: ServerEventSink = _drop_server_event
    """Report a server's log line or notification as part of this call."""

    def stdout(self, text: str) -> None:
        self.emit(text, "stdout")

    def stderr(self, text: str) -> None:
        self.emit(text, "stderr")


ApiMethod = Callable[[dict[str, Any], CallContext], Awaitable[ToolResult]]


class BaseRuntime:
    """Dispatches ``invoke(api, args, ctx)`` to the async method named ``api``.

    Every return goes through the result funnel; an exception in a method becomes a failed
    result of type ``ToolCrashed`` instead of escaping.
    """

    api_names: tuple[str, ...] = ()
    """The APIs this runtime serves; must match the manifest."""

    def has_api(self, api: str) -> bool:
        return api in self.api_names and callable(getattr(self, api, None))

    async def invoke(
        self, api: str, args: dict[str, Any], ctx: CallContext | None = None
    ) -> ToolResult:
        if not self.has_api(api):
            return failure(
                ErrorType.API_NOT_FOUND,
                f"no API named {api!r} (available: {', '.join(self.api_names)})",
            )
        method: ApiMethod = getattr(self, api)
        try:
            # Typed as the contract says, checked as a tool may actually behave.
            result: object = method(args, ctx or CallContext())
            if inspect.isawaitable(result):
                result = await result
        except (Exception, SystemExit) as error:  # noqa: BLE001 - a tool bug (even sys.exit) must become a result
            return to_result(
                success=False,
                error=error,
                error_type=ErrorType.TOOL_CRASHED,
                content=f"{api} crashed: {type(error).__name__}: {error}",
            )
        if not isinstance(result, ToolResult):
            return failure(
                ErrorType.PROTOCOL_ERROR,
                f"{api} returned {type(result).__name__}, not a ToolResult",
            )
        return result


@dataclass(frozen=True)
class RuntimeServices:
    """Services a runtime may be built with; tests pass in-memory or temporary ones."""

    workspace: Path = field(default_factory=Path.cwd)
    offline: bool = True
    """Use bundled data instead of the network where a tool can (the demo default)."""
    settings: dict[str, str] = field(default_factory=dict)
    limits: Limits = field(default_factory=Limits)
    """The size caps (``[tool.workbench.limits]``) a runtime applies to what it downloads."""

    @classmethod
    def from_environment(
        cls,
        workspace: Path | None = None,
        environ: Mapping[str, str] | None = None,
        *,
        limits: Limits | None = None,
        variables: Mapping[str, str] | None = None,
    ) -> RuntimeServices:
        """Settings from the environment variables the tools read: ``variables`` maps each
        name to its settings key (each tool package declares its own, as
        ``ToolPackage.environment``); an unset or empty variable is no setting."""
        env = os.environ if environ is None else environ
        names = variables or {}
        settings = {key: env[name] for name, key in names.items() if env.get(name)}
        return cls(workspace=workspace or Path.cwd(), settings=settings, limits=limits or Limits())
