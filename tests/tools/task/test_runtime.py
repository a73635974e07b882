"""TaskRuntime through invoke() on a real SQLite file: create, batch, list, status, and running real
commands."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.tools.runtime_calls import Capture, error_type
from workbench.core.runtime import RuntimeServices
from workbench.tools.local_system.commands import CommandRunner
from workbench.tools.task import DATABASE_NAME, MANIFEST, PACKAGE, TaskRuntime, TaskStore


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "db" / "tasks.db"


@pytest.fixture
def runtime(workspace: Path, database: Path) -> Iterator[TaskRuntime]:
    opened = TaskRuntime(TaskStore(database), CommandRunner(), workspace)
    yield opened
    opened.close()


async def create(runtime: TaskRuntime, name: str, **fields: Any) -> str:
    result = await runtime.invoke(
        "createTask", {"name": name, "instruction": f"do {name}", **fields}
    )
    assert result.success, result.content
    return str(result.state["identifier"])


async def status_of(runtime: TaskRuntime, identifier: str) -> str:
    return runtime.store.get(identifier).status


# --- the package ---------------------------------------------------------------------------


def test_runtime_serves_exactly_the_manifest_apis(runtime: TaskRuntime) -> None:
    assert set(runtime.api_names) == {api.name for api in MANIFEST.api}


async def test_factory_puts_the_database_in_the_workspace_at_the_first_task(
    workspace: Path,
) -> None:
    created = PACKAGE.create_runtime(RuntimeServices(workspace=workspace))  # type: ignore[misc]
    assert isinstance(created, TaskRuntime)
    try:
        assert created.store.path == str(workspace / DATABASE_NAME)
        # A session that never touches a task (workbench call on an MCP server) leaves no file.
        assert not (workspace / DATABASE_NAME).parent.exists()
        result = await created.invoke("createTask", {"name": "First", "instruction": ""})
        assert result.success
        assert (workspace / DATABASE_NAME).is_file()
    finally:
        created.close()


async def test_factory_honours_the_database_setting(workspace: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "custom" / "my.db"
    created = PACKAGE.create_runtime(
        RuntimeServices(workspace=workspace, settings={"task.database": str(elsewhere)})
    )  # type: ignore[misc]
    assert isinstance(created, TaskRuntime)
    try:
        await created.invoke("createTask", {"name": "First", "instruction": ""})
        assert elsewhere.is_file()
        assert not (workspace / DATABASE_NAME).exists()
    finally:
        created.close()


async def test_factory_accepts_an_in_memory_database(workspace: Path) -> None:
    created = PACKAGE.create_runtime(
        RuntimeServices(workspace=workspace, settings={"task.database": ":memory:"})
    )  # type: ignore[misc]
    assert isinstance(created, TaskRuntime)
    try:
        result = await created.invoke("createTask", {"name": "Ephemeral", "instruction": ""})
        assert result.success and result.state["identifier"] == "TASK-1"
        assert not (workspace / DATABASE_NAME).exists()
    finally:
        created.close()


async def test_unknown_api(runtime: TaskRuntime) -> None:
    assert error_type(await runtime.invoke("deleteTask", {})) == "ApiNotFound"


# --- createTask ----------------------------------------------------------------------------


async def test_create_task(runtime: TaskRuntime) -> None:
    result = await runtime.invoke(
        "createTask",
        {
            "name": "Write the parser",
            "instruction": "Handle nested brackets",
            "priority": 2,
            "command": "python -m parser",
        },
    )
    assert result.success
    assert result.content == "Created TASK-1: Write the parser."
    assert result.state == {
        "identifier": "TASK-1",
        "name": "Write the parser",
        "status": "todo",
        "priority": 2,
        "command": "python -m parser",
    }


async def test_create_subtask_with_dependencies(runtime: TaskRuntime) -> None:
    epic = await create(runtime, "Epic")
    first = await create(runtime, "First", parentIdentifier=epic)
    result = await runtime.invoke(
        "createTask",
        {"name": "Second", "instruction": "", "parentIdentifier": epic, "dependsOn": [first]},
    )
    assert result.success
    assert result.content == "Created TASK-3: Second under TASK-1."
    assert result.state["parent"] == "TASK-1" and result.state["dependsOn"] == ["TASK-2"]


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"priority": 9}, "InvalidTask"),
        ({"priority": -1}, "InvalidTask"),
        ({"priority": "high"}, "InvalidTask"),
        ({"priority": None}, "InvalidTask"),
        ({"name": ""}, "InvalidTask"),
        ({"parentIdentifier": "TASK-42"}, "TaskNotFound"),
        ({"dependsOn": ["TASK-42"]}, "TaskNotFound"),
        ({"parentIdentifier": "the epic"}, "InvalidIdentifier"),
    ],
)
async def test_create_task_refusals_are_typed(
    runtime: TaskRuntime, fields: dict[str, Any], code: str
) -> None:
    result = await runtime.invoke("createTask", {"name": "Valid", "instruction": "", **fields})
    assert error_type(result) == code
    assert runtime.store.list() == ([], 0)


# --- createTasks ---------------------------------------------------------------------------


async def test_create_tasks_reports_each_success_and_failure(
    runtime: TaskRuntime, workspace: Path
) -> None:
    capture = Capture()
    specs = [
        {"name": "Plan", "instruction": "outline"},
        {"name": "Bad", "instruction": "", "priority": 7},
        {"name": "Build", "instruction": "", "dependsOn": ["TASK-1"]},
        {"name": "Orphan", "instruction": "", "parentIdentifier": "TASK-99"},
    ]
    result = await runtime.invoke("createTasks", {"tasks": specs}, capture.context(workspace))
    assert result.success
    assert result.state == {
        "succeeded": 2,
        "failed": 2,
        "results": [
            {"name": "Plan", "identifier": "TASK-1", "success": True},
            {"name": "Bad", "success": False, "error": "priority must be 0-4, got 7"},
            {"name": "Build", "identifier": "TASK-2", "success": True},
            {"name": "Orphan", "success": False, "error": "there is no TASK-99"},
        ],
    }
    assert result.content.splitlines() == [
        "Created 2 of 4 tasks; 2 failed.",
        "- TASK-1: Plan",
        "- FAILED Bad: priority must be 0-4, got 7",
        "- TASK-2: Build",
        "- FAILED Orphan: there is no TASK-99",
    ]
    assert [(done, total) for done, total, _ in capture.progress] == [
        (1, 4),
        (2, 4),
        (3, 4),
        (4, 4),
    ]
    assert capture.progress[-1][2] == "4 of 4 tasks"
    assert runtime.store.get("TASK-2").depends_on == (1,)


async def test_create_tasks_all_failed_is_batch_failed(runtime: TaskRuntime) -> None:
    result = await runtime.invoke(
        "createTasks",
        {
            "tasks": [
                {"name": "", "instruction": ""},
                {"name": "x", "instruction": "", "parentIdentifier": "TASK-5"},
            ]
        },
    )
    assert error_type(result) == "BatchFailed"
    assert (
        result.error is not None and result.error.message == "none of the 2 tasks could be created"
    )
    assert result.state["succeeded"] == 0 and result.state["failed"] == 2
    assert [item["success"] for item in result.state["results"]] == [False, False]
    assert result.content.startswith("Created 0 of 2 tasks; 2 failed.")


async def test_create_tasks_a_malformed_priority_fails_only_its_own_task(
    runtime: TaskRuntime,
) -> None:
    result = await runtime.invoke(
        "createTasks",
        {
            "tasks": [
                {"name": "ok", "instruction": ""},
                {"name": "bad", "instruction": "", "priority": "urgent"},
                {"name": "ok too", "instruction": ""},
            ]
        },
    )
    assert result.success
    assert (result.state["succeeded"], result.state["failed"]) == (2, 1)
    assert result.state["results"][1] == {
        "name": "bad",
        "success": False,
        "error": "priority must be 0-4, got 'urgent'",
    }


async def test_create_tasks_with_no_tasks_is_batch_failed(runtime: TaskRuntime) -> None:
    result = await runtime.invoke("createTasks", {"tasks": []})
    assert error_type(result) == "BatchFailed"
    assert result.state == {"succeeded": 0, "failed": 0, "results": []}


# --- listTasks -----------------------------------------------------------------------------


async def seed(runtime: TaskRuntime) -> None:
    await create(runtime, "Epic", priority=3)
    await create(runtime, "Parse input", parentIdentifier="TASK-1", priority=1)
    await create(runtime, "Render output", parentIdentifier="TASK-1")
    await create(runtime, "Write docs", priority=4)
    runtime.store.set_status("TASK-3", "completed")


async def test_list_tasks_most_urgent_first(runtime: TaskRuntime) -> None:
    await seed(runtime)
    result = await runtime.invoke("listTasks", {})
    assert result.success
    assert [task["identifier"] for task in result.state["tasks"]] == [
        "TASK-2",
        "TASK-1",
        "TASK-4",
        "TASK-3",
    ]
    assert result.state["total"] == 4 and result.state["truncated"] is False
    assert result.content.splitlines() == [
        "4 tasks:",
        "- TASK-2 [todo] Parse input (priority: urgent)",
        "- TASK-1 [todo] Epic (priority: normal)",
        "- TASK-4 [todo] Write docs (priority: low)",
        "- TASK-3 [completed] Render output (priority: none)",
    ]


@pytest.mark.parametrize(
    ("args", "identifiers"),
    [
        ({"status": ["completed"]}, ["TASK-3"]),
        ({"status": ["todo", "completed"]}, ["TASK-2", "TASK-1", "TASK-4", "TASK-3"]),
        ({"parentIdentifier": "TASK-1"}, ["TASK-2", "TASK-3"]),
        ({"query": "OUTPUT"}, ["TASK-3"]),
        ({"query": "do write"}, ["TASK-4"]),
        ({"parentIdentifier": "TASK-1", "status": ["todo"]}, ["TASK-2"]),
        ({"status": ["failed"]}, []),
    ],
)
async def test_list_tasks_filters(
    runtime: TaskRuntime, args: dict[str, Any], identifiers: list[str]
) -> None:
    await seed(runtime)
    result = await runtime.invoke("listTasks", args)
    assert result.success
    assert [task["identifier"] for task in result.state["tasks"]] == identifiers
    assert result.state["total"] == len(identifiers)
    if not identifiers:
        assert result.content == "No tasks match."


async def test_list_tasks_limit_reports_total(runtime: TaskRuntime) -> None:
    await seed(runtime)
    result = await runtime.invoke("listTasks", {"limit": 2})
    assert [task["identifier"] for task in result.state["tasks"]] == ["TASK-2", "TASK-1"]
    assert result.state["total"] == 4 and result.state["truncated"] is True
    assert result.content.endswith("… 2 more (showing 2 of 4)")


async def test_list_tasks_on_an_empty_store(runtime: TaskRuntime) -> None:
    result = await runtime.invoke("listTasks", {})
    assert result.success and result.content == "No tasks match."
    assert result.state == {"tasks": [], "total": 0, "truncated": False}


async def test_list_tasks_refusals(runtime: TaskRuntime) -> None:
    assert error_type(await runtime.invoke("listTasks", {"status": ["done"]})) == "InvalidStatus"
    assert (
        error_type(await runtime.invoke("listTasks", {"parentIdentifier": "TASK-8"}))
        == "TaskNotFound"
    )


# --- updateTaskStatus ----------------------------------------------------------------------


async def test_update_status(runtime: TaskRuntime) -> None:
    await create(runtime, "Build")
    result = await runtime.invoke("updateTaskStatus", {"identifier": "TASK-1", "status": "paused"})
    assert result.success
    assert result.content == "TASK-1 (Build): todo -> paused."
    assert result.state == {
        "identifier": "TASK-1",
        "name": "Build",
        "previousStatus": "todo",
        "status": "paused",
    }
    assert await status_of(runtime, "TASK-1") == "paused"


async def test_update_status_failed_keeps_the_error(runtime: TaskRuntime) -> None:
    await create(runtime, "Build")
    await runtime.invoke(
        "updateTaskStatus", {"identifier": "1", "status": "failed", "error": "flaky network"}
    )
    listed = await runtime.invoke("listTasks", {})
    assert (
        listed.state["tasks"][0]["status"] == "failed"
        and listed.state["tasks"][0]["error"] == "flaky network"
    )


async def test_update_status_to_running_is_refused(runtime: TaskRuntime) -> None:
    await create(runtime, "Build", command="echo hi")
    result = await runtime.invoke("updateTaskStatus", {"identifier": "TASK-1", "status": "running"})
    assert error_type(result) == "UseRunTask"
    assert "use runTask" in result.content
    assert await status_of(runtime, "TASK-1") == "todo"


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ({"identifier": "TASK-5", "status": "completed"}, "TaskNotFound"),
        ({"identifier": "TASK-1", "status": "done"}, "InvalidStatus"),
        ({"identifier": "five", "status": "completed"}, "InvalidIdentifier"),
    ],
)
async def test_update_status_refusals(
    runtime: TaskRuntime, args: dict[str, Any], code: str
) -> None:
    await create(runtime, "Build")
    assert error_type(await runtime.invoke("updateTaskStatus", args)) == code
    assert await status_of(runtime, "TASK-1") == "todo"


# --- runTask -------------------------------------------------------------------------------


async def test_run_task_streams_output_and_marks_completed(
    runtime: TaskRuntime, workspace: Path
) -> None:
    await create(runtime, "Build", command="echo building; echo 'warning: slow' >&2; echo done")
    capture = Capture()
    result = await runtime.invoke("runTask", {"identifier": "TASK-1"}, capture.context(workspace))
    assert result.success
    assert capture.text("stdout") == "building\ndone\n"
    assert capture.text("stderr") == "warning: slow\n"
    assert result.state["status"] == "completed" and result.state["previousStatus"] == "todo"
    assert result.state["exitCode"] == 0 and result.state["command"].startswith("echo building")
    assert sorted(result.state["output"].splitlines()) == ["building", "done", "warning: slow"]
    assert result.content.startswith(
        "TASK-1 completed (`echo building; echo 'warning: slow' >&2; echo done` exited 0)."
    )
    stored = runtime.store.get("TASK-1")
    assert (stored.status, stored.exit_code, stored.error) == ("completed", 0, None)


async def test_run_task_runs_in_the_workspace(runtime: TaskRuntime, workspace: Path) -> None:
    await create(runtime, "Where", command="pwd")
    result = await runtime.invoke("runTask", {"identifier": "TASK-1"}, Capture().context(workspace))
    assert result.state["output"] == os.path.realpath(workspace)


async def test_run_task_failing_command_marks_failed(runtime: TaskRuntime, workspace: Path) -> None:
    await create(runtime, "Lint", command="echo 'src/app.py:7: line too long' >&2; exit 3")
    capture = Capture()
    result = await runtime.invoke("runTask", {"identifier": "TASK-1"}, capture.context(workspace))
    assert error_type(result) == "TaskFailed"
    assert result.error is not None and result.error.body == {"exitCode": 3}
    assert (
        result.error.message
        == "TASK-1 failed: `echo 'src/app.py:7: line too long' >&2; exit 3` exit code 3"
    )
    assert result.state["status"] == "failed" and result.state["exitCode"] == 3
    assert "src/app.py:7: line too long" in result.content
    assert capture.text("stderr") == "src/app.py:7: line too long\n"
    stored = runtime.store.get("TASK-1")
    assert (stored.status, stored.exit_code, stored.error) == ("failed", 3, "exit code 3")


async def test_run_task_timeout_marks_failed(runtime: TaskRuntime, workspace: Path) -> None:
    await create(runtime, "Hang", command="echo waiting; sleep 60")
    started = time.monotonic()
    result = await runtime.invoke(
        "runTask", {"identifier": "TASK-1"}, Capture().context(workspace, timeout_s=0.5)
    )
    assert time.monotonic() - started < 5
    assert error_type(result) == "TaskFailed"
    assert result.content.startswith("TASK-1 failed: `echo waiting; sleep 60` timed out.")
    assert runtime.store.get("TASK-1").error == "timed out"
    assert result.state["output"] == "waiting"


async def test_run_task_without_command_is_just_completed(
    runtime: TaskRuntime, workspace: Path
) -> None:
    await create(runtime, "Think")
    capture = Capture()
    result = await runtime.invoke("runTask", {"identifier": "TASK-1"}, capture.context(workspace))
    assert result.success
    assert result.content == "TASK-1 has no command; marked completed."
    assert result.state == {
        "identifier": "TASK-1",
        "name": "Think",
        "previousStatus": "todo",
        "status": "completed",
        "exitCode": None,
    }
    assert capture.chunks == []
    assert await status_of(runtime, "TASK-1") == "completed"


async def test_run_task_waits_for_its_dependencies(runtime: TaskRuntime, workspace: Path) -> None:
    first = await create(runtime, "Fetch")
    second = await create(runtime, "Parse")
    third = await create(runtime, "Report", dependsOn=[first, second], command="echo report")
    blocked = await runtime.invoke("runTask", {"identifier": third}, Capture().context(workspace))
    assert error_type(blocked) == "DependenciesNotMet"
    assert blocked.content == "TASK-3 depends on TASK-1, TASK-2, which are not completed"
    assert blocked.state["blockedBy"] == ["TASK-1", "TASK-2"] and blocked.state["status"] == "todo"
    await runtime.invoke("runTask", {"identifier": first}, Capture().context(workspace))
    still = await runtime.invoke("runTask", {"identifier": third}, Capture().context(workspace))
    assert still.state["blockedBy"] == ["TASK-2"] and "which is not completed" in still.content
    await runtime.invoke("updateTaskStatus", {"identifier": second, "status": "completed"})
    done = await runtime.invoke("runTask", {"identifier": third}, Capture().context(workspace))
    assert done.success and done.state["output"] == "report"


async def test_run_task_refusals(runtime: TaskRuntime, workspace: Path) -> None:
    assert error_type(await runtime.invoke("runTask", {"identifier": "TASK-1"})) == "TaskNotFound"
    assert (
        error_type(await runtime.invoke("runTask", {"identifier": "first"})) == "InvalidIdentifier"
    )
    await create(runtime, "Busy", command="true")
    runtime.store.set_status("TASK-1", "running")
    busy = await runtime.invoke("runTask", {"identifier": "TASK-1"}, Capture().context(workspace))
    assert error_type(busy) == "AlreadyRunning"
    assert busy.state["status"] == "running"


async def test_run_task_keeps_lines_split_across_chunks_whole(
    runtime: TaskRuntime, workspace: Path
) -> None:
    await create(
        runtime,
        "Slow printer",
        command="printf 'hel'; sleep 0.2; printf 'lo\\nwor'; sleep 0.2; printf 'ld'",
    )
    capture = Capture()
    result = await runtime.invoke("runTask", {"identifier": "TASK-1"}, capture.context(workspace))
    assert len(capture.chunks) >= 2
    assert result.state["output"] == "hello\nworld"


async def test_run_task_output_tail_is_bounded(runtime: TaskRuntime, workspace: Path) -> None:
    await create(runtime, "Chatty", command="seq 1 100")
    capture = Capture()
    result = await runtime.invoke("runTask", {"identifier": "TASK-1"}, capture.context(workspace))
    assert capture.text("stdout").count("\n") == 100
    assert result.state["output"].splitlines() == [str(number) for number in range(61, 101)]
    # The tail is cut, and the state says by how much, so a Render can say "40 of 100".
    assert (result.state["outputLines"], result.state["outputTruncated"]) == (100, True)
    assert result.content.splitlines()[-1] == "100" and "86" in result.content.splitlines()


async def test_cancelling_run_task_marks_it_cancelled_and_kills_the_command(
    runtime: TaskRuntime, workspace: Path
) -> None:
    await create(runtime, "Long", command="echo $$; sleep 60")
    capture = Capture()
    call = asyncio.create_task(
        runtime.invoke(
            "runTask", {"identifier": "TASK-1"}, capture.context(workspace, timeout_s=None)
        )
    )
    await asyncio.wait_for(capture.first_output.wait(), timeout=5)
    shell = int(capture.text("stdout").split()[0])
    assert await status_of(runtime, "TASK-1") == "running"
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(call, timeout=5)
    stored = runtime.store.get("TASK-1")
    assert (stored.status, stored.error) == ("cancelled", "cancelled while running")
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        try:
            os.kill(shell, 0)
        except ProcessLookupError:
            break
        time.sleep(0.01)
    else:
        os.kill(shell, 9)
        pytest.fail(f"the shell {shell} survived the cancel")


async def test_a_command_that_cannot_start_does_not_leave_the_task_running(
    database: Path, tmp_path: Path
) -> None:
    runtime = TaskRuntime(TaskStore(database), CommandRunner(), tmp_path / "deleted-workspace")
    try:
        await create(runtime, "Build", command="true")
        first = await runtime.invoke("runTask", {"identifier": "TASK-1"})
        assert error_type(first) == "ToolCrashed"
        stored = runtime.store.get("TASK-1")
        assert (
            stored.status == "failed"
            and stored.error is not None
            and stored.error.startswith("could not run:")
        )
        again = await runtime.invoke("runTask", {"identifier": "TASK-1"})
        assert error_type(again) == "ToolCrashed"  # tried again, not refused as AlreadyRunning
    finally:
        runtime.close()


# --- persistence ---------------------------------------------------------------------------


async def test_state_survives_reopening_the_database_file(workspace: Path, database: Path) -> None:
    first = TaskRuntime(TaskStore(database), CommandRunner(), workspace)
    await first.invoke(
        "createTasks",
        {
            "tasks": [
                {"name": "Fetch", "instruction": "", "command": "true"},
                {"name": "Parse", "instruction": "", "dependsOn": ["TASK-1"], "command": "exit 4"},
                {"name": "Ship", "instruction": "", "priority": 1},
            ]
        },
    )
    assert (
        await first.invoke("runTask", {"identifier": "TASK-1"}, Capture().context(workspace))
    ).success
    assert (
        error_type(
            await first.invoke("runTask", {"identifier": "TASK-2"}, Capture().context(workspace))
        )
        == "TaskFailed"
    )
    await first.invoke("updateTaskStatus", {"identifier": "TASK-3", "status": "cancelled"})
    first.close()

    second = TaskRuntime(TaskStore(database), CommandRunner(), workspace)
    try:
        listed = await second.invoke("listTasks", {})
        assert [(task["identifier"], task["status"]) for task in listed.state["tasks"]] == [
            ("TASK-3", "cancelled"),
            ("TASK-1", "completed"),
            ("TASK-2", "failed"),
        ]
        parse = second.store.get("TASK-2")
        assert (parse.depends_on, parse.exit_code, parse.error, parse.command) == (
            (1,),
            4,
            "exit code 4",
            "exit 4",
        )
        created = await second.invoke("createTask", {"name": "After reopen", "instruction": ""})
        assert created.state["identifier"] == "TASK-4"
    finally:
        second.close()
