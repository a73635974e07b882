"""Everything an MCP server says to the client besides tool results: the SDK's callbacks.

A server may ask the user for input (elicitation), ask the client's model for a completion
(sampling), ask for the client's roots, log, and announce that its lists or resources
changed. :class:`McpConversation` answers those for one connection:

- A request is attributed to the call in flight on this server (the SDK gives no link from a
  server->client request to the ``tools/call`` that caused it; with one call at a time per
  server this is exact, with several the most recent one is asked). It becomes an
  Intervention through the call's :class:`~workbench.core.runtime.CallContext`: the call
  runner shows it, stops the deadline and waits for the answer. Outside a call a request is
  declined and logged.
- No model is ever called: a sampling reply is what a person (or an answers file) wrote.
- Log lines and notifications go to the server log (bounded, cleaned) and to the call in
  flight. Callbacks only append and count: a flood must not pile up work per message.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

import mcp_types as types
from mcp.client.session import ClientRequestContext

from workbench.core import events as ev
from workbench.core.interventions import (
    ElicitationRequest,
    InputAnswer,
    clipped_text,
    elicitation_request,
    sampling_request,
)
from workbench.core.runtime import CallContext, ProgressSink
from workbench.sources.server_log import ServerLog

LOG_LINE_CHARS = 2_000
REJECTED_SAMPLING = -1
"""The spec's error code for "User rejected sampling request"."""
ListKind = Literal["tools", "prompts", "resources"]
_LIST_CHANGED: dict[str, ListKind] = {
    "notifications/tools/list_changed": "tools",
    "notifications/prompts/list_changed": "prompts",
    "notifications/resources/list_changed": "resources",
}


def log_text(data: Any) -> str:
    """A log notification's ``data`` as one cleaned, capped line of text."""
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, default=str)
    return clipped_text(text, LOG_LINE_CHARS)


def url_elicitation(params: types.ElicitRequestURLParams, server: str) -> ElicitationRequest:
    """A server's request that the user visit a URL (sent as a request, or as the -32042 error
    a ``tools/call`` fails with), as the Intervention it becomes."""
    return elicitation_request(
        params.message,
        mode="url",
        url=params.url,
        elicitation_id=params.elicitation_id,
        server=server,
    )


class McpConversation:
    """The SDK callbacks of one MCP connection (see the module docstring)."""

    def __init__(
        self, server: str, *, roots: list[Path] | None = None, log: ServerLog | None = None
    ) -> None:
        self.server = server
        self.log = log if log is not None else ServerLog()
        self.roots: list[Path] = roots if roots is not None else []
        """Shared with the source: changing its roots changes what is answered."""
        self.calls: list[CallContext] = []
        self.counts: Counter[str] = Counter()
        """How many of each request and notification the server sent."""
        self.on_list_changed: Callable[[ListKind], None] | None = None
        """Called (cheaply: it should only schedule work) when a list changed."""
        self.task_progress: dict[str | int, ProgressSink] = {}
        """Progress tokens of task-augmented calls, which outlive their ``tools/call``."""

    # --- calls in flight -----------------------------------------------------------------------

    @contextmanager
    def in_call(self, ctx: CallContext) -> Iterator[None]:
        """Attribute what the server says while ``ctx``'s call runs to that call."""
        self.calls.append(ctx)
        try:
            yield
        finally:
            self.calls.remove(ctx)

    def _task_progress(self, params: Any) -> None:
        """Progress on a task's token: its ``tools/call`` was answered, so the SDK drops it."""
        token = getattr(params, "progress_token", None)
        sink = self.task_progress.get(token) if isinstance(token, (str, int)) else None
        progress = getattr(params, "progress", None)
        if sink is None or not isinstance(progress, (int, float)):
            return
        total = getattr(params, "total", None)
        message = getattr(params, "message", None)
        sink(float(progress), total, clipped_text(message, 200) if message else None)

    def _call(self) -> CallContext | None:
        return self.calls[-1] if self.calls else None

    def _tell_calls(self, event: ev.ServerEvent) -> None:
        for ctx in self.calls:
            ctx.server_event(event)

    def notice(self, text: str) -> None:
        """A line of the workbench's own about this server (logged, and told to the call)."""
        self.log.add("notice", text)
        self._tell_calls(ev.ServerNotice(text))

    # --- server -> client requests -------------------------------------------------------------

    async def elicit(
        self, context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult | types.ErrorData:
        del context
        self.counts["elicitation/create"] += 1
        if isinstance(params, types.ElicitRequestURLParams):
            request = url_elicitation(params, self.server)
        else:
            request = elicitation_request(
                params.message, schema=params.requested_schema, server=self.server
            )
        self.log.add("notice", f"elicitation: {request.summary()}")
        ctx = self._call()
        if ctx is None:
            self.log.add("notice", "  declined: no call of this server is running")
            return types.ElicitResult(action="decline")
        answer = await ctx.ask(request)
        self.log.add("notice", f"  {request.key or 'elicitation'}: {answer.summary(request)}")
        return _elicit_result(request, answer)

    async def sample(
        self, context: ClientRequestContext, params: types.CreateMessageRequestParams
    ) -> types.CreateMessageResult | types.ErrorData:
        del context
        self.counts["sampling/createMessage"] += 1
        data = params.model_dump(by_alias=True, mode="json", exclude_none=True)
        request = sampling_request(data, server=self.server)
        del data
        self.log.add("notice", f"sampling: {request.summary()}")
        ctx = self._call()
        if ctx is None:
            self.log.add("notice", "  rejected: no call of this server is running")
            return types.ErrorData(code=REJECTED_SAMPLING, message="User rejected sampling request")
        answer = await ctx.ask(request)
        self.log.add("notice", f"  {request.key or 'sampling'}: {answer.summary(request)}")
        if answer.action != "accept":
            reason = f" ({answer.note})" if answer.note else ""
            return types.ErrorData(
                code=REJECTED_SAMPLING, message=f"User rejected sampling request{reason}"
            )
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text=answer.reply or ""),
            model=answer.model or "workbench-user",
            stop_reason="endTurn",
        )

    async def list_roots(self, context: ClientRequestContext) -> types.ListRootsResult:
        del context
        self.counts["roots/list"] += 1
        roots = [types.Root(uri=path.resolve().as_uri(), name=path.name) for path in self.roots]
        names = ", ".join(str(path) for path in self.roots) or "none"
        self.notice(f"the server listed the client's roots: {names}")
        return types.ListRootsResult(roots=roots)

    # --- notifications -------------------------------------------------------------------------

    async def log_message(self, params: types.LoggingMessageNotificationParams) -> None:
        self.counts["notifications/message"] += 1
        text = log_text(params.data)
        logger = clipped_text(params.logger or "", 80)
        self.log.add("log", text, level=str(params.level), logger=logger)
        self._tell_calls(ev.LogMessage(text, level=str(params.level), logger=logger))

    async def message(self, message: Any) -> None:
        """Every server notification (and transport exceptions): count, log, tell the call."""
        if isinstance(message, Exception):
            self.counts["transport errors"] += 1
            return
        method = getattr(message, "method", None)
        if not isinstance(method, str):
            return
        self.counts[method] += 1
        params = getattr(message, "params", None)
        if method == "notifications/progress" and self.task_progress:
            self._task_progress(params)
        if method in ("notifications/message", "notifications/progress"):
            return  # The logging and progress callbacks have them.
        if method in _LIST_CHANGED:
            await self.list_changed_method(method)
        elif method == "notifications/resources/updated":
            await self.updated(str(getattr(params, "uri", "")))
        elif method == "notifications/elicitation/complete":
            ident = clipped_text(str(getattr(params, "elicitation_id", "")), 200)
            self.notice(f"the server says URL elicitation {ident} is complete")
        elif method == "notifications/cancelled":
            reason = getattr(params, "reason", None)
            why = f": {clipped_text(str(reason), 200)}" if reason else ""
            self.notice(f"the server cancelled a request{why}")
        else:
            self.log.add("notice", clipped_text(method, 200))

    async def list_changed_method(self, method: str) -> None:
        """``notifications/{tools,prompts,resources}/list_changed`` (or its listen event)."""
        what = _LIST_CHANGED[method]
        self.log.add("list-changed", f"the {what} list changed")
        self._tell_calls(ev.ListChanged(what))
        if self.on_list_changed is not None:
            self.on_list_changed(what)

    async def updated(self, uri: str) -> None:
        """``notifications/resources/updated`` (or its listen event)."""
        shown = clipped_text(uri, 500)
        self.log.add("resource-updated", f"{shown} was updated")
        self._tell_calls(ev.ResourceUpdated(shown))

    def malformed_request(self, method: str, problem: str) -> None:
        """The server sent a request the SDK refused (-32602) before any callback saw it."""
        self.counts[f"malformed {method}"] += 1
        self.notice(
            f"the server sent a malformed {method} request ({problem}); "
            "it was answered with error -32602 (invalid params)"
        )


def _elicit_result(request: ElicitationRequest, answer: InputAnswer) -> types.ElicitResult:
    if answer.action != "accept":
        return types.ElicitResult(action=answer.action)
    if request.mode == "url":
        return types.ElicitResult(action="accept")
    return types.ElicitResult(action="accept", content=answer.content or {})
