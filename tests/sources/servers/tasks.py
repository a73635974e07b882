"""A raw stdio MCP server (no SDK) with task-augmented tools, as the 2025-11-25 spec has them.

python tasks.py [--log FILE]

``research`` runs only as a task (``taskSupport: required``): it takes ``steps`` (each
``step_s`` long), reports each as the task's ``statusMessage`` and as progress on the call's
progress token, and ends ``completed`` with a text result (or ``failed`` with ``fail``);
``bad_task`` answers with an unusable task. ``lookup`` may run either way (``optional``).
Every request received is appended to ``--log`` (one method per line, with its task id or
tool name) so a test can see what the client sent. Written against the wire format, so
nothing smooths it over.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from typing import Any

parser = argparse.ArgumentParser()
parser.add_argument("--log", default=None, help="append each request's method to this file")
options = parser.parse_args()

SCHEMA = {"type": "object", "properties": {}, "additionalProperties": True}
POLL_MS = 50
TOOLS = [
    {
        "name": "research",
        "description": "A slow research query that runs as a task.",
        "inputSchema": SCHEMA,
        "execution": {"taskSupport": "required"},
    },
    {
        "name": "lookup",
        "description": "A quick lookup that may run as a task.",
        "inputSchema": SCHEMA,
        "execution": {"taskSupport": "optional"},
    },
]
TERMINAL = ("completed", "failed", "cancelled")
lock = threading.Lock()
tasks: dict[str, dict[str, Any]] = {}
results: dict[str, dict[str, Any]] = {}
finished: dict[str, threading.Event] = {}


def send(message: dict[str, Any]) -> None:
    with lock:
        sys.stdout.buffer.write(json.dumps(message).encode() + b"\n")
        sys.stdout.buffer.flush()


def log(line: str) -> None:
    if options.log:
        with open(options.log, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")


def text_result(text: str, *, error: bool = False) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": error}


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def set_status(task_id: str, status: str, message: str | None = None) -> None:
    with lock:
        task = tasks[task_id]
        if task["status"] in TERMINAL:
            return
        task.update(status=status, lastUpdatedAt=now())
        if message is not None:
            task["statusMessage"] = message
    if status in TERMINAL:
        finished[task_id].set()


def run(task_id: str, arguments: dict[str, Any], token: Any) -> None:
    steps = int(arguments.get("steps", 3))
    for step in range(1, steps + 1):
        time.sleep(float(arguments.get("step_s", 0.05)))
        if tasks[task_id]["status"] == "cancelled":
            return
        set_status(task_id, "working", f"step {step} of {steps}")
        if token is not None:
            params = {"progressToken": token, "progress": step, "total": steps}
            send({"jsonrpc": "2.0", "method": "notifications/progress", "params": params})
    if arguments.get("fail"):
        results[task_id] = text_result("the research failed", error=True)
        set_status(task_id, "failed", "the research failed")
    else:
        results[task_id] = text_result(f"found {steps} sources about {arguments.get('topic')}")
        set_status(task_id, "completed")


def call(rid: Any, params: dict[str, Any]) -> None:
    name, arguments = params.get("name"), params.get("arguments") or {}
    if "task" not in params:
        if name == "research":
            error = {"code": -32601, "message": "research requires task augmentation"}
            send({"jsonrpc": "2.0", "id": rid, "error": error})
        else:
            send({"jsonrpc": "2.0", "id": rid, "result": text_result(f"{name}: found it")})
        return
    if arguments.get("bad_task"):
        # A CreateTaskResult whose task has no status and a numeric id.
        send({"jsonrpc": "2.0", "id": rid, "result": {"task": {"taskId": 5}}})
        return
    task_id = f"task-{len(tasks) + 1}"
    task = {
        "taskId": task_id,
        "status": "working",
        "createdAt": now(),
        "lastUpdatedAt": now(),
        "ttl": (params.get("task") or {}).get("ttl"),
        "pollInterval": POLL_MS,
    }
    tasks[task_id] = task
    finished[task_id] = threading.Event()
    send({"jsonrpc": "2.0", "id": rid, "result": {"task": dict(task)}})
    token = (params.get("_meta") or {}).get("progressToken")
    threading.Thread(target=run, args=(task_id, arguments, token), daemon=True).start()


def answer_result(rid: Any, task_id: str) -> None:
    finished[task_id].wait()
    if tasks[task_id]["status"] == "cancelled":
        error = {"code": -32602, "message": f"task {task_id} was cancelled"}
        send({"jsonrpc": "2.0", "id": rid, "error": error})
    else:
        send({"jsonrpc": "2.0", "id": rid, "result": results[task_id]})


def main() -> None:
    for raw in sys.stdin.buffer:
        try:
            message = json.loads(raw)
        except ValueError:
            continue
        method, rid = message.get("method"), message.get("id")
        params = message.get("params") or {}
        if rid is None:
            continue  # notifications: initialized, cancelled
        task_id = params.get("taskId")
        log(f"{method} {task_id or params.get('name') or ''}".rstrip())
        if method == "initialize":
            capabilities = {
                "tools": {},
                "tasks": {"cancel": {}, "requests": {"tools": {"call": {}}}},
            }
            result = {
                "protocolVersion": "2025-11-25",
                "capabilities": capabilities,
                "serverInfo": {"name": "tasks", "version": "1"},
            }
            send({"jsonrpc": "2.0", "id": rid, "result": result})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": rid, "result": {"tools": TOOLS}})
        elif method == "tools/call":
            call(rid, params)
        elif method in ("tasks/get", "tasks/result", "tasks/cancel") and task_id not in tasks:
            error = {"code": -32602, "message": f"no task {task_id}"}
            send({"jsonrpc": "2.0", "id": rid, "error": error})
        elif method == "tasks/get":
            with lock:
                current = dict(tasks[task_id])
            send({"jsonrpc": "2.0", "id": rid, "result": current})
        elif method == "tasks/result":
            threading.Thread(target=answer_result, args=(rid, task_id), daemon=True).start()
        elif method == "tasks/cancel":
            set_status(task_id, "cancelled", "cancelled by the client")
            send({"jsonrpc": "2.0", "id": rid, "result": dict(tasks[task_id])})
        elif method == "ping":
            send({"jsonrpc": "2.0", "id": rid, "result": {}})
        else:
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "unknown"}})


if __name__ == "__main__":
    main()
