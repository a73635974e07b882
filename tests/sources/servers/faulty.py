"""A raw stdio MCP server (no SDK) that breaks the protocol in every way a test asks for.

python faulty.py [--bad-tools] [--deep-tools N]
                 [--grandchild plain|holds-stdout|ignores-term|setpgid]
                 [--ignore-term] [--close-stdout-at-start] [--pidfile FILE]
                 [--protocol-faults] [--many-tools N] [--initialize-error CODE]
                 [--ask-on-eof]

Each tool is a fault; ``tools/call`` arguments tune it. Written against the wire format, so
nothing between the bytes and the client smooths them over.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from typing import Any

parser = argparse.ArgumentParser()
parser.add_argument("--bad-tools", action="store_true")
parser.add_argument("--deep-tools", type=int, default=0)
parser.add_argument("--grandchild", choices=["plain", "holds-stdout", "ignores-term", "setpgid"])
parser.add_argument("--ignore-term", action="store_true")
parser.add_argument(
    "--close-stdout-at-start",
    action="store_true",
    help="close stdout before the handshake and keep running",
)
parser.add_argument("--pidfile", default=None, help="where the pids of server and grandchild go")
parser.add_argument("--protocol-faults", action="store_true", help="add the PROTOCOL_TOOLS")
parser.add_argument("--many-tools", type=int, default=0, help="list this many more tools")
parser.add_argument("--initialize-error", type=int, help="answer initialize with this error")
parser.add_argument(
    "--ask-on-eof",
    action="store_true",
    help="on stdin EOF, ask the client for its roots and wait for the answer (as a Node SDK "
    "server whose request timer keeps it alive does)",
)
options = parser.parse_args()

out = sys.stdout.buffer
SCHEMA = {"type": "object", "properties": {}, "additionalProperties": True}
TOOLS = [
    "echo",
    "big",
    "bad_utf8",
    "deep",
    "garbage",
    "garbled",
    "broken_json",
    "progress_flood",
    "log_flood",
    "hang",
    "stderr_flood",
    "crash",
    "bad_elicit",
]
PROTOCOL_TOOLS = ["wrong_id", "server_error", "error_without_id", "surrogate"]
"""Answers that are well-formed JSON-RPC but wrong: an id, an error code, a string."""


def send(message: dict[str, Any]) -> None:
    out.write(json.dumps(message).encode() + b"\n")
    out.flush()


def result(rid: Any, text: str, **extra: Any) -> None:
    send(
        {
            "jsonrpc": "2.0",
            "id": rid,
            "result": {"content": [{"type": "text", "text": text}], "isError": False, **extra},
        }
    )


def tool_list() -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = [
        {"name": name, "description": f"fault: {name}", "inputSchema": SCHEMA}
        for name in [*TOOLS, *(PROTOCOL_TOOLS if options.protocol_faults else [])]
    ]
    tools.extend(
        {"name": f"many_{index}", "description": "one of many", "inputSchema": SCHEMA}
        for index in range(options.many_tools)
    )
    if options.bad_tools:
        tools.insert(1, {"name": "no_type", "inputSchema": {"properties": {}}})
        tools.insert(3, {"name": "not_an_object", "inputSchema": "nope"})
        tools.append({"description": "a tool without a name", "inputSchema": SCHEMA})
    if options.deep_tools:
        schema: dict[str, Any] = {"type": "object"}
        for _ in range(options.deep_tools):
            schema = {"type": "object", "properties": {"x": schema}}
        tools.append({"name": "deep_schema", "inputSchema": schema})
    return tools


def protocol_fault(rid: Any, name: str, args: dict[str, Any]) -> None:
    if name == "wrong_id":
        # Answers another id: ``id`` chosen by the test, or one no request had.
        result(args.get("id", 1_000_000 + rid if isinstance(rid, int) else "other"), "wrong")
    elif name == "server_error":
        error = {"code": int(args.get("code", -32000)), "message": args.get("message", "boom")}
        send({"jsonrpc": "2.0", "id": rid, "error": {**error, "data": {"why": "the server's"}}})
    elif name == "error_without_id":
        send({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "unreadable"}})
    elif name == "surrogate":
        # json.dumps spells a lone surrogate as the escape "\ud800": valid JSON text.
        result(rid, "before \ud800 middle \udc00 after", structuredContent={"k\udfff": "v"})


def call(rid: Any, name: str, args: dict[str, Any], meta: dict[str, Any]) -> None:
    if name in PROTOCOL_TOOLS:
        protocol_fault(rid, name, args)
    elif name == "echo":
        result(rid, str(args.get("text", "echo")))
    elif name == "big":
        megabytes = float(args.get("mb", 50))
        line = "x" * 99 + "\n"
        result(rid, line * int(megabytes * 10_000))
    elif name == "bad_utf8":
        body = json.dumps(
            {
                "jsonrpc": "2.0",
                "id": rid,
                "result": {"content": [{"type": "text", "text": "before-XX-after"}]},
            }
        ).encode()
        out.write(body.replace(b"XX", b"\xff\xfe") + b"\n")
        out.flush()
    elif name == "deep":
        # Written as text: json.dumps itself cannot go past ~1,000 levels.
        depth = int(args.get("depth", 300))
        head = json.dumps({"jsonrpc": "2.0", "id": rid, "result": {"content": [], "x": 0}})
        value = '{"d": ' * depth + '"bottom"' + "}" * depth
        out.write(head.replace('"x": 0', f'"structuredContent": {value}').encode() + b"\n")
        out.flush()
    elif name == "garbage":
        for index in range(int(args.get("lines", 2000))):
            out.write(f"not json {index} \x1b[2J\n".encode())
        out.flush()
        result(rid, "after garbage")
    elif name == "garbled":
        out.write(bytes(range(256)).replace(b"\n", b"") * 4 + b"\n")
        out.flush()
    elif name == "broken_json":
        out.write(b'{"jsonrpc": "2.0", "id": ' + json.dumps(rid).encode() + b', "result": {"con\n')
        out.flush()
    elif name in ("progress_flood", "log_flood"):
        count = int(args.get("count", 100_000))
        token = meta.get("progressToken")
        for index in range(count if count else 10**12):
            if name == "progress_flood":
                send(
                    {
                        "jsonrpc": "2.0",
                        "method": "notifications/progress",
                        "params": {"progressToken": token, "progress": index + 1, "total": count},
                    }
                )
            else:
                send(
                    {
                        "jsonrpc": "2.0",
                        "method": "notifications/message",
                        "params": {"level": "info", "data": f"log line {index}"},
                    }
                )
        result(rid, f"sent {count}")
    elif name == "hang":
        if args.get("close_stdout"):
            close_stdout_and_wait()
    elif name == "stderr_flood":
        chunk = b"e" * 1023 + b"\n"
        for _ in range(int(float(args.get("mb", 100)) * 1024)):
            sys.stderr.buffer.write(chunk)
        sys.stderr.flush()
        result(rid, "stderr done")
    elif name == "crash":
        os._exit(3)
    elif name == "bad_elicit":
        # A form whose schema is not an object: the SDK refuses it (-32602) before any callback.
        send(
            {
                "jsonrpc": "2.0",
                "id": "elicit-1",
                "method": "elicitation/create",
                "params": {
                    "mode": "form",
                    "message": "hi",
                    "requestedSchema": {"type": "array", "items": {"type": "object"}},
                },
            }
        )
        answer = sys.stdin.buffer.readline().decode("utf-8", "replace").strip()
        result(rid, f"client answered: {answer}")
    else:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": "no such tool"}})


def close_stdout_and_wait() -> None:
    """Close stdout (every copy this process has) and keep running: no answer ever comes."""
    sys.stdout.flush()
    os.close(1)
    time.sleep(300)


def start_grandchild() -> int | None:
    if options.grandchild is None:
        return None
    code = "import signal, time\n"
    if options.grandchild == "ignores-term":
        code += "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
    code += "time.sleep(300)\n"
    keep = options.grandchild == "holds-stdout"
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=subprocess.DEVNULL,
        stdout=None if keep else subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        # setpgid(0, 0) in the child: a process group of its own (shell job control does this).
        process_group=0 if options.grandchild == "setpgid" else None,
    )
    return child.pid


def main() -> None:
    if options.ignore_term:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    grandchild = start_grandchild()
    if options.pidfile:
        with open(options.pidfile, "w") as handle:
            handle.write(f"{os.getpid()} {grandchild or ''}\n")
    if options.close_stdout_at_start:
        close_stdout_and_wait()
    for raw in sys.stdin.buffer:
        try:
            message = json.loads(raw)
        except ValueError:
            continue
        method, rid = message.get("method"), message.get("id")
        params = message.get("params") or {}
        if rid is None:
            continue  # notifications: initialized, cancelled
        if method == "initialize" and options.initialize_error is not None:
            error = {"code": options.initialize_error, "message": "not today"}
            send({"jsonrpc": "2.0", "id": rid, "error": error})
        elif method == "initialize":
            send(
                {
                    "jsonrpc": "2.0",
                    "id": rid,
                    "result": {
                        "protocolVersion": params.get("protocolVersion", "2025-11-25"),
                        "capabilities": {"tools": {}},
                        "serverInfo": {"name": "faulty", "version": "1"},
                    },
                }
            )
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": rid, "result": {"tools": tool_list()}})
        elif method == "tools/call":
            call(
                rid,
                params.get("name", ""),
                params.get("arguments") or {},
                params.get("_meta") or {},
            )
        elif method == "ping":
            send({"jsonrpc": "2.0", "id": rid, "result": {}})
        else:
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "unknown"}})
    if options.ask_on_eof:
        send({"jsonrpc": "2.0", "id": "roots-1", "method": "roots/list"})
        time.sleep(300)  # The answer can never come; SIGTERM ends it.
    if options.ignore_term:
        time.sleep(300)  # Deaf to stdin EOF as well: only SIGKILL ends it.


if __name__ == "__main__":
    main()
