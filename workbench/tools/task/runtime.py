"""The task runtime: a SQLite store and a command runner, both injected."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from workbench.api import (
    BaseRuntime,
    CallContext,
    OutputStream,
    ToolError,
    ToolResult,
    clean_output,
    to_result,
)
from workbench.tools.local_system.commands import CommandRunner
from workbench.tools.task.store import PRIORITIES, TaskError, TaskStore

CONTENT_TASKS = 50
OUTPUT_TAIL = 40


def _error(error: TaskError, state: Any = None) -> ToolResult:
    return to_result(
        success=False,
        content=error.message,
        state=state,
        error=ToolError(type=error.error_type, message=error.message),
    )


class TaskRuntime(BaseRuntime):
    api_names = ("createTask", "createTasks", "listTasks", "updateTaskStatus", "runTask")

    def __init__(self, store: TaskStore, commands: CommandRunner, workspace: Path) -> None:
        self.store = store
        self.commands = commands
        self.workspace = workspace

    def close(self) -> None:
        self.store.close()

    def _create(self, spec: dict[str, Any]) -> dict[str, Any]:
        try:
            priority = int(spec.get("priority", 0))
        except (TypeError, ValueError):
            raise TaskError(
                "InvalidTask", f"priority must be 0-4, got {spec.get('priority')!r}"
            ) from None
        task = self.store.create(
            str(spec.get("name", "")),
            str(spec.get("instruction", "")),
            priority=priority,
            parent=spec.get("parentIdentifier"),
            command=spec.get("command"),
            depends_on=list(spec.get("dependsOn") or []),
        )
        return task.to_state()

    async def createTask(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        try:
            state = await asyncio.to_thread(self._create, args)
        except TaskError as error:
            return _error(error)
        parent = f" under {state['parent']}" if "parent" in state else ""
        return to_result(
            success=True,
            content=f"Created {state['identifier']}: {state['name']}{parent}.",
            state=state,
        )

    async def createTasks(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        specs = args.get("tasks") or []
        results: list[dict[str, Any]] = []
        for index, spec in enumerate(specs):
            name = str(spec.get("name", f"#{index + 1}"))
            try:
                state = await asyncio.to_thread(self._create, spec)
                results.append({"name": name, "identifier": state["identifier"], "success": True})
            except TaskError as error:
                results.append({"name": name, "success": False, "error": error.message})
            ctx.progress(index + 1, len(specs), f"{index + 1} of {len(specs)} tasks")
        succeeded = sum(1 for item in results if item["success"])
        failed = len(results) - succeeded
        state = {"succeeded": succeeded, "failed": failed, "results": results}
        lines = [
            f"- {item['identifier']}: {item['name']}"
            if item["success"]
            else f"- FAILED {item['name']}: {item['error']}"
            for item in results
        ]
        content = (
            f"Created {succeeded} of {len(results)} tasks"
            + (f"; {failed} failed" if failed else "")
            + ".\n"
            + "\n".join(lines)
        )
        if not succeeded:
            return to_result(
                success=False,
                content=content,
                state=state,
                error=ToolError(
                    type="BatchFailed", message=f"none of the {len(results)} tasks could be created"
                ),
            )
        return to_result(success=True, content=content, state=state)

    async def listTasks(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        try:
            tasks, total = await asyncio.to_thread(
                self.store.list,
                statuses=args.get("status"),
                parent=args.get("parentIdentifier"),
                query=args.get("query"),
                limit=int(args.get("limit", 50)),
            )
        except TaskError as error:
            return _error(error)
        state = {
            "tasks": [task.to_state() for task in tasks],
            "total": total,
            "truncated": total > len(tasks),
        }
        if not tasks:
            return to_result(success=True, content="No tasks match.", state=state)
        lines = [
            f"- {task.identifier} [{task.status}] "
            f"{task.name} (priority: {PRIORITIES[task.priority]})"
            for task in tasks[:CONTENT_TASKS]
        ]
        more = (
            f"\n… {total - len(lines)} more (showing {len(lines)} of {total})"
            if total > len(lines)
            else ""
        )
        return to_result(
            success=True,
            content=f"{total} task{'' if total == 1 else 's'}:\n" + "\n".join(lines) + more,
            state=state,
        )

    async def updateTaskStatus(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        status = str(args.get("status", ""))
        if status == "running":
            error = TaskError("UseRunTask", "updateTaskStatus cannot start a task; use runTask")
            return _error(error)
        try:
            task, previous = await asyncio.to_thread(
                self.store.set_status,
                str(args.get("identifier", "")),
                status,
                error=args.get("error"),
            )
        except TaskError as error:
            return _error(error)
        state = {
            "identifier": task.identifier,
            "name": task.name,
            "previousStatus": previous,
            "status": task.status,
        }
        return to_result(
            success=True,
            content=f"{task.identifier} ({task.name}): {previous} -> {task.status}.",
            state=state,
        )

    async def runTask(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        identifier = str(args.get("identifier", ""))
        try:
            task = await asyncio.to_thread(self.store.get, identifier)
            blocking = [
                dep
                for dep in task.depends_on
                if (await asyncio.to_thread(self.store.get, f"TASK-{dep}")).status != "completed"
            ]
        except TaskError as error:
            return _error(error)
        base = {"identifier": task.identifier, "name": task.name, "previousStatus": task.status}
        if blocking:
            names = ", ".join(f"TASK-{dep}" for dep in blocking)
            message = (
                f"{task.identifier} depends on {names}, "
                f"which {'is' if len(blocking) == 1 else 'are'} "
                "not completed"
            )
            return to_result(
                success=False,
                content=message,
                state={
                    **base,
                    "status": task.status,
                    "blockedBy": [f"TASK-{dep}" for dep in blocking],
                },
                error=ToolError(type="DependenciesNotMet", message=message),
            )
        if task.status == "running":
            return _error(
                TaskError("AlreadyRunning", f"{task.identifier} is already running"),
                {**base, "status": "running"},
            )
        if not task.command:
            await asyncio.to_thread(self.store.set_status, identifier, "completed")
            return to_result(
                success=True,
                content=f"{task.identifier} has no command; marked completed.",
                state={**base, "status": "completed", "exitCode": None},
            )
        await asyncio.to_thread(self.store.set_status, identifier, "running")
        tail: list[str] = []
        partial = {"stdout": "", "stderr": ""}
        counted = [0]

        def on_output(text: str, stream: OutputStream) -> None:
            ctx.emit(text, stream)
            # A chunk may end mid-line: keep the rest until its line is complete.
            pieces = (partial[stream] + text).split("\n")
            partial[stream] = pieces.pop()
            tail.extend(piece.removesuffix("\r") for piece in pieces)
            counted[0] += len(pieces)
            del tail[:-OUTPUT_TAIL]

        try:
            outcome = await self.commands.run(
                task.command, self.workspace, timeout_s=ctx.timeout_s, on_output=on_output
            )
        except asyncio.CancelledError:
            await asyncio.to_thread(
                self.store.set_status, identifier, "cancelled", error="cancelled while running"
            )
            raise
        except Exception as error:
            # Never leave the task marked running: every later runTask would be refused.
            await asyncio.to_thread(
                self.store.set_status, identifier, "failed", error=f"could not run: {error}"
            )
            raise
        leftovers = [rest for rest in partial.values() if rest]
        tail.extend(leftovers)
        counted[0] += len(leftovers)
        del tail[:-OUTPUT_TAIL]
        ok = outcome.exit_code == 0 and not outcome.timed_out
        reason = (
            None
            if ok
            else (
                "timed out"
                if outcome.timed_out
                else f"exit code {outcome.exit_code}"
                if outcome.exit_code is not None
                else f"signal {outcome.signal}"
            )
        )
        await asyncio.to_thread(
            self.store.set_status,
            identifier,
            "completed" if ok else "failed",
            error=reason,
            exit_code=outcome.exit_code,
        )
        state = {
            **base,
            "status": "completed" if ok else "failed",
            "command": task.command,
            "exitCode": outcome.exit_code,
            "durationMs": outcome.duration_ms,
            "output": "\n".join(tail),
            # The output keeps the last lines only; say how many there were in all.
            "outputLines": counted[0],
            "outputTruncated": counted[0] > len(tail),
        }
        text = clean_output("\n".join(tail[-15:]))
        if ok:
            return to_result(
                success=True,
                content=f"{task.identifier} completed (`{task.command}` "
                f"exited 0).\n{text}".rstrip(),
                state=state,
            )
        message = f"{task.identifier} failed: `{task.command}` {reason}"
        return to_result(
            success=False,
            content=f"{message}.\n{text}".rstrip(),
            state=state,
            error=ToolError(
                type="TaskFailed", message=message, body={"exitCode": outcome.exit_code}
            ),
        )
