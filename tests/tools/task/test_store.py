"""TaskStore on real SQLite (a file in tmp_path and :memory:): create, list, statuses,
persistence."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from workbench.tools.task.store import Task, TaskError, TaskStore, identifier_of, parse_identifier


@pytest.fixture(params=["memory", "file"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TaskStore]:
    opened = TaskStore(":memory:" if request.param == "memory" else tmp_path / "tasks.db")
    yield opened
    opened.close()


def codes(error: pytest.ExceptionInfo[TaskError]) -> str:
    return error.value.error_type


@pytest.mark.parametrize(
    ("text", "number"), [("TASK-3", 3), ("task-12", 12), (" TASK-7 ", 7), ("42", 42), (5, 5)]
)
def test_parse_identifier(text: str, number: int) -> None:
    assert parse_identifier(text) == number
    assert identifier_of(number) == f"TASK-{number}"


@pytest.mark.parametrize("text", ["T-3", "TASK-", "TASK-x", "", "-1", "TASK-1.5"])
def test_parse_identifier_rejects(text: str) -> None:
    with pytest.raises(TaskError) as error:
        parse_identifier(text)
    assert codes(error) == "InvalidIdentifier"


def test_create_returns_the_stored_task(store: TaskStore) -> None:
    task = store.create("  Write parser  ", "Parse the input", priority=2, command="echo hi")
    assert task == Task(
        1, "Write parser", "Parse the input", "todo", 2, None, "echo hi", None, None, ()
    )
    assert task.identifier == "TASK-1"
    assert task.to_state() == {
        "identifier": "TASK-1",
        "name": "Write parser",
        "status": "todo",
        "priority": 2,
        "command": "echo hi",
    }
    assert store.get("TASK-1") == task


def test_create_with_parent_and_dependencies(store: TaskStore) -> None:
    parent = store.create("Epic", "")
    first = store.create("First", "", parent=parent.identifier)
    second = store.create("Second", "", parent="TASK-1", depends_on=[first.identifier, "1"])
    assert first.parent == parent.id
    assert second.depends_on == (1, 2)
    assert second.to_state() == {
        "identifier": "TASK-3",
        "name": "Second",
        "status": "todo",
        "priority": 0,
        "parent": "TASK-1",
        "dependsOn": ["TASK-1", "TASK-2"],
    }


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"name": "   "}, "InvalidTask"),
        ({"priority": 5}, "InvalidTask"),
        ({"priority": -1}, "InvalidTask"),
        ({"parent": "TASK-99"}, "TaskNotFound"),
        ({"depends_on": ["TASK-99"]}, "TaskNotFound"),
        ({"depends_on": ["nonsense"]}, "InvalidIdentifier"),
    ],
)
def test_create_refuses_bad_input_and_stores_nothing(
    store: TaskStore, kwargs: dict[str, object], code: str
) -> None:
    options = dict(kwargs)
    name = str(options.pop("name", "valid"))
    with pytest.raises(TaskError) as error:
        store.create(name, "", **options)  # type: ignore[arg-type]
    assert codes(error) == code
    assert store.list() == ([], 0)


def test_get_unknown_task(store: TaskStore) -> None:
    with pytest.raises(TaskError) as error:
        store.get("TASK-1")
    assert codes(error) == "TaskNotFound" and error.value.message == "there is no TASK-1"


def test_list_orders_by_priority_with_none_last_then_by_id(store: TaskStore) -> None:
    for name, priority in [
        ("none-a", 0),
        ("low", 4),
        ("urgent", 1),
        ("normal", 3),
        ("high", 2),
        ("none-b", 0),
        ("urgent-2", 1),
    ]:
        store.create(name, "", priority=priority)
    tasks, total = store.list()
    assert [task.name for task in tasks] == [
        "urgent",
        "urgent-2",
        "high",
        "normal",
        "low",
        "none-a",
        "none-b",
    ]
    assert total == 7


def test_list_limit_keeps_the_total(store: TaskStore) -> None:
    for index in range(5):
        store.create(f"t{index}", "")
    tasks, total = store.list(limit=2)
    assert [task.id for task in tasks] == [1, 2] and total == 5


def test_list_filters_combine(store: TaskStore) -> None:
    epic = store.create("Epic", "all of it")
    store.create("Parse input", "tokens", parent=epic.identifier)
    store.create("Render output", "parse nothing", parent=epic.identifier)
    store.create("Parse later", "", priority=4)
    store.set_status("TASK-2", "completed")
    assert [task.id for task in store.list(statuses=["todo"])[0]] == [4, 1, 3]
    assert [task.id for task in store.list(statuses=["todo", "completed"])[0]] == [4, 1, 2, 3]
    assert [task.id for task in store.list(parent="TASK-1")[0]] == [2, 3]
    assert [task.id for task in store.list(query="parse")[0]] == [4, 2, 3]
    assert [
        task.id for task in store.list(query="PARSE", parent="TASK-1", statuses=["todo"])[0]
    ] == [3]
    assert store.list(query="zebra") == ([], 0)


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("test_db", ["test_db"]),
        ("100%", ["100%"]),
        ("a\\b", ["a\\b"]),
        ("%", ["100%"]),
        ("_", ["test_db"]),
    ],
)
def test_list_query_is_literal_text(store: TaskStore, query: str, names: list[str]) -> None:
    for name in ["test_db", "testXdb", "100%", "1000", "a\\b", "ab"]:
        store.create(name, "")
    assert [task.name for task in store.list(query=query)[0]] == names


def test_list_unknown_status_and_parent(store: TaskStore) -> None:
    with pytest.raises(TaskError) as error:
        store.list(statuses=["done"])
    assert codes(error) == "InvalidStatus"
    with pytest.raises(TaskError) as missing:
        store.list(parent="TASK-9")
    assert codes(missing) == "TaskNotFound"


def test_set_status_returns_the_previous_status(store: TaskStore) -> None:
    store.create("Build", "")
    task, previous = store.set_status("TASK-1", "failed", error="compiler crashed", exit_code=2)
    assert previous == "todo"
    assert (task.status, task.error, task.exit_code) == ("failed", "compiler crashed", 2)
    again, previous_again = store.set_status("TASK-1", "todo")
    assert previous_again == "failed" and again.error is None and again.exit_code is None


def test_set_status_refuses_unknown_status_and_task(store: TaskStore) -> None:
    store.create("Build", "")
    with pytest.raises(TaskError) as error:
        store.set_status("TASK-1", "done")
    assert codes(error) == "InvalidStatus"
    assert store.get("TASK-1").status == "todo"
    with pytest.raises(TaskError) as missing:
        store.set_status("TASK-2", "completed")
    assert codes(missing) == "TaskNotFound"


def test_a_database_file_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "dir" / "tasks.db"
    first = TaskStore(path)
    epic = first.create("Epic", "")
    first.create(
        "Child",
        "do it",
        parent=epic.identifier,
        depends_on=[epic.identifier],
        priority=1,
        command="make",
    )
    first.set_status("TASK-2", "failed", error="boom", exit_code=1)
    first.close()
    assert path.is_file()
    reopened = TaskStore(path)
    child = reopened.get("TASK-2")
    assert (
        child.name,
        child.instruction,
        child.status,
        child.priority,
        child.parent,
        child.command,
        child.error,
        child.exit_code,
        child.depends_on,
    ) == ("Child", "do it", "failed", 1, 1, "make", "boom", 1, (1,))
    assert reopened.create("Next", "").id == 3
    reopened.close()


def test_memory_stores_are_separate() -> None:
    first, second = TaskStore(), TaskStore()
    first.create("Only here", "")
    assert second.list() == ([], 0)
    first.close()
    second.close()


def test_concurrent_creates_from_threads_get_unique_ids(store: TaskStore) -> None:
    ids: list[int] = []
    lock = threading.Lock()

    def worker(prefix: int) -> None:
        for index in range(10):
            task = store.create(f"t{prefix}-{index}", "")
            with lock:
                ids.append(task.id)

    threads = [threading.Thread(target=worker, args=(number,)) for number in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(ids) == list(range(1, 61))
    assert store.list(limit=100)[1] == 60
