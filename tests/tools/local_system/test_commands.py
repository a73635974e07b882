"""runCommand and CommandRunner with real subprocesses: streaming, exit codes, timeouts,
cancellation, no leftovers."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import pytest

from tests.tools.runtime_calls import Capture, error_type
from workbench.tools.local_system import LocalSystemRuntime, commands
from workbench.tools.local_system.commands import CommandRunner

PROC = Path("/proc")
needs_proc = pytest.mark.skipif(
    not (PROC / "self" / "stat").exists() or sys.platform != "linux",
    reason="process checks read /proc",
)


def _state(pid: int) -> str | None:
    """The process's state letter from /proc, or None when it is gone."""
    try:
        return (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def running(pid: int) -> bool:
    """Alive and not a zombie (an orphaned zombie waits for init to reap it, but it runs no
    code)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return _state(pid) not in (None, "Z", "X")


def group_members(pgid: int) -> list[int]:
    """Running (non-zombie) processes in the process group ``pgid``."""
    members = []
    for stat in PROC.glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            members.append(int(stat.parent.name))
    return members


def wait_until_gone(pids: list[int], pgid: int | None = None, timeout_s: float = 2.0) -> None:
    """Signals are asynchronous: give the kernel a moment to finish the kills, then assert."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if not any(running(pid) for pid in pids) and (pgid is None or not group_members(pgid)):
            return
        time.sleep(0.01)
    left = [pid for pid in pids if running(pid)] + (group_members(pgid) if pgid is not None else [])
    for pid in left:  # do not leak into the rest of the test run
        os.kill(pid, 9)
    pytest.fail(f"processes left running: {left}")


def pids_in(output: str) -> list[int]:
    return [int(word) for word in output.split() if word.isdigit()]


# --- output and exit codes -----------------------------------------------------------------


async def test_success_streams_stdout_and_stderr_with_their_stream_names(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    capture = Capture()
    result = await runtime.invoke(
        "runCommand", {"command": "echo out1; echo err1 >&2; echo out2"}, capture.context(workspace)
    )
    assert result.success
    assert capture.text("stdout") == "out1\nout2\n"
    assert capture.text("stderr") == "err1\n"
    assert {stream for _, stream in capture.chunks} == {"stdout", "stderr"}
    assert (
        result.state["exitCode"] == 0
        and result.state["signal"] is None
        and result.state["timedOut"] is False
    )
    assert (result.state["stdoutLines"], result.state["stderrLines"]) == (2, 1)
    assert sorted(result.state["output"].splitlines()) == ["err1", "out1", "out2"]
    assert result.content.startswith("`echo out1; echo err1 >&2; echo out2` exited 0.\n")


async def test_no_output(runtime: LocalSystemRuntime, workspace: Path) -> None:
    capture = Capture()
    result = await runtime.invoke("runCommand", {"command": "true"}, capture.context(workspace))
    assert result.success
    assert result.content == "`true` exited 0 with no output."
    assert capture.chunks == []
    assert result.state["stdoutLines"] == 0 and result.state["output"] == ""


async def test_last_line_without_newline_is_counted(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    result = await runtime.invoke(
        "runCommand", {"command": "printf 'a\\nb'"}, Capture().context(workspace)
    )
    assert result.state["stdoutLines"] == 2 and result.state["output"] == "a\nb"


async def test_runs_in_the_workspace_by_default_and_in_cwd_when_given(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    (workspace / "sub").mkdir()
    default = await runtime.invoke("runCommand", {"command": "pwd"}, Capture().context(workspace))
    assert default.state["output"] == os.path.realpath(workspace)
    sub = await runtime.invoke(
        "runCommand", {"command": "pwd", "cwd": "sub"}, Capture().context(workspace)
    )
    assert sub.state["output"] == os.path.realpath(workspace / "sub")


async def test_nonzero_exit_is_command_failed(runtime: LocalSystemRuntime, workspace: Path) -> None:
    capture = Capture()
    result = await runtime.invoke(
        "runCommand",
        {"command": "echo compiling; echo 'error: bad' >&2; exit 3"},
        capture.context(workspace),
    )
    assert error_type(result) == "CommandFailed"
    assert result.error is not None and result.error.body == {"exitCode": 3, "signal": None}
    assert (
        result.error.message
        == "`echo compiling; echo 'error: bad' >&2; exit 3` failed with exit code 3"
    )
    assert result.state["exitCode"] == 3
    assert "error: bad" in result.content and "compiling" in result.content
    assert capture.text("stderr") == "error: bad\n"


async def test_death_by_signal_is_command_failed_with_the_signal(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    result = await runtime.invoke(
        "runCommand", {"command": "kill -9 $$"}, Capture().context(workspace)
    )
    assert error_type(result) == "CommandFailed"
    assert result.state["exitCode"] is None and result.state["signal"] == 9
    assert "failed with signal 9" in result.content


async def test_missing_cwd_inside_the_workspace(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    result = await runtime.invoke(
        "runCommand", {"command": "pwd", "cwd": "nope"}, Capture().context(workspace)
    )
    assert error_type(result) == "NotADirectory"


async def test_missing_cwd_outside_the_workspace(
    runtime: LocalSystemRuntime, workspace: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere" / "missing"
    capture = Capture()
    result = await runtime.invoke(
        "runCommand",
        {"command": "echo should-not-run", "cwd": str(outside)},
        capture.context(workspace),
    )
    assert error_type(result) == "NotADirectory"
    assert result.error is not None and result.error.body == {"path": str(outside)}
    assert capture.chunks == []


async def test_existing_cwd_outside_the_workspace_runs_there(
    runtime: LocalSystemRuntime, workspace: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    result = await runtime.invoke(
        "runCommand", {"command": "pwd", "cwd": str(outside)}, Capture().context(workspace)
    )
    assert result.success and result.state["output"] == os.path.realpath(outside)


async def test_a_file_as_cwd_is_refused(runtime: LocalSystemRuntime, workspace: Path) -> None:
    (workspace / "f.txt").write_text("x")
    result = await runtime.invoke(
        "runCommand", {"command": "pwd", "cwd": "f.txt"}, Capture().context(workspace)
    )
    assert error_type(result) == "NotADirectory"


async def test_long_output_keeps_a_tail_and_says_so(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    capture = Capture()
    result = await runtime.invoke(
        "runCommand", {"command": "seq 1 500"}, capture.context(workspace)
    )
    assert result.success
    assert capture.text("stdout") == "".join(f"{number}\n" for number in range(1, 501))
    assert result.state["stdoutLines"] == 500 and result.state["outputTruncated"] is True
    kept = result.state["output"].splitlines()
    assert kept == [str(number) for number in range(301, 501)]
    assert result.content.splitlines()[1] == "[showing the last 60 of 500 output lines]"
    assert result.content.splitlines()[-1] == "500"


async def test_escape_sequences_are_streamed_raw_but_cleaned_for_the_model(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    capture = Capture()
    result = await runtime.invoke(
        "runCommand", {"command": "printf '\\033[31mred\\033[0m\\n'"}, capture.context(workspace)
    )
    assert "\x1b[31m" in capture.text("stdout")
    assert "\x1b" not in result.content and result.content.endswith("red")


async def test_utf8_split_across_chunks_is_never_mangled(workspace: Path) -> None:
    # é is \303\251; the pause makes the first read return the lone lead byte.
    chunks: list[tuple[str, str]] = []
    outcome = await CommandRunner().run(
        "printf '\\303'; sleep 0.2; printf '\\251t\\342\\234'; sleep 0.2; printf '\\223\\n'",
        workspace,
        timeout_s=5,
        on_output=lambda text, stream: chunks.append((text, stream)),
    )
    assert outcome.exit_code == 0
    assert "".join(text for text, _ in chunks) == "ét✓\n"
    assert all("\ufffd" not in text for text, _ in chunks)
    assert all(stream == "stdout" for _, stream in chunks)


async def test_utf8_split_through_the_runtime(runtime: LocalSystemRuntime, workspace: Path) -> None:
    capture = Capture()
    result = await runtime.invoke(
        "runCommand",
        {"command": "printf '\\303'; sleep 0.2; printf '\\251\\n'"},
        capture.context(workspace),
    )
    assert capture.text("stdout") == "é\n" and result.state["output"] == "é"


async def test_invalid_utf8_is_replaced_not_raised(workspace: Path) -> None:
    chunks: list[str] = []
    outcome = await CommandRunner().run(
        "printf 'a\\377b'",
        workspace,
        timeout_s=5,
        on_output=lambda text, stream: chunks.append(text),
    )
    assert outcome.exit_code == 0 and "".join(chunks) == "a\ufffdb"


async def test_stdin_is_closed(runtime: LocalSystemRuntime, workspace: Path) -> None:
    """A command that reads stdin sees end-of-file at once instead of hanging."""
    result = await runtime.invoke(
        "runCommand", {"command": "cat; echo done"}, Capture().context(workspace, timeout_s=5)
    )
    assert result.success and result.state["output"] == "done"


# --- timeouts ------------------------------------------------------------------------------


@needs_proc
async def test_timeout_argument_kills_the_command(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    capture = Capture()
    started = time.monotonic()
    result = await runtime.invoke(
        "runCommand",
        {"command": "echo $$; echo started; sleep 60", "timeout": 1000},
        capture.context(workspace, timeout_s=30),
    )
    elapsed = time.monotonic() - started
    assert error_type(result) == "CommandTimeout"
    assert 0.9 < elapsed < 5
    assert result.state["timedOut"] is True and result.state["exitCode"] is None
    assert result.state["signal"] is not None
    assert result.content.startswith(
        "`echo $$; echo started; sleep 60` was killed after 1 s (timeout) with 2 output lines."
    )
    assert "started" in result.content
    shell = pids_in(capture.text("stdout"))[0]
    wait_until_gone([shell], pgid=shell)


async def test_call_context_timeout_applies_without_a_timeout_argument(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    started = time.monotonic()
    result = await runtime.invoke(
        "runCommand", {"command": "sleep 60"}, Capture().context(workspace, timeout_s=0.3)
    )
    assert error_type(result) == "CommandTimeout"
    assert time.monotonic() - started < 3
    assert "killed after 0.3 s" in result.content


@needs_proc
async def test_timeout_kills_background_children_of_a_running_shell(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    capture = Capture()
    command = "sleep 60 & echo $!; sleep 60 & echo $!; echo $$; wait"
    result = await runtime.invoke(
        "runCommand", {"command": command, "timeout": 1000}, capture.context(workspace)
    )
    assert error_type(result) == "CommandTimeout"
    first, second, shell = pids_in(capture.text("stdout"))
    wait_until_gone([first, second, shell], pgid=shell)


@needs_proc
async def test_timeout_kills_children_that_outlive_the_shell(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    """The shell exits at once; its background child keeps the pipe open and must still be
    killed."""
    capture = Capture()
    started = time.monotonic()
    result = await runtime.invoke(
        "runCommand",
        {"command": "sleep 60 & echo $! $$", "timeout": 1000},
        capture.context(workspace),
    )
    assert error_type(result) == "CommandTimeout"
    assert time.monotonic() - started < 5
    child, shell = pids_in(capture.text("stdout"))
    wait_until_gone([child], pgid=shell)


@needs_proc
async def test_timeout_kills_children_that_ignore_sigterm(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(commands, "KILL_GRACE_S", 0.3)
    chunks: list[str] = []
    started = time.monotonic()
    outcome = await CommandRunner().run(
        "(trap '' TERM; sleep 60) & echo $! $$; wait",
        workspace,
        timeout_s=0.5,
        on_output=lambda text, stream: chunks.append(text),
    )
    assert outcome.timed_out is True
    assert time.monotonic() - started < 5
    child, shell = pids_in("".join(chunks))
    wait_until_gone([child], pgid=shell)


async def test_timeout_covers_a_command_that_closes_its_output(workspace: Path) -> None:
    started = time.monotonic()
    outcome = await CommandRunner().run(
        "exec >/dev/null 2>&1; sleep 60",
        workspace,
        timeout_s=0.5,
        on_output=lambda text, stream: None,
    )
    assert outcome.timed_out is True and outcome.exit_code is None
    assert time.monotonic() - started < 5


async def test_runner_outcome_for_a_quick_command(workspace: Path) -> None:
    outcome = await CommandRunner().run(
        "exit 7", workspace, timeout_s=5, on_output=lambda text, stream: None
    )
    assert (outcome.exit_code, outcome.signal, outcome.timed_out) == (7, None, False)
    assert 0 <= outcome.duration_ms < 5000


async def test_runner_env_is_used_and_pager_defaults_are_set(workspace: Path) -> None:
    chunks: list[str] = []
    runner = CommandRunner(env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "GREETING": "hi"})
    await runner.run(
        'echo "$GREETING $PAGER $GIT_PAGER"',
        workspace,
        timeout_s=5,
        on_output=lambda text, stream: chunks.append(text),
    )
    assert "".join(chunks) == "hi cat cat\n"


# --- cancellation --------------------------------------------------------------------------


@needs_proc
async def test_cancelling_the_call_kills_the_subprocess(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    capture = Capture()
    task = asyncio.create_task(
        runtime.invoke(
            "runCommand",
            {"command": "sleep 60 & echo $! $$; wait"},
            capture.context(workspace, timeout_s=None),
        )
    )
    await asyncio.wait_for(capture.first_output.wait(), timeout=5)
    child, shell = pids_in(capture.text("stdout"))
    assert running(child) and running(shell)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, timeout=5)
    wait_until_gone([child, shell], pgid=shell)


@needs_proc
async def test_cancelling_the_runner_kills_the_subprocess(workspace: Path) -> None:
    seen = asyncio.Event()
    chunks: list[str] = []

    def on_output(text: str, stream: str) -> None:
        chunks.append(text)
        seen.set()

    task = asyncio.create_task(
        CommandRunner().run(
            "echo $$; exec sleep 60", workspace, timeout_s=None, on_output=on_output
        )
    )
    await asyncio.wait_for(seen.wait(), timeout=5)
    shell = pids_in("".join(chunks))[0]
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    wait_until_gone([shell], pgid=shell)
