"""The local-system runtime: file operations and commands, services injected."""

from __future__ import annotations

import asyncio
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
from workbench.tools.local_system.files import WorkspaceError, WorkspaceFiles

STATE_OUTPUT_LINES = 200
"""Lines of command output kept in the result state (the full output streamed live)."""
CONTENT_OUTPUT_LINES = 60
CONTENT_LIST_ITEMS = 100


def _error(error: WorkspaceError, state: dict[str, Any] | None = None) -> ToolResult:
    return to_result(
        success=False,
        content=error.message,
        state=state,
        error=ToolError(
            type=error.error_type,
            message=error.message,
            body={"path": error.path} if error.path else None,
        ),
    )


class LocalSystemRuntime(BaseRuntime):
    """Runs file APIs in a worker thread (they block) and commands as subprocesses."""

    api_names = (
        "listFiles",
        "readFile",
        "writeFile",
        "editFile",
        "globFiles",
        "grepContent",
        "runCommand",
    )

    def __init__(self, files: WorkspaceFiles, commands: CommandRunner) -> None:
        self.files = files
        self.commands = commands

    async def listFiles(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        path = str(args.get("path") or ".")
        try:
            state = await asyncio.to_thread(
                self.files.list,
                path,
                recursive=bool(args.get("recursive")),
                include_hidden=bool(args.get("includeHidden")),
                limit=int(args.get("limit", 500)),
            )
        except WorkspaceError as error:
            return _error(error)
        entries = state["entries"]
        if not entries:
            return to_result(success=True, content=f"{path} is empty.", state=state)
        lines = [
            f"{entry['path']}{'/' if entry['type'] == 'dir' else ''}"
            for entry in entries[:CONTENT_LIST_ITEMS]
        ]
        more = (
            f"\n… {state['total'] - len(lines)} more (showing {len(lines)} of {state['total']})"
            if state["total"] > len(lines)
            else ""
        )
        return to_result(
            success=True,
            content=f"{state['total']} entries in {path}:\n" + "\n".join(lines) + more,
            state=state,
        )

    async def readFile(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        path = str(args.get("path", ""))
        try:
            state = await asyncio.to_thread(
                self.files.read,
                path,
                start_line=args.get("startLine"),
                end_line=args.get("endLine"),
            )
        except WorkspaceError as error:
            return _error(error)
        if state["totalLines"] == 0:
            return to_result(success=True, content=f"{path} is empty (0 bytes).", state=state)
        note = (
            f"\n[truncated: showing lines {state['startLine']}-{state['endLine']} "
            f"of {state['totalLines']}; read further with startLine]"
            if state["truncated"]
            else ""
        )
        return to_result(success=True, content=state["content"] + note, state=state)

    async def writeFile(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        path = str(args.get("path", ""))
        content = str(args.get("content", ""))

        def progress(done: int, total: int) -> None:
            ctx.progress(done, total, f"{done:,} of {total:,} bytes written")

        try:
            state = await asyncio.to_thread(
                self.files.write,
                path,
                content,
                create_directories=bool(args.get("createDirectories", True)),
                on_progress=progress,
            )
        except WorkspaceError as error:
            return _error(error)
        verb = "Created" if state["created"] else "Overwrote"
        return to_result(
            success=True,
            content=f"{verb} {path} ({state['bytesWritten']:,} bytes, {state['lines']:,} lines).",
            state=state,
        )

    async def editFile(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        path = str(args.get("path", ""))
        try:
            state = await asyncio.to_thread(
                self.files.edit,
                path,
                str(args.get("oldString", "")),
                str(args.get("newString", "")),
                replace_all=bool(args.get("replaceAll")),
            )
        except WorkspaceError as error:
            return _error(error)
        return to_result(
            success=True,
            content=(
                f"Edited {path}: {_plural(state['replacements'], 'replacement')}, "
                f"+{state['linesAdded']} -{state['linesRemoved']} lines.\n{state['diff']}"
            ),
            state=state,
        )

    async def globFiles(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        try:
            state = await asyncio.to_thread(
                self.files.glob,
                str(args.get("pattern", "")),
                str(args.get("path") or "."),
                limit=int(args.get("limit", 500)),
            )
        except WorkspaceError as error:
            return _error(error)
        if not state["matches"]:
            return to_result(
                success=True, content=f"No files match {args.get('pattern')!r}.", state=state
            )
        shown = state["matches"][:CONTENT_LIST_ITEMS]
        more = (
            f"\n… {state['total'] - len(shown)} more (showing {len(shown)} of {state['total']})"
            if state["total"] > len(shown)
            else ""
        )
        return to_result(
            success=True,
            content=f"{state['total']} files match:\n" + "\n".join(shown) + more,
            state=state,
        )

    async def grepContent(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        try:
            state = await asyncio.to_thread(
                self.files.grep,
                str(args.get("pattern", "")),
                str(args.get("path") or "."),
                glob=args.get("glob"),
                ignore_case=bool(args.get("ignoreCase")),
                limit=int(args.get("limit", 200)),
            )
        except WorkspaceError as error:
            return _error(error)
        if not state["matches"]:
            return to_result(
                success=True, content=f"No matches for {args.get('pattern')!r}.", state=state
            )
        shown = state["matches"][:CONTENT_LIST_ITEMS]
        lines = [f"{match['path']}:{match['line']}: {match['text']}" for match in shown]
        more = (
            f"\n… {state['total'] - len(shown)} more matches (showing {len(shown)} "
            f"of {state['total']})"
            if state["total"] > len(shown)
            else ""
        )
        return to_result(
            success=True,
            content=f"{state['total']} matches in {state['files']} files:\n"
            + "\n".join(lines)
            + more,
            state=state,
        )

    async def runCommand(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        command = str(args.get("command", ""))
        cwd = self.files.resolve(args.get("cwd"))
        if not cwd.is_dir():
            error = WorkspaceError(
                "NotADirectory",
                f"the working directory {args.get('cwd')} does not exist",
                str(args.get("cwd")),
            )
            return _error(error)
        timeout_ms = args.get("timeout")
        timeout_s = (
            float(timeout_ms) / 1000
            if isinstance(timeout_ms, (int, float)) and timeout_ms > 0
            else ctx.timeout_s
        )
        lines: list[str] = []
        partial = {"stdout": "", "stderr": ""}
        counts = {"stdout": 0, "stderr": 0}

        def on_output(text: str, stream: OutputStream) -> None:
            ctx.emit(text, stream)
            pieces = (partial[stream] + text).split("\n")
            partial[stream] = pieces.pop()
            counts[stream] += len(pieces)
            lines.extend(pieces)
            if len(lines) > STATE_OUTPUT_LINES * 2:
                del lines[: len(lines) - STATE_OUTPUT_LINES]

        outcome = await self.commands.run(command, cwd, timeout_s=timeout_s, on_output=on_output)
        for stream, rest in partial.items():
            if rest:
                lines.append(rest)
                counts[stream] += 1
        total = counts["stdout"] + counts["stderr"]
        tail = lines[-STATE_OUTPUT_LINES:]
        state = {
            "exitCode": outcome.exit_code,
            "signal": outcome.signal,
            "timedOut": outcome.timed_out,
            "durationMs": outcome.duration_ms,
            "stdoutLines": counts["stdout"],
            "stderrLines": counts["stderr"],
            "output": "\n".join(tail),
            "outputTruncated": total > len(tail),
        }
        shown = tail[-CONTENT_OUTPUT_LINES:]
        head = (
            f"[showing the last {len(shown)} of {total} output lines]\n"
            if total > len(shown)
            else ""
        )
        # The model reads plain text: colour codes would only cost tokens.
        body = head + clean_output("\n".join(shown))
        if outcome.timed_out:
            message = (
                f"`{command}` was killed after {timeout_s:g} s (timeout) "
                f"with {_plural(total, 'output line')}"
            )
            return to_result(
                success=False,
                content=f"{message}.\n{body}".rstrip(),
                state=state,
                error=ToolError(type="CommandTimeout", message=message),
            )
        if outcome.exit_code != 0:
            how = f"signal {outcome.signal}" if outcome.signal else f"exit code {outcome.exit_code}"
            message = f"`{command}` failed with {how}"
            return to_result(
                success=False,
                content=f"{message}.\n{body}".rstrip(),
                state=state,
                error=ToolError(
                    type="CommandFailed",
                    message=message,
                    body={"exitCode": outcome.exit_code, "signal": outcome.signal},
                ),
            )
        return to_result(
            success=True,
            content=f"`{command}` exited 0.\n{body}".rstrip()
            if total
            else f"`{command}` exited 0 with no output.",
            state=state,
        )


def _plural(count: int, noun: str) -> str:
    """``1 replacement``, ``2 replacements``: what the model reads agrees too."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"
