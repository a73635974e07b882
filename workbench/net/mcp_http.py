"""The HTTP client handed to the ``mcp`` SDK: every body capped after decompression.

The SDK reads a JSON answer with ``response.aread()``, with no limit: a 200 MB answer costs a
gigabyte and a gzip bomb many more. Its own client is built on ``httpx2`` (never hand it an
``httpx`` object), so this module wraps ``httpx2``'s transport: bodies are inflated in bounded
pieces (:class:`~workbench.net.decoding.BodyDecoder`) and counted against
``max_message_bytes``; an event stream is capped per event instead (the SDK's
``max_sse_event_size``), since it lasts as long as the session.

Both errors here subclass ``httpx2.StreamError``: the SDK turns that into a failed answer for
the one request, where any other exception would tear the whole connection down.

With a :class:`~workbench.net.mcp_wire.WireWatch`, each answer is also read before the SDK
reads it: a JSON body whole (it reads it whole anyway), an event stream event by event.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx2

from workbench.core.limits import LimitExceeded
from workbench.net.decoding import ACCEPT_ENCODING, BodyDecoder, UndecodableBody
from workbench.net.mcp_wire import SseEvents, WireWatch, request_of

OnExceeded = Callable[[LimitExceeded], None]


class MessageTooLarge(httpx2.StreamError):
    """A body passed ``max_message_bytes``; ``exceeded`` says by how much and how to raise it."""

    def __init__(self, exceeded: LimitExceeded) -> None:
        super().__init__(str(exceeded))
        self.exceeded = exceeded


class UnreadableBody(httpx2.StreamError):
    """A body whose encoding cannot be undone (unknown, chained too deep, or corrupt)."""


class _CappedStream(httpx2.AsyncByteStream):
    def __init__(
        self,
        raw: httpx2.AsyncByteStream,
        decoder: BodyDecoder | UndecodableBody,
        cap: int | None,
        on_exceeded: OnExceeded | None,
        *,
        watch: WireWatch | None = None,
        request_id: int | str | None = None,
        method: str | None = None,
        events: SseEvents | None = None,
    ) -> None:
        self._raw = raw
        self._decoder = decoder
        self._cap = cap
        self._on_exceeded = on_exceeded
        self._seen = 0
        self._watch = watch
        self._request_id = request_id
        self._method = method
        self._events = events

    def _count(self, piece: bytes) -> bytes:
        self._seen += len(piece)
        if self._cap is not None and self._seen > self._cap:
            exceeded = LimitExceeded(
                "max_message_bytes",
                self._cap,
                seen=self._seen,
                what="the server's answer",
                per_server=True,
            )
            if self._on_exceeded is not None:
                self._on_exceeded(exceeded)
            raise MessageTooLarge(exceeded)
        return piece

    async def _decoded(self) -> AsyncIterator[bytes]:
        decoder = self._decoder
        if isinstance(decoder, UndecodableBody):
            raise UnreadableBody(str(decoder))
        try:
            async for raw in self._raw:
                for piece in decoder.feed(raw):
                    yield self._count(piece)
            for piece in decoder.flush():
                yield self._count(piece)
        except UndecodableBody as error:
            raise UnreadableBody(str(error)) from None

    async def __aiter__(self) -> AsyncIterator[bytes]:
        watch = self._watch
        if watch is None:
            async for piece in self._decoded():
                yield piece
        elif self._events is not None:
            events = self._events
            async for piece in self._decoded():
                for event, whole in events.feed(piece):
                    yield watch.sse_event(self._request_id, event, self._method) if whole else event
            rest = events.flush()
            if rest:
                yield rest
        else:
            # The SDK reads a JSON answer whole (capped above); it is read whole here first.
            body = b"".join([piece async for piece in self._decoded()])
            yield watch.json_body(self._request_id, body, self._method)

    async def aclose(self) -> None:
        await self._raw.aclose()


class CappedTransport(httpx2.AsyncBaseTransport):
    """Wraps a real ``httpx2`` transport; response bodies come out decoded and capped."""

    def __init__(
        self,
        inner: httpx2.AsyncBaseTransport,
        *,
        max_message_bytes: int,
        on_exceeded: OnExceeded | None = None,
        watch: WireWatch | None = None,
    ) -> None:
        self.inner = inner
        self.max_message_bytes = max_message_bytes
        self.on_exceeded = on_exceeded
        self.watch = watch

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self.inner.handle_async_request(request)
        decoder: BodyDecoder | UndecodableBody
        try:
            decoder = BodyDecoder.from_header_values(response.headers.get_list("content-encoding"))
        except UndecodableBody as error:
            # Raised when the body is read, where the SDK fails only this request.
            decoder = error
        content_type = response.headers.get("content-type", "").lower()
        event_stream = content_type.startswith("text/event-stream")
        cap = None if event_stream else self.max_message_bytes
        watch = self.watch if request.method == "POST" else None
        request_id = method = None
        if watch is not None:
            with contextlib.suppress(httpx2.RequestNotRead):  # A streamed body: not a request.
                request_id, method = request_of(request.content) or (None, None)
        if request_id is None or not (event_stream or content_type.startswith("application/json")):
            watch = None
        # The body is handed on decoded: its encoding and length headers no longer apply.
        headers = [
            (key, value)
            for key, value in response.headers.raw
            if key.lower() not in (b"content-encoding", b"content-length")
        ]
        assert isinstance(response.stream, httpx2.AsyncByteStream)
        return httpx2.Response(
            response.status_code,
            headers=headers,
            stream=_CappedStream(
                response.stream,
                decoder,
                cap,
                self.on_exceeded,
                watch=watch,
                request_id=request_id,
                method=method,
                events=SseEvents(self.max_message_bytes) if event_stream else None,
            ),
            extensions=response.extensions,
            request=request,
        )

    async def aclose(self) -> None:
        await self.inner.aclose()


def capped_client(
    *,
    max_message_bytes: int,
    headers: dict[str, str] | None = None,
    on_exceeded: OnExceeded | None = None,
    event_hooks: dict[str, list[Callable[..., Any]]] | None = None,
    watch: WireWatch | None = None,
    auth: httpx2.Auth | None = None,
) -> httpx2.AsyncClient:
    """An ``httpx2.AsyncClient`` for ``streamable_http_client(url, http_client=...)``;
    ``auth`` is the SDK's OAuth provider when the server needs a sign-in."""
    return httpx2.AsyncClient(
        auth=auth,
        transport=CappedTransport(
            httpx2.AsyncHTTPTransport(),
            max_message_bytes=max_message_bytes,
            on_exceeded=on_exceeded,
            watch=watch,
        ),
        # Ours after theirs: only encodings the capped transport inflates in pieces.
        headers={**(headers or {}), "Accept-Encoding": ACCEPT_ENCODING},
        timeout=httpx2.Timeout(30.0, read=300.0),
        follow_redirects=True,
        event_hooks=event_hooks,
    )
