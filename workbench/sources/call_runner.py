"""Run one live call and report it as the same event stream a fixture replay produces.

Whatever happens — a result, a crash, a timeout, a cancel, a closed connection — the call
ends in exactly one terminal event carrying a result with a stable error type.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from workbench.core import events as ev
from workbench.core.interventions import (
    ElicitationRequest,
    InputAnswer,
    InputRequest,
    default_answer,
)
from workbench.core.manifest import ToolManifest
from workbench.core.partial_args import LIVE_ARGS_STREAMING
from workbench.core.result import ErrorType, ToolResult, failure, to_result
from workbench.core.runtime import CallContext, ToolTimedOut
from workbench.policy.verdict import ApprovalCheck, ApprovalGate
from workbench.sources.base import ToolSource

EventSink = Callable[[ev.CallEvent], object]
InputGate = Callable[[InputRequest], Awaitable[InputAnswer]]
"""Whoever answers a server's mid-call request: a person in the TUI, an answers file."""

CANCEL_GRACE_S = 2.0
"""How long a cancelled or timed-out invocation may take to wind down, after its result."""
MAX_INPUT_REQUESTS = 20
"""Elicitation and sampling requests one call may make. A server that asks in a loop gets
its 21st request cancelled and the call ends with an ``InputRequestLimit`` failure."""


class LiveCall:
    """One call to a live source, observable through ``on_event``."""

    def __init__(
        self,
        source: ToolSource,
        manifest: ToolManifest | None,
        tool: str,
        api: str,
        args: dict[str, Any],
        *,
        on_event: EventSink,
        timeout_ms: int,
        approval: ApprovalCheck | None = None,
        approval_gate: ApprovalGate | None = None,
        workspace: Path | None = None,
        args_chunk_delay_s: float = 0.0,
        extend_on_progress_max_ms: int | None = None,
        input_gate: InputGate | None = None,
        max_input_requests: int = MAX_INPUT_REQUESTS,
    ) -> None:
        self.source = source
        self.manifest = manifest
        self.tool = tool
        self.api = api
        self.args = dict(args)
        self.on_event = on_event
        self.timeout_ms = timeout_ms
        self.extend_on_progress_max_ms = extend_on_progress_max_ms
        """When set, progress restarts the ``timeout_ms`` window, up to this much in all."""
        self.approval = approval
        self.approval_gate = approval_gate
        self.workspace = workspace or Path.cwd()
        self.args_chunk_delay_s = args_chunk_delay_s
        self.input_gate = input_gate
        self.max_input_requests = max_input_requests
        self.result: ToolResult | None = None
        self._started_at = time.monotonic()
        self._cancel = asyncio.Event()
        self._cancel_reason = ""
        self._output_lines = 0
        self._last_progress: str | None = None
        self._progress_at: float | None = None
        self._asked: Counter[str] = Counter()
        self._waiting_on_user = 0
        """Requests open now: while any is, the deadline does not run."""
        self._paused_s = 0.0
        self._paused_at: float | None = None
        self._resumed = asyncio.Event()
        self._abort: ToolResult | None = None
        self._aborted = asyncio.Event()

    def _now_ms(self) -> int:
        return int((time.monotonic() - self._started_at) * 1000)

    def _emit(self, event: ev.CallEvent) -> None:
        self.on_event(event)

    def cancel(self, reason: str = "cancelled by the user") -> None:
        """Ask the call to stop; it ends with a ``Cancelled`` result."""
        self._cancel_reason = reason
        self._cancel.set()

    def _finish(self, terminal: ev.Terminal) -> ToolResult:
        if self.result is None:
            self.result = terminal.result
            self._emit(terminal)
        return self.result

    def _pending(self) -> str:
        if self._output_lines:
            lines = self._output_lines
            return (
                f"the tool was still running after {lines} output line{'' if lines == 1 else 's'}"
            )
        if self._last_progress:
            return f"the tool was still running (last progress: {self._last_progress})"
        return "no result or output had arrived yet"

    async def _stream_args(self) -> None:
        raw = json.dumps(self.args, ensure_ascii=False)
        for piece in LIVE_ARGS_STREAMING.chunks(raw):
            if self._cancel.is_set():
                break
            self._emit(ev.ArgsDelta(piece, at_ms=self._now_ms()))
            if self.args_chunk_delay_s:
                await asyncio.sleep(self.args_chunk_delay_s)
        self._emit(ev.ArgsComplete(args=self.args, raw=raw, at_ms=self._now_ms()))

    async def _ask(self) -> bool:
        """Run the approval step; returns whether to go on."""
        check = self.approval
        if check is None or not check.needed:
            return True
        label = f"{self.tool}.{self.api}"
        if check.blocked:
            message = (
                f"Blocked by policy: {label} needs approval ({check.reason}) and no "
                "one can approve in headless mode."
            )
            self._finish(
                ev.Blocked(
                    failure(
                        ErrorType.BLOCKED,
                        message,
                        state={"type": "blocked", "reason": check.reason, "rule": check.rule},
                    ),
                    at_ms=self._now_ms(),
                )
            )
            return False
        request = ev.ApprovalRequested(
            reason=check.reason, policy=check.policy, rule=check.rule, at_ms=self._now_ms()
        )
        self._emit(request)
        if self.approval_gate is None:
            message = f"{label} needs approval ({check.reason}) but nothing can ask for it."
            self._finish(
                ev.Blocked(
                    failure(ErrorType.BLOCKED, message, state={"type": "blocked"}),
                    at_ms=self._now_ms(),
                )
            )
            return False
        gate = asyncio.ensure_future(self.approval_gate(request))
        cancelled = asyncio.ensure_future(self._cancel.wait())
        try:
            await asyncio.wait({gate, cancelled}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            # Whatever ends the wait (even this task being cancelled), neither helper outlives it.
            cancelled.cancel()
            if not gate.done():
                gate.cancel()
        if gate.cancelled() or not gate.done():
            self._finish(
                ev.Cancelled(
                    failure(
                        ErrorType.CANCELLED,
                        f"Cancelled while waiting for approval: {self._cancel_reason}.",
                    ),
                    at_ms=self._now_ms(),
                )
            )
            return False
        decision = gate.result()
        if decision.action == "approve":
            if decision.args is not None:
                self.args = dict(decision.args)
            self._emit(ev.Approved(args=self.args, at_ms=self._now_ms()))
            return True
        if decision.action == "skip":
            reason = decision.reason or "no reason given"
            self._finish(
                ev.Skipped(
                    failure(
                        ErrorType.SKIPPED,
                        f"The user skipped {label}: {reason}",
                        state={"reason": reason},
                    ),
                    reason=reason,
                    at_ms=self._now_ms(),
                )
            )
            return False
        self._finish(
            ev.Cancelled(
                failure(ErrorType.CANCELLED, f"The user cancelled {label} before it ran."),
                at_ms=self._now_ms(),
            )
        )
        return False

    def _context(self) -> CallContext:
        loop = asyncio.get_running_loop()
        loop_thread = threading.get_ident()

        def on_loop(callback: Any, *args: Any) -> None:
            # Tools may report from worker threads (file APIs run in asyncio.to_thread); the
            # events must reach whoever listens on the loop, in order.
            if threading.get_ident() == loop_thread:
                callback(*args)
            else:
                loop.call_soon_threadsafe(callback, *args)

        def emit_now(text: str, stream: ev.OutputStream, at_ms: int) -> None:
            if self.result is None and text:
                self._output_lines += text.count("\n")
                self._emit(ev.OutputChunk(text, stream, at_ms=at_ms))

        def progress_now(
            value: float | None, total: float | None, message: str | None, at_ms: int
        ) -> None:
            if self.result is None:
                self._progress_at = time.monotonic()
                if message:
                    self._last_progress = message
                elif value is not None:
                    self._last_progress = f"{value:g}/{total:g}" if total else f"{value:g}"
                self._emit(ev.Progress(value, total, message, at_ms=at_ms))

        def emit(text: str, stream: ev.OutputStream) -> None:
            on_loop(emit_now, text, stream, self._now_ms())

        def progress(value: float | None, total: float | None, message: str | None) -> None:
            on_loop(progress_now, value, total, message, self._now_ms())

        def server_event_now(event: ev.ServerEvent, at_ms: int) -> None:
            if self.result is None:
                self._emit(replace(event, at_ms=at_ms))

        def server_event(event: ev.ServerEvent) -> None:
            on_loop(server_event_now, event, self._now_ms())

        return CallContext(
            workspace=self.workspace,
            emit=emit,
            progress=progress,
            timeout_s=self.timeout_ms / 1000,
            ask=self._ask_user,
            server_event=server_event,
        )

    # --- what the server asks mid-call ---------------------------------------------------------

    def _is_paused(self) -> bool:
        """Whether a request is open (a method, so type narrowing does not freeze it)."""
        return self._paused_at is not None

    def _pause(self) -> None:
        self._waiting_on_user += 1
        if self._paused_at is None:
            self._paused_at = time.monotonic()
            self._resumed.clear()

    def _resume(self) -> None:
        self._waiting_on_user -= 1
        if self._waiting_on_user == 0 and self._paused_at is not None:
            self._paused_s += time.monotonic() - self._paused_at
            self._paused_at = None
            self._resumed.set()

    def _stop_for_input_loop(self, key: str) -> InputAnswer:
        count = sum(self._asked.values())
        self._abort = failure(
            ErrorType.INPUT_LIMIT,
            f"{self.tool}.{self.api} asked for input {count} times in one call (the limit is "
            f"{self.max_input_requests}); the workbench cancelled request {key} and stopped "
            "the call.",
            state={"requests": count, "limit": self.max_input_requests},
        )
        self._aborted.set()
        return InputAnswer(
            action="cancel",
            by="workbench",
            note=f"more than {self.max_input_requests} requests in one call",
            key=key,
        )

    async def _ask_user(self, request: InputRequest) -> InputAnswer:
        """Show a server's request as an Intervention and wait for its answer.

        The call's deadline stops while a person reads and answers; a cancel ends the wait.
        """
        self._asked[request.kind] += 1
        key = f"{request.kind}-{self._asked[request.kind]}"
        request = replace(request, key=key)
        if self.result is not None or self._abort is not None:
            return InputAnswer(action="cancel", by="workbench", note="the call has ended", key=key)
        if sum(self._asked.values()) > self.max_input_requests:
            return self._stop_for_input_loop(key)
        elicitation = isinstance(request, ElicitationRequest)
        asked: ev.InputRequested = (
            ev.ElicitationRequested(request, at_ms=self._now_ms())
            if isinstance(request, ElicitationRequest)
            else ev.SamplingRequested(request, at_ms=self._now_ms())
        )
        self._emit(asked)
        if isinstance(request, ElicitationRequest) and request.refused:
            answer = default_answer(request, note=f"refused: {request.refused}", by="workbench")
        elif self.input_gate is None:
            answer = default_answer(request, note="no one can answer here")
        else:
            answer = await self._wait_for_answer(request)
        answer = replace(answer, key=key)
        done: ev.InputAnswered = (
            ev.ElicitationAnswered(answer, at_ms=self._now_ms())
            if elicitation
            else ev.SamplingAnswered(answer, at_ms=self._now_ms())
        )
        if self.result is None:
            self._emit(done)
        return answer

    async def _wait_for_answer(self, request: InputRequest) -> InputAnswer:
        assert self.input_gate is not None
        self._pause()
        gate = asyncio.ensure_future(self.input_gate(request))
        cancelled = asyncio.ensure_future(self._cancel.wait())
        try:
            await asyncio.wait({gate, cancelled}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            cancelled.cancel()
            if not gate.done():
                gate.cancel()
            self._resume()
        if gate.done() and not gate.cancelled() and gate.exception() is None:
            return gate.result()
        if self._cancel.is_set():
            note = "the call was cancelled"
        elif gate.done() and not gate.cancelled() and gate.exception() is not None:
            error = gate.exception()
            note = f"the question could not be shown ({type(error).__name__}: {error})"
        else:
            note = "no answer came"
        return InputAnswer(action="cancel", by="workbench", note=note, key=request.key)

    async def run(self) -> ToolResult:
        """Run the call to its one result (never raises except when this task is cancelled)."""
        try:
            await self._stream_args()
            if self._cancel.is_set():
                return self._finish(
                    ev.Cancelled(
                        failure(
                            ErrorType.CANCELLED, f"Cancelled before it ran: {self._cancel_reason}."
                        ),
                        at_ms=self._now_ms(),
                    )
                )
            if not await self._ask():
                assert self.result is not None
                return self.result
            self._emit(ev.Started(at_ms=self._now_ms()))
            return await self._invoke()
        except asyncio.CancelledError:
            self._finish(
                ev.Cancelled(
                    failure(ErrorType.CANCELLED, f"The call was cancelled: {self._pending()}."),
                    at_ms=self._now_ms(),
                )
            )
            raise
        except Exception as error:  # noqa: BLE001 - every path ends in one result
            return self._finish(
                ev.Failed(
                    to_result(
                        success=False,
                        error=error,
                        error_type=ErrorType.TOOL_CRASHED,
                        content=f"{self.tool}.{self.api} failed: {type(error).__name__}: {error}",
                    ),
                    at_ms=self._now_ms(),
                )
            )
        finally:
            if self.result is None:
                self._finish(
                    ev.Failed(
                        failure(ErrorType.TOOL_FAILED, "The call ended without a result."),
                        at_ms=self._now_ms(),
                    )
                )

    async def _invoke(self) -> ToolResult:
        invocation = asyncio.ensure_future(
            self.source.invoke(self.tool, self.api, self.args, self._context())
        )
        cancelled = asyncio.ensure_future(self._cancel.wait())
        aborted = asyncio.ensure_future(self._aborted.wait())
        timeout_s = self.timeout_ms / 1000
        started = time.monotonic()
        deadline = started + timeout_s
        # A hard limit unless the caller opted in: then progress (a tool that reports is
        # alive) restarts the window, never past its own maximum.
        extend_to = (
            started + self.extend_on_progress_max_ms / 1000
            if self.extend_on_progress_max_ms
            else None
        )
        try:
            while True:
                if self._is_paused():
                    # A person is answering the server: the clock stops until they have.
                    resumed = asyncio.ensure_future(self._resumed.wait())
                    try:
                        done, _ = await asyncio.wait(
                            {invocation, cancelled, aborted, resumed},
                            return_when=asyncio.FIRST_COMPLETED,
                        )
                    finally:
                        resumed.cancel()
                    done.discard(resumed)
                    if done:
                        break
                    continue
                remaining = deadline + self._paused_s - time.monotonic()
                done, _ = await asyncio.wait(
                    {invocation, cancelled, aborted},
                    timeout=max(0.0, remaining),
                    return_when=asyncio.FIRST_COMPLETED,
                )
                if done:
                    break
                if self._is_paused():
                    continue  # A request opened just as the time ran out.
                if extend_to is None or self._progress_at is None:
                    break
                extended = min(extend_to, self._progress_at + timeout_s)
                if extended <= deadline:
                    break
                deadline = extended
        except asyncio.CancelledError:
            invocation.cancel()
            cancelled.cancel()
            aborted.cancel()
            raise
        cancelled.cancel()
        aborted.cancel()
        if self._abort is not None:
            # The source went past the request limit: whatever it returns after is not used.
            stopped = self._finish(ev.Failed(self._abort, at_ms=self._now_ms()))
            invocation.cancel()
            await asyncio.wait({invocation}, timeout=CANCEL_GRACE_S)
            if invocation.done() and not invocation.cancelled():
                invocation.exception()
            return stopped
        if invocation in done:
            try:
                # Sources are typed to return a ToolResult; a misbehaving one is caught below.
                result: object = invocation.result()
            except asyncio.CancelledError:
                return self._finish(
                    ev.Cancelled(
                        failure(
                            ErrorType.CANCELLED,
                            f"{self.tool}.{self.api} was cancelled by its source.",
                        ),
                        at_ms=self._now_ms(),
                    )
                )
            except ToolTimedOut as error:
                return self._finish(
                    ev.TimedOut(
                        failure(
                            ErrorType.TIMEOUT,
                            f"{self.tool}.{self.api} timed out ({error}); {self._pending()}.",
                            state={"timeout_ms": self.timeout_ms, "pending": self._pending()},
                        ),
                        at_ms=self._now_ms(),
                    )
                )
            except Exception as error:  # noqa: BLE001
                return self._finish(
                    ev.Failed(
                        to_result(
                            success=False,
                            error=error,
                            error_type=ErrorType.TOOL_CRASHED,
                            content=f"{self.tool}.{self.api} crashed: {type(error).__name__}: "
                            f"{error}",
                        ),
                        at_ms=self._now_ms(),
                    )
                )
            if not isinstance(result, ToolResult):
                return self._finish(
                    ev.Failed(
                        failure(
                            ErrorType.PROTOCOL_ERROR,
                            f"{self.tool}.{self.api} returned {type(result).__name__}, "
                            "not a result",
                        ),
                        at_ms=self._now_ms(),
                    )
                )
            return self._finish(ev.Completed(result, at_ms=self._now_ms()))
        pending = self._pending()
        elapsed = time.monotonic() - started - self._paused_s
        invocation.cancel()
        if self._cancel.is_set():
            terminal: ev.Terminal = ev.Cancelled(
                failure(
                    ErrorType.CANCELLED,
                    f"{self.tool}.{self.api} was cancelled ({self._cancel_reason}); {pending}.",
                    state={"pending": pending},
                ),
                at_ms=self._now_ms(),
            )
        else:
            limit = f"limit {timeout_s:g} s"
            if self.extend_on_progress_max_ms:
                limit += f", extended by progress up to {self.extend_on_progress_max_ms / 1000:g} s"
            terminal = ev.TimedOut(
                failure(
                    ErrorType.TIMEOUT,
                    f"{self.tool}.{self.api} timed out after {elapsed:.1f} s ({limit}); {pending}.",
                    state={"timeout_ms": self.timeout_ms, "pending": pending},
                ),
                at_ms=self._now_ms(),
            )
        # The result is due now: the deadline is a hard limit. Then the source gets a bounded
        # moment to stop what it started (an MCP call sends notifications/cancelled).
        result = self._finish(terminal)
        await asyncio.wait({invocation}, timeout=CANCEL_GRACE_S)
        if invocation.done() and not invocation.cancelled():
            invocation.exception()  # Retrieved so asyncio does not warn about it.
        return result
