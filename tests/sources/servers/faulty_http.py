"""A raw streamable-HTTP MCP server (an ASGI app, no SDK) whose answers are the faults.

``tools/call`` of ``huge`` answers ``mb`` megabytes of JSON, ``bomb`` a ``gzip, gzip`` body
that inflates to ``mb`` megabytes, ``endless`` a JSON body that never ends, ``sse_big`` one
server-sent event of ``mb`` megabytes, ``deep`` a result nested ``depth`` levels, ``echo``
its text. ``wrong_id``, ``server_error`` and ``surrogate`` answer with another id, an error
``code``, a lone surrogate: as a JSON body, or as one event when ``sse`` is true. Run it alone
with ``uvicorn tests.sources.servers.faulty_http:app``. ``/mcp?many=N`` lists N more tools.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs

from tests.net.bombs import gzip_gzip_bomb

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
SCHEMA = {"type": "object", "properties": {}, "additionalProperties": True}
TOOLS = ["echo", "huge", "bomb", "endless", "sse_big", "deep"]
TOOLS += ["wrong_id", "server_error", "surrogate"]


def _result(rid: Any, text: str, **extra: Any) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": rid,
        "result": {"content": [{"type": "text", "text": text}], "isError": False, **extra},
    }


async def _huge(rid: Any, megabytes: float) -> AsyncIterator[bytes]:
    head = json.dumps(_result(rid, "@@")).encode()
    before, after = head.split(b"@@")
    yield before
    chunk = b"x" * (1 << 20)
    for _ in range(int(megabytes)):
        yield chunk
    yield after


async def _endless(rid: Any) -> AsyncIterator[bytes]:
    yield b'{"jsonrpc": "2.0", "id": ' + json.dumps(rid).encode() + b', "result": {"content": "'
    chunk = b"y" * (1 << 20)
    while True:
        yield chunk


async def _respond(
    send: Send,
    body: bytes | AsyncIterator[bytes],
    *,
    receive: Receive | None = None,
    content_type: str = "application/json",
    headers: list[tuple[bytes, bytes]] = (),  # type: ignore[assignment]
    status: int = 200,
) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", content_type.encode()), *headers],
        }
    )
    if isinstance(body, bytes):
        await send({"type": "http.response.body", "body": body})
        return
    gone = asyncio.Event()

    async def watch() -> None:
        # A client that stops reading hangs up: stop writing, or an endless body spins forever.
        while receive is not None and (await receive())["type"] != "http.disconnect":
            pass
        gone.set()

    watcher = asyncio.create_task(watch())
    try:
        async for chunk in body:
            if gone.is_set():
                return
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await asyncio.sleep(0)
        await send({"type": "http.response.body", "body": b""})
    finally:
        watcher.cancel()


def _protocol_fault(rid: Any, name: str, args: dict[str, Any]) -> dict[str, Any] | None:
    if name == "wrong_id":
        return _result(args.get("id", 1_000_000), "wrong")
    if name == "server_error":
        code, message = int(args.get("code", -32000)), str(args.get("message", "boom"))
        error = {"code": code, "message": message, "data": {"why": "the server's"}}
        return {"jsonrpc": "2.0", "id": rid, "error": error}
    if name == "surrogate":
        return _result(rid, "before \ud800 after")
    return None


async def app(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["method"] != "POST":
        await _respond(send, b"", status=405 if scope["method"] == "GET" else 200)
        return
    raw = b""
    while True:
        message = await receive()
        raw += message.get("body", b"")
        if not message.get("more_body"):
            break
    request = json.loads(raw)
    rid, method = request.get("id"), request.get("method")
    params = request.get("params") or {}
    if rid is None:
        await _respond(send, b"", status=202)
        return
    session = [(b"mcp-session-id", b"faulty-1")]
    if method == "initialize":
        answer = {
            "jsonrpc": "2.0",
            "id": rid,
            "result": {
                "protocolVersion": params.get("protocolVersion", "2025-11-25"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "faulty-http", "version": "1"},
            },
        }
        await _respond(send, json.dumps(answer).encode(), headers=session)
        return
    if method == "tools/list":
        tools = [{"name": name, "inputSchema": SCHEMA} for name in TOOLS]
        many = int(parse_qs(scope["query_string"].decode()).get("many", ["0"])[0])
        tools += [{"name": f"many_{index}", "inputSchema": SCHEMA} for index in range(many)]
        answer = {"jsonrpc": "2.0", "id": rid, "result": {"tools": tools}}
        await _respond(send, json.dumps(answer).encode(), headers=session)
        return
    if method != "tools/call":
        error = {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "unknown"}}
        await _respond(send, json.dumps(error).encode(), headers=session)
        return
    name = params.get("name")
    args = params.get("arguments") or {}
    megabytes = float(args.get("mb", 200))
    protocol = _protocol_fault(rid, str(name), args)
    if protocol is not None:
        if args.get("sse"):
            event = f"event: message\r\nid: 1\r\ndata: {json.dumps(protocol)}\r\n\r\n".encode()
            await _respond(send, event, content_type="text/event-stream", headers=session)
        else:
            await _respond(send, json.dumps(protocol).encode(), headers=session)
    elif name == "huge":
        await _respond(send, _huge(rid, megabytes), receive=receive, headers=session)
    elif name == "bomb":
        encoded = [(b"content-encoding", b"gzip, gzip"), *session]
        await _respond(send, gzip_gzip_bomb(int(megabytes)), headers=encoded)
    elif name == "endless":
        await _respond(send, _endless(rid), receive=receive, headers=session)
    elif name == "sse_big":
        data = json.dumps(_result(rid, "z" * int(megabytes * (1 << 20))))
        event = f"event: message\ndata: {data}\n\n".encode()
        await _respond(send, event, content_type="text/event-stream", headers=session)
    elif name == "deep":
        value: Any = "bottom"
        for _ in range(int(args.get("depth", 150))):
            value = {"d": value}
        answer = _result(rid, "deep", structuredContent=value)
        await _respond(send, json.dumps(answer).encode(), headers=session)
    else:
        await _respond(send, json.dumps(_result(rid, str(args.get("text", "echo")))).encode())
